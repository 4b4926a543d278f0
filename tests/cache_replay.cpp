// The cache model's validation workbench (issue 24), built with the tests, not part of the
// product. Traces a launch once and keeps its request stream in a file, then replays the
// stream through the model as often as wanted (a 256^3 trace takes minutes; a replay,
// milliseconds to seconds), printing the totals as one CSV row.
//
//   cache_replay dump KERNEL SIZE OUT.stream        trace at the rung's default tile and parameters
//   cache_replay sdump KERNEL SIZE OUT.sstream      trace a 3x3 sample (as trace --sample 3) and keep the
//                                                    launch made from it (issue 31: fitting at 448^3 and up)
//   cache_replay smodel IN.sstream GROUPS PROFILE [NAME=V]...  replay its first GROUPS groups (0: all);
//                                                    l2_sectors and l2_merged_sectors scaled to the whole launch
//   cache_replay model IN.stream PROFILE [NAME=V]... replay; NAME: l1_kb l2_kb ways cus resident inflight
//                                                    clusters hashed drift clustermap l1rand (cache9) l1ways (cache12)
//   cache_replay walk LINES STRIDE LAPS PROFILE order|shuffled [NAME=V]...  the L1 probe's walk (cache12)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "core/base/input_budget.h"
#include "core/caches/cache_trace.h"
#include "core/caches/translated_groups.h"
#include "core/emulator/trace_runner.h"
#include "core/kernel/catalog.h"
#include "core/trace/trace.h"

using namespace tilescope;

namespace {

template <class T>
void put(std::ofstream& f, const std::vector<T>& v) {
    const uint64_t n = v.size();
    f.write(reinterpret_cast<const char*>(&n), 8);
    f.write(reinterpret_cast<const char*>(v.data()), std::streamsize(n * sizeof(T)));
}
template <class T>
void get(std::ifstream& f, std::vector<T>& v) {
    uint64_t n = 0;
    f.read(reinterpret_cast<char*>(&n), 8);
    v.resize(n);
    f.read(reinterpret_cast<char*>(v.data()), std::streamsize(n * sizeof(T)));
}

void save(const CacheRequestStream& s, const std::string& path) {
    std::ofstream f(path, std::ios::binary);
    f.write(reinterpret_cast<const char*>(&s.sector_bytes), 4);
    std::string names;
    for (const auto& b : s.buffers) names += b + "\n";
    std::vector<char> chars(names.begin(), names.end());
    put(f, chars);
    put(f, s.buffer_first_sector);
    put(f, s.groups);
    put(f, s.requests);
    put(f, s.sectors);
    if (!f) throw std::runtime_error("cannot write " + path);
}

CacheRequestStream load(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    CacheRequestStream s;
    f.read(reinterpret_cast<char*>(&s.sector_bytes), 4);
    std::vector<char> chars;
    get(f, chars);
    std::string name;
    for (char c : chars)
        if (c == '\n') s.buffers.push_back(name), name.clear();
        else name += c;
    get(f, s.buffer_first_sector);
    get(f, s.groups);
    get(f, s.requests);
    get(f, s.sectors);
    if (!f) throw std::runtime_error("cannot read " + path);
    return s;
}

void save_moved(const TranslatedGroups& t, const std::string& path) {
    save(t.base, path + ".base");
    std::ofstream f(path, std::ios::binary);
    for (int d = 0; d < 3; ++d) put(f, t.step[d]);
    f.write(reinterpret_cast<const char*>(t.grid.data()), sizeof t.grid);
    if (!f) throw std::runtime_error("cannot write " + path);
}

TranslatedGroups load_moved(const std::string& path) {
    TranslatedGroups t;
    t.base = load(path + ".base");
    std::ifstream f(path, std::ios::binary);
    for (int d = 0; d < 3; ++d) get(f, t.step[d]);
    f.read(reinterpret_cast<char*>(t.grid.data()), sizeof t.grid);
    if (!f) throw std::runtime_error("cannot read " + path);
    return t;
}

void apply(CacheParams& p, int argc, char** argv, int first) {
    for (int i = first; i < argc; ++i) {
        const std::string a = argv[i];
        const auto eq = a.find('=');
        const std::string k = a.substr(0, eq);
        const uint64_t v = k == "clustermap" || k == "placement" || k == "deal" ? 0 : std::strtoull(a.c_str() + eq + 1, nullptr, 10);
        if (k == "l1_kb") p.l1_bytes = v * 1024;
        else if (k == "l2_kb") p.l2_bytes = v * 1024;
        else if (k == "ways") p.ways = uint32_t(v);
        else if (k == "l1ways") p.l1_ways = uint32_t(v);
        else if (k == "l1rrip") p.l1_rrip_bits = uint32_t(v);
        else if (k == "l1long") p.l1_rrip_long = std::strtod(a.c_str() + eq + 1, nullptr);
        else if (k == "cus") p.cus = uint32_t(v);
        else if (k == "resident") p.resident = uint32_t(v);
        else if (k == "inflight") p.inflight_rounds = uint32_t(v);
        else if (k == "clusters") p.merge_clusters = uint32_t(v);
        else if (k == "hashed") p.hashed_sets = v != 0;
        else if (k == "lsample") p.line_sample = uint32_t(v);
        else if (k == "halves") p.l2_halves = uint32_t(v);
        else if (k == "copy_ways") p.l2_copy_ways = uint32_t(v);
        else if (k == "age") p.age_pace = std::strtod(a.c_str() + eq + 1, nullptr);
        else if (k == "drift") p.drift = std::strtod(a.c_str() + eq + 1, nullptr);
        else if (k == "l1hit") p.l1_hit_rounds = std::strtod(a.c_str() + eq + 1, nullptr);
        else if (k == "dram") p.dram_rounds = std::strtod(a.c_str() + eq + 1, nullptr);
        else if (k == "l1rand") p.l1_random = std::strtod(a.c_str() + eq + 1, nullptr);
        else if (k == "clustermap") {
            std::ifstream f(a.substr(eq + 1));
            for (uint32_t c; f >> c;) p.cluster_of.push_back(c);
        } else if (k == "deal") {
            p.deal_order.clear();  // deal=none: round-robin (the profile's recorded order dropped)
            if (a.substr(eq + 1) == "none") continue;
            std::ifstream f(a.substr(eq + 1));
            for (uint32_t c; f >> c;) p.deal_order.push_back(c);
        } else if (k == "placement") {
            std::ifstream f(a.substr(eq + 1));
            for (uint32_t c; f >> c;) p.unit_of_group.push_back(c);
        } else throw std::runtime_error("unknown parameter " + k);
    }
}

void print_counts(const CacheCounts& c, double scale, double dram_scale = 1.0) {
    std::printf("l1_sectors=%llu l1_hit_rate=%.4f l2_load_sectors=%llu l2_sectors=%llu l2_merged_sectors=%llu "
                "l2_hit_sectors=%llu dram_read_sectors=%llu dram_write_sectors=%llu\n",
                (unsigned long long)(double(c.l1_sectors) * scale), 100 * c.l1_hit_rate(),
                (unsigned long long)(double(c.l2_load_sectors) * scale), (unsigned long long)(double(c.l2_sectors) * scale),
                (unsigned long long)(double(c.l2_merged_sectors) * scale),
                (unsigned long long)(double(c.l2_hit_sectors) * scale), (unsigned long long)(double(c.dram_read_bytes / 32) * dram_scale),
                (unsigned long long)(double(c.dram_write_bytes / 32) * dram_scale));
}

}  // namespace

int main(int argc, char** argv) {
    int status = 0;
    try {
        const std::string mode = argc > 1 ? argv[1] : "";
        if (mode == "dump" && argc == 5) {
            const KernelSpec* rung = find_rung(argv[2]);
            if (!rung) throw std::runtime_error(std::string("no rung ") + argv[2]);
            const LaunchConfig config{*rung, parse_size(argv[3]), rung->default_tile};
            use_emulator_only();
            TraceOptions o;
            o.checks = false;
            o.cache_requests = true;
            const Trace t = run_trace(config, o);
            if (!t.cache_requests || t.cache_requests_truncated) throw std::runtime_error("no request stream");
            save(*t.cache_requests, argv[4]);
            std::printf("kernel=%s size=%s tile=%d groups=%zu requests=%zu\n", argv[2], argv[3], config.tile,
                        t.cache_requests->groups.size(), t.cache_requests->requests.size());
        } else if (mode == "model" && argc >= 4) {
            const CacheRequestStream s = load(argv[2]);
            CacheParams p = load_cache_profile(argv[3]).params;
            apply(p, argc, argv, 4);
            const CacheReport r = run_cache_model(s, p, argv[3]);
            print_counts(r.totals, p.line_sample, p.line_sample);
        } else if (mode == "sdump" && argc == 5) {
            const KernelSpec* rung = find_rung(argv[2]);
            if (!rung) throw std::runtime_error(std::string("no rung ") + argv[2]);
            const LaunchConfig config{*rung, parse_size(argv[3]), rung->default_tile};
            use_emulator_only();
            const ResolvedLaunch launch = resolve(config);
            const std::array<uint64_t, 3> grid{launch.groups[0], launch.groups[1], launch.groups[2]};
            std::array<uint32_t, 3> sample{3, 3, 1};
            for (int d = 0; d < 3; ++d)
                if (grid[d] < sample[d]) sample[d] = uint32_t(grid[d]);
            TraceOptions o;
            o.checks = false;
            o.verify = false;
            o.cache_requests = true;
            o.sample = sample;
            o.detail_budget_bytes = 0;  // no group keeps element detail
            // 6,144^3 needs 4.6 GB (cache8), row at 1,984^3 about 10 GB on two workers: half the RAM
            o.max_memory_bytes = std::max<uint64_t>(6ull << 30, physical_memory_bytes() / 2);
            const Trace t = run_trace(config, o);
            if (!t.cache_requests || t.cache_requests_truncated) throw std::runtime_error("no request stream");
            const TranslatedGroups moved = fit_translated_groups(*t.cache_requests, sample, grid);
            save_moved(moved, argv[4]);
            std::printf("kernel=%s size=%s groups=%llu sectors_per_group=%zu\n", argv[2], argv[3],
                        (unsigned long long)moved.total_groups(), moved.base.sectors.size());
        } else if (mode == "smodel" && argc >= 5) {
            const TranslatedGroups moved = load_moved(argv[2]);
            uint64_t groups = std::strtoull(argv[3], nullptr, 10);
            if (groups == 0 || groups > moved.total_groups()) groups = moved.total_groups();
            CacheParams p = load_cache_profile(argv[4]).params;
            apply(p, argc, argv, 5);
            const CacheReport r = run_cache_model(moved, p, argv[4], groups);
            std::printf("groups_modelled=%llu groups_total=%llu ", (unsigned long long)groups,
                        (unsigned long long)moved.total_groups());
            print_counts(r.totals, double(moved.total_groups()) / double(groups) * p.line_sample, p.line_sample);
        } else if (mode == "walk" && argc >= 7) {
            // cache12: the L1 probe's walks (scripts/validation/caches_l1probe.cu) through the model: one
            // work-item follows a cycle of LINES lines STRIDE bytes apart for LAPS laps, one load at a
            // time, in order or (ORDER "shuffled") in an order drawn with a fixed seed (not the probe's).
            const uint64_t lines = std::strtoull(argv[2], nullptr, 10), stride = std::strtoull(argv[3], nullptr, 10);
            const int laps = std::atoi(argv[4]);
            const std::string order = argv[6];
            if (lines == 0 || lines > (1u << 20) || stride < 32 || stride % 32 || laps < 1 || laps > 1000 ||
                (order != "order" && order != "shuffled"))
                throw std::runtime_error("walk LINES STRIDE LAPS PROFILE order|shuffled: LINES 1 to 2^20, STRIDE a multiple of 32, LAPS 1 to 1000");
            std::vector<uint64_t> cycle(lines);
            for (uint64_t i = 0; i < lines; ++i) cycle[i] = i;
            if (order == "shuffled") {
                std::mt19937 rng(12345);
                std::shuffle(cycle.begin() + 1, cycle.end(), rng);
            }
            CacheRequestStream s;
            s.sector_bytes = 32;
            s.begin_group();
            for (int lap = 0; lap < laps; ++lap)
                for (const uint64_t l : cycle) s.add({l * (stride / 32)}, false);
            CacheParams p = load_cache_profile(argv[5]).params;
            p.resident = 1;
            apply(p, argc, argv, 7);
            const CacheReport r = run_cache_model(s, p, argv[5]);
            std::printf("lines=%llu stride=%llu laps=%d order=%s l1_hit_rate=%.4f\n", (unsigned long long)lines,
                        (unsigned long long)stride, laps, order.c_str(),
                        100.0 * double(r.totals.l1_hit_sectors) / double(std::max<uint64_t>(1, r.totals.l1_sectors)));
        } else {
            std::fprintf(stderr, "usage: cache_replay dump KERNEL SIZE OUT.stream | model IN.stream PROFILE [NAME=V]... | sdump KERNEL SIZE OUT | smodel IN GROUPS PROFILE [NAME=V]...\n");
            status = 2;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cache_replay: %s\n", e.what());
        status = 1;
    }
    std::fflush(nullptr);
    std::_Exit(status);
}
