#include "core/caches/cache_trace.h"

#include "core/base/number_text.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/device/cl.h"
#include "core/base/embedded_files.h"
#include "core/base/errors.h"
#include "core/caches/held_out.h"
#include "core/caches/occupancy.h"
#include "core/trace/trace.h"

namespace tilescope {
using nlohmann::json;

namespace {

constexpr std::string_view kProfileDir = "assets/caches/";

std::string read_line(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::string s;
    std::getline(in, s);
    return s;
}

uint64_t size_with_suffix(const std::string& s) {
    uint64_t v = 0;
    size_t i = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) v = v * 10 + uint64_t(s[i++] - '0');
    if (i < s.size() && (s[i] == 'K' || s[i] == 'k')) v <<= 10;
    if (i < s.size() && s[i] == 'M') v <<= 20;
    return v;
}

// This machine's data caches: the L1d of one core and the last level, from sysfs, else
// from the C library (which asks the CPU). Returns a note on where they came from.
std::string read_cpu_caches(CacheParams& p) {
    uint64_t l1 = 0, last = 0, line = 0, ways = 0;
    int last_level = 0;
    const std::filesystem::path dir = "/sys/devices/system/cpu/cpu0/cache";
    std::error_code ec;
    for (int i = 0; i < 16; ++i) {
        const auto index = dir / ("index" + std::to_string(i));
        if (!std::filesystem::exists(index, ec)) break;
        const int level = std::atoi(read_line(index / "level").c_str());
        const std::string type = read_line(index / "type");
        const uint64_t size = size_with_suffix(read_line(index / "size"));
        if (type == "Instruction" || size == 0) continue;
        if (level == 1) {
            l1 = size;
            line = std::strtoull(read_line(index / "coherency_line_size").c_str(), nullptr, 10);
            ways = std::strtoull(read_line(index / "ways_of_associativity").c_str(), nullptr, 10);
        }
        if (level > last_level) last_level = level, last = size;
    }
    std::string from = "sysfs (" + dir.string() + ")";
    if (!l1 || !last || last_level < 2) {
        l1 = static_cast<uint64_t>(std::max(0L, sysconf(_SC_LEVEL1_DCACHE_SIZE)));
        line = static_cast<uint64_t>(std::max(0L, sysconf(_SC_LEVEL1_DCACHE_LINESIZE)));
        ways = static_cast<uint64_t>(std::max(0L, sysconf(_SC_LEVEL1_DCACHE_ASSOC)));
        last = static_cast<uint64_t>(std::max({0L, sysconf(_SC_LEVEL2_CACHE_SIZE), sysconf(_SC_LEVEL3_CACHE_SIZE)}));
        from = "the C library's sysconf (sysfs has no cache information here)";
    }
    if (!l1 || !last) return "neither sysfs nor sysconf report caches here: the file's values";
    p.l1_bytes = l1;
    p.l2_bytes = std::min<uint64_t>(last, 1ull << 30);
    if (line >= 16 && line <= 1024) p.line_bytes = p.sector_bytes = static_cast<uint32_t>(line);
    if (ways >= 1 && ways <= 64) p.ways = static_cast<uint32_t>(ways);
    p.cus = static_cast<uint32_t>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
    return from;
}

json counts_json(const CacheCounts& c) {
    return {{"l1_sectors", c.l1_sectors},         {"l1_hit_sectors", c.l1_hit_sectors},
            {"l2_sectors", c.l2_sectors},         {"l2_hit_sectors", c.l2_hit_sectors}, {"l2_merged_sectors", c.l2_merged_sectors},
            {"dram_read_bytes", c.dram_read_bytes}, {"dram_write_bytes", c.dram_write_bytes}};
}

std::string percent(uint64_t part, uint64_t whole) {
    if (!whole) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * double(part) / double(whole));
    return buf;
}

std::string row(const std::string& name, const CacheCounts& c) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "  %-10s %10s %12s %7s %12s %7s %14s %14s\n", name.c_str(),
                  grouped(c.l1_requests).c_str(), grouped(c.l1_sectors).c_str(),
                  percent(c.l1_hit_sectors, c.l1_sectors).c_str(), grouped(c.l2_sectors).c_str(),
                  percent(c.l2_hit_sectors, c.l2_sectors).c_str(), (grouped(c.dram_read_bytes) + " B").c_str(),
                  (grouped(c.dram_write_bytes) + " B").c_str());
    return buf;
}

}  // namespace

std::vector<std::string> cache_profile_names() {
    return embedded_names_in(kProfileDir, ".json");
}

CacheProfile parse_cache_profile(const std::string& name, const std::string& text) {
    const json j = json::parse(text);
    CacheProfile p;
    p.name = name;
    p.title = j.value("title", name);
    p.source = j.value("source", "");
    p.notes = j.value("notes", "");
    CacheParams& c = p.params;
    c.l1_bytes = j.at("l1_kb").get<uint64_t>() * 1024;
    c.l2_bytes = j.at("l2_kb").get<uint64_t>() * 1024;
    c.line_bytes = j.at("line").get<uint32_t>();
    c.sector_bytes = j.at("sector").get<uint32_t>();
    c.ways = j.at("ways").get<uint32_t>();
    c.cus = j.at("cus").get<uint32_t>();
    c.resident = j.at("resident").get<uint32_t>();
    c.inflight_rounds = j.value("inflight_rounds", 0u);
    c.merge_clusters = j.value("merge_clusters", 1u);
    c.hashed_sets = j.value("hashed_sets", false);
    c.drift = j.value("drift", 0.0);
    c.age_pace = j.value("age_pace", 0.0);
    c.l2_halves = j.value("l2_halves", 1u);
    c.l2_copy_ways = j.value("l2_copy_ways", c.ways);
    if (j.contains("deal_order")) c.deal_order = j.at("deal_order").get<std::vector<uint32_t>>();
    p.occupancy = j.value("occupancy", "");
    if (j.contains("registers")) {
        const json& r = j.at("registers");
        p.registers_per_cu = r.at("per_cu").get<uint32_t>();
        p.register_partitions = std::max(1u, r.at("partitions").get<uint32_t>());
        p.register_granule = std::max(1u, r.at("granule").get<uint32_t>());
        p.warp_size = std::max(1u, r.at("warp").get<uint32_t>());
    }
    if (j.contains("carveouts_kb")) p.carveouts_kb = j.at("carveouts_kb").get<std::vector<uint32_t>>();
    p.carveout_local_factor = j.value("carveout_local_factor", 1u);
    p.carveout_min_kb = j.value("carveout_min_kb", 0u);
    if (j.value("sysfs", false)) {
        p.from_sysfs = true;
        p.source = "read at run time from " + read_cpu_caches(c) + "; " + p.source;
    }
    return p;
}

CacheProfile load_cache_profile(const std::string& name, const std::string& option) {
    const std::string path = std::string(kProfileDir) + name + ".json";
    for (const EmbeddedFile& f : embedded_files())
        if (f.path == path) return parse_cache_profile(name, std::string(f.text));
    std::string accepted;
    for (const std::string& n : cache_profile_names()) accepted += (accepted.empty() ? "" : ", ") + n;
    throw InputError(option + " " + name + ": no such cache profile; accepted: " + accepted);
}

std::optional<ReportedCache> reported_cache(const DeviceInfo& device) {
    if (device.is_emulator) return std::nullopt;
    try {
        const cl::Device d = cl_device(device);
        ReportedCache r{d.getInfo<CL_DEVICE_GLOBAL_MEM_CACHE_SIZE>(), d.getInfo<CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE>()};
        if (r.bytes == 0 && r.line_bytes == 0) return std::nullopt;
        return r;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

std::string cache_profile_for(const DeviceInfo& device) {
    std::string name = device.name;
    for (char& ch : name) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    if (name.find("H200") != std::string::npos) return "h200";
    if (name.find("H100") != std::string::npos) return "h100";
    if (device.is_cpu && !device.is_emulator) return "cpu";
    return "";
}

std::string cache_profile_base(const std::string& report_profile) {
    return report_profile.substr(0, report_profile.find(" + "));
}

CacheParams apply_overrides(CacheParams p, const CacheOverrides& o) {
    if (o.l1_kb) p.l1_bytes = *o.l1_kb * 1024;
    if (o.l2_kb) p.l2_bytes = *o.l2_kb * 1024;
    if (o.line) {
        p.line_bytes = *o.line;
        // A line smaller than the profile's sector is one sector.
        if (p.sector_bytes > p.line_bytes) p.sector_bytes = p.line_bytes;
    }
    if (o.ways) p.ways = *o.ways;
    if (o.cus) p.cus = *o.cus;
    if (o.resident) p.resident = *o.resident;
    return p;
}

uint32_t launch_resident(const CacheProfile& profile, uint32_t group_threads, uint64_t group_local_bytes, uint32_t regs) {
    if (profile.occupancy.empty() || group_threads == 0) return profile.params.resident;
    const Occupancy o = occupancy(load_occupancy_profile(profile.occupancy), group_threads, group_local_bytes);
    if (!o.launches || o.groups == 0) return profile.params.resident;
    uint32_t groups = o.groups;
    if (regs > 0 && profile.registers_per_cu > 0) {
        // Registers are allocated per warp, a work-item's rounded up to the granule, within
        // one partition of the register file (a warp scheduler's); a group's warps may spread
        // over the partitions.
        const uint64_t per_warp = uint64_t((regs + profile.register_granule - 1) / profile.register_granule) *
                                  profile.register_granule * profile.warp_size;
        const uint64_t warps = uint64_t(profile.registers_per_cu / profile.register_partitions) / per_warp *
                               profile.register_partitions;
        const uint64_t group_warps = (uint64_t(group_threads) + profile.warp_size - 1) / profile.warp_size;
        groups = static_cast<uint32_t>(std::min<uint64_t>(groups, warps / group_warps));
    }
    return std::max(1u, groups);
}

uint32_t launch_carveout_kb(const CacheProfile& profile, uint32_t resident, uint64_t group_local_bytes) {
    if (profile.carveouts_kb.empty() || (group_local_bytes == 0 && profile.carveout_min_kb == 0)) return 0;
    const uint64_t reserved =
        profile.occupancy.empty() ? 0 : load_occupancy_profile(profile.occupancy).reserved_bytes_per_group;
    const uint64_t need = std::max(uint64_t(profile.carveout_min_kb) * 1024,
                                   uint64_t(resident) * (profile.carveout_local_factor * group_local_bytes + reserved));
    uint32_t largest = 0;
    for (uint32_t kb : profile.carveouts_kb) {
        if (uint64_t(kb) * 1024 >= need) return kb;
        largest = std::max(largest, kb);
    }
    return largest;
}

CacheParams launch_params(const CacheProfile& profile, const CacheOverrides& overrides, uint32_t group_threads,
                          uint64_t group_local_bytes) {
    CacheParams p = profile.params;
    if (group_threads > 0 && !profile.occupancy.empty()) {
        p.resident = launch_resident(profile, group_threads, group_local_bytes, overrides.regs.value_or(0));
        const uint64_t carveout = uint64_t(launch_carveout_kb(profile, p.resident, group_local_bytes)) * 1024;
        p.l1_bytes = p.l1_bytes > carveout ? p.l1_bytes - carveout : 0;
    }
    return apply_overrides(p, overrides);
}

namespace {
// The launch's work-items per group and local bytes per group, as traced.
std::pair<uint32_t, uint64_t> traced_group_shape(const Trace& trace) {
    uint64_t bytes = 0;
    for (const LocalBuffer& l : trace.local_buffers) bytes += l.bytes;
    const uint64_t items = trace.local[0] * trace.local[1] * trace.local[2];
    return {items > 0 && items < (1u << 20) ? static_cast<uint32_t>(items) : 0u, bytes};
}
}  // namespace

CacheParams trace_launch_params(const Trace& trace, const CacheProfile& profile, const CacheOverrides& overrides) {
    const auto [items, bytes] = traced_group_shape(trace);
    return launch_params(profile, overrides, items, bytes);
}

CacheReport model_trace_caches(const Trace& trace, const CacheProfile& profile, const CacheOverrides& overrides) {
    if (!trace.cache_requests)
        throw InputError("--caches: this trace holds no cache requests" +
                         std::string(trace.cache_requests_truncated ? " (too many to keep: use a smaller --size)" : ""));
    CacheParams params = trace_launch_params(trace, profile, overrides);
    // The profile's sector may be larger than the trace's (a CPU fills whole lines); the
    // model then coarsens. A smaller one would need a finer trace.
    if (params.sector_bytes < trace.cache_requests->sector_bytes)
        throw InputError("--sector " + std::to_string(trace.cache_requests->sector_bytes) + ": profile " + profile.name +
                         " has " + std::to_string(params.sector_bytes) + "-byte sectors; accepted: --sector " +
                         std::to_string(params.sector_bytes) + " or smaller");
    return run_cache_model(*trace.cache_requests, params, profile.name + (overrides.any() ? " + overrides" : ""));
}

std::vector<uint32_t> dram_fetches_per_element(const CacheRequestStream& s, const CacheReport& r,
                                               const std::string& buffer, uint32_t element_size, uint64_t elements) {
    const auto it = std::find(s.buffers.begin(), s.buffers.end(), buffer);
    if (it == s.buffers.end() || s.buffer_first_sector.size() != s.buffers.size()) return {};
    const uint64_t first = s.buffer_first_sector[size_t(it - s.buffers.begin())] * s.sector_bytes;  // bytes
    const uint64_t model_sector = r.params.sector_bytes;
    std::vector<uint32_t> out(elements, 0);
    for (uint64_t e = 0; e < elements; ++e) {
        const uint64_t sector = (first + e * element_size) / model_sector;
        const auto f = std::lower_bound(r.dram_reads.begin(), r.dram_reads.end(), std::make_pair(sector, uint32_t(0)));
        if (f != r.dram_reads.end() && f->first == sector) out[e] = f->second;
    }
    return out;
}

std::shared_ptr<const Trace> with_dram_heatmap(const Trace& trace, const CacheReport& report) {
    auto copy = std::make_shared<Trace>(trace);
    if (!trace.cache_requests) return copy;
    for (TracedBuffer& b : copy->buffers) {
        auto counts = dram_fetches_per_element(*trace.cache_requests, report, b.name, b.element_size, b.elements);
        if (!counts.empty()) b.load_counts = std::move(counts);
    }
    return copy;
}

json cache_report_to_json(const CacheReport& r) {
    json j;
    j["profile"] = r.profile;
    j["params"] = {{"l1_kb", r.params.l1_bytes / 1024}, {"l2_kb", r.params.l2_bytes / 1024},
                   {"line", r.params.line_bytes},       {"sector", r.params.sector_bytes},
                   {"ways", r.params.ways},             {"cus", r.params.cus},
                   {"resident", r.params.resident},
                   {"inflight_rounds", r.params.inflight_rounds},
                   {"merge_clusters", r.params.merge_clusters},
                   {"hashed_sets", r.params.hashed_sets},
                   {"drift", r.params.drift},
                   {"age_pace", r.params.age_pace},
                   {"l2_halves", r.params.l2_halves},
                   {"l2_copy_ways", r.params.l2_copy_ways},
                   {"deal", r.params.deal_order.empty() ? std::string("round-robin")
                                                        : "recorded order, " + std::to_string(r.params.deal_order.size()) + " groups"}};
    j["totals"] = counts_json(r.totals);
    j["bounds"] = {{"distinct_sectors", r.bounds.distinct_sectors},
                   {"group_distinct_sectors", r.bounds.group_distinct_sectors}};
    json buffers = json::object();
    for (const auto& [name, c] : r.buffers) buffers[name] = counts_json(c);
    j["buffers"] = buffers;
    json lines = json::array();
    for (const auto& [line, c] : r.lines) {
        json l = {{"line", line}};
        l.update(counts_json(c));
        lines.push_back(l);
    }
    j["lines"] = lines;
    return j;
}

std::string cache_check_lines(const std::string& report_profile, const std::string& indent, const std::string& kernel) {
    const std::string base = cache_profile_base(report_profile);
    // The check holds for the profile as measured: not once options override its values.
    if (base != report_profile) return "";
    const std::string l2 = held_out_l2_line(held_out_table(), base, kernel),
                      l1 = held_out_l1_line(held_out_table(), base, kernel);
    std::string out;
    if (!l2.empty()) out += indent + "L2 sectors, held to the hardware: " + l2 + "\n";
    if (!l1.empty()) out += indent + "L1 hit, held to the hardware: " + l1 + "\n";
    const std::string dram = dram_past_l2_line(dram_past_l2_table(), held_out_table(), base, kernel);
    if (!dram.empty()) out += indent + "DRAM reads past the L2, held to the hardware: " + dram + "\n";
    return out;
}

std::string cache_report_table(const CacheReport& r, const std::string& title, const std::string& kernel) {
    const CacheParams& p = r.params;
    std::ostringstream o;
    o << "caches (MODELLED from the traced requests; profile " << r.profile << (title.empty() ? "" : ": " + title)
      << ")\n  L1 " << (p.l1_bytes ? std::to_string(p.l1_bytes / 1024) + " KB" : std::string("none")) << " x " << p.cus
      << " compute units, L2 " << p.l2_bytes / 1024 << " KB shared" << (p.l2_halves == 2 ? " in two halves" : "") << ", lines of " << p.line_bytes << " B in "
      << p.sector_bytes << "-B sectors, " << p.ways << "-way LRU, " << p.resident << " work-groups resident per unit\n";
    char head[256];
    std::snprintf(head, sizeof head, "  %-10s %10s %12s %7s %12s %7s %14s %14s\n", "", "L1 loads", "L1 sectors", "hit",
                  "L2 sectors", "hit", "DRAM read", "DRAM write");
    o << head;
    for (const auto& [name, c] : r.buffers) o << row(name, c);
    o << row("total", r.totals);
    o << cache_check_lines(r.profile, "  ", kernel);
    if (r.bounds.distinct_sectors || r.bounds.group_distinct_sectors)  // not computed for a sampled launch
        o << "  bounds (order-independent): " << grouped(r.bounds.distinct_sectors)
      << " distinct sectors (a perfect L2 still reads " << grouped(r.bounds.distinct_sectors * p.sector_bytes)
      << " B from DRAM); " << grouped(r.bounds.group_distinct_sectors)
      << " summed per work-group (perfect, unshared L1s load that many from L2; modelled: "
      << grouped(r.totals.l2_load_sectors) << ")\n";
    std::vector<std::pair<int32_t, CacheCounts>> busiest = r.lines;
    std::sort(busiest.begin(), busiest.end(),
              [](const auto& a, const auto& b) { return a.second.l2_sectors > b.second.l2_sectors; });
    if (busiest.size() > 6) busiest.resize(6);
    for (const auto& [line, c] : busiest) o << row("line " + std::to_string(line), c);
    return o.str();
}

}  // namespace tilescope
