// The cache model's validation workbench (issue 24), built with the tests, not part of the
// product. Traces a launch once and keeps its request stream in a file, then replays the
// stream through the model as often as wanted (a 256^3 trace takes minutes; a replay,
// milliseconds to seconds), printing the totals as one CSV row.
//
//   cache_replay dump KERNEL SIZE OUT.stream        trace at the rung's default tile and parameters
//   cache_replay model IN.stream PROFILE [NAME=V]... replay; NAME: l1_kb l2_kb ways cus resident inflight
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <string>
#include <vector>

#include "core/caches/cache_trace.h"
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
            for (int i = 4; i < argc; ++i) {
                const std::string a = argv[i];
                const auto eq = a.find('=');
                const std::string k = a.substr(0, eq);
                const uint64_t v = k == "clustermap" ? 0 : std::strtoull(a.c_str() + eq + 1, nullptr, 10);
                if (k == "l1_kb") p.l1_bytes = v * 1024;
                else if (k == "l2_kb") p.l2_bytes = v * 1024;
                else if (k == "ways") p.ways = uint32_t(v);
                else if (k == "cus") p.cus = uint32_t(v);
                else if (k == "resident") p.resident = uint32_t(v);
                else if (k == "inflight") p.inflight_rounds = uint32_t(v);
                else if (k == "clusters") p.merge_clusters = uint32_t(v);
                else if (k == "hashed") p.hashed_sets = v != 0;
                else if (k == "clustermap") {
                    std::ifstream f(a.substr(eq + 1));
                    for (uint32_t c; f >> c;) p.cluster_of.push_back(c);
                }
                else throw std::runtime_error("unknown parameter " + k);
            }
            const CacheReport r = run_cache_model(s, p, argv[3]);
            const auto& c = r.totals;
            std::printf("l1_sectors=%llu l1_hit_rate=%.4f l2_load_sectors=%llu l2_sectors=%llu l2_merged_sectors=%llu "
                        "l2_hit_sectors=%llu dram_read_sectors=%llu dram_write_sectors=%llu\n",
                        (unsigned long long)c.l1_sectors, 100 * c.l1_hit_rate(), (unsigned long long)c.l2_load_sectors,
                        (unsigned long long)c.l2_sectors, (unsigned long long)c.l2_merged_sectors,
                        (unsigned long long)c.l2_hit_sectors, (unsigned long long)(c.dram_read_bytes / 32),
                        (unsigned long long)(c.dram_write_bytes / 32));
        } else {
            std::fprintf(stderr, "usage: cache_replay dump KERNEL SIZE OUT.stream | model IN.stream PROFILE [NAME=V]...\n");
            status = 2;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cache_replay: %s\n", e.what());
        status = 1;
    }
    std::fflush(nullptr);
    std::_Exit(status);
}
