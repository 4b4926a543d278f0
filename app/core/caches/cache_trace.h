#pragma once
// The cache model applied to a trace: the plugin's requests turned into the model's
// stream, the device profiles (assets/caches/*.json), and the model's report as JSON
// (trace --json's "caches") and as the terminal table. Every figure here is modelled.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/caches/cache_model.h"
#include "core/device/opencl_env.h"

namespace tilescope {

struct Trace;


struct CacheProfile {
    std::string name;    // file name without .json: "h200", "teaching", "cpu"
    std::string title;   // "NVIDIA H200-like (GH100, SXM)"
    std::string source;  // where the figures come from
    std::string notes;   // what the model leaves out for this device
    CacheParams params;
    bool from_sysfs = false;  // the figures were read from this machine's sysfs at run time
    // Per-launch residency (issue 31, fourth round): when set, the occupancy profile
    // (assets/occupancy/) whose limits (threads, local memory, the unit's cap) and the
    // register file below give the work-groups a unit runs at once for each launch, as the
    // GPU would; params.resident is then only the fallback when a launch's shape is unknown.
    std::string occupancy;
    // The unit's register file: registers_per_cu split into register_partitions (one per warp
    // scheduler), a work-item's registers rounded up to register_granule, warps of warp_size.
    // 0: registers are not counted.
    uint32_t registers_per_cu = 0, register_partitions = 1, register_granule = 1, warp_size = 32;
    // The L1/shared-memory split's steps (KB): the L1 keeps l1_kb less the smallest step that
    // holds the resident groups' local memory (plus what the system reserves per group).
    // Empty: the L1 keeps l1_kb whatever local memory a launch takes.
    std::vector<uint32_t> carveouts_kb;
    // The driver's choice among those steps (cache10, read off the carve-outs ncu recorded for the
    // seven CUDA twins on the lent H200 and H100): the smallest step that holds, for each resident
    // group, carveout_local_factor times its local memory plus what the system reserves, and at
    // least carveout_min_kb (taken by kernels without local memory too). 1 and 0: the smallest step
    // that holds the groups, none for a launch without local memory (the fourth round's rule).
    uint32_t carveout_local_factor = 1, carveout_min_kb = 0;
};

// Profiles compiled into the binary (assets/caches/), by name.
std::vector<std::string> cache_profile_names();
// Throws InputError naming `option` and the accepted names when unknown.
CacheProfile load_cache_profile(const std::string& name, const std::string& option = "--caches");
// Parses one profile file's text (the sysfs values replace the file's when it asks for them).
CacheProfile parse_cache_profile(const std::string& name, const std::string& text);

// What a real device says of its global-memory cache (CL_DEVICE_GLOBAL_MEM_CACHE_SIZE,
// CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE), shown beside the profile that models it.
struct ReportedCache {
    uint64_t bytes = 0;
    uint32_t line_bytes = 0;
};
std::optional<ReportedCache> reported_cache(const DeviceInfo& device);
// The profile that models `device`: "h200", "h100", "cpu"; empty when none fits.
std::string cache_profile_for(const DeviceInfo& device);

// The profile a report names, without " + overrides": "h200 + overrides" -> "h200".
std::string cache_profile_base(const std::string& report_profile);

// Overrides from the command line (KB for sizes), applied over a profile.
struct CacheOverrides {
    std::optional<uint64_t> l1_kb, l2_kb;
    std::optional<uint32_t> line, ways, cus, resident;
    // Registers per work-item (--regs), what the device's compiler gave the kernel: a fact of
    // the launch, not a change to the profile (so not counted in any()). Unset: registers do
    // not limit the residency.
    std::optional<uint32_t> regs;
    bool any() const { return l1_kb || l2_kb || line || ways || cus || resident; }
};
CacheParams apply_overrides(CacheParams params, const CacheOverrides& overrides);

// The work-groups one unit runs at once for a launch of `group_threads`-item groups taking
// `group_local_bytes` of local memory and `regs` registers a work-item (0: not counted), by the
// profile's occupancy and register file; the profile's `resident` when it names no occupancy.
uint32_t launch_resident(const CacheProfile& profile, uint32_t group_threads, uint64_t group_local_bytes, uint32_t regs);
// The shared-memory carve-out (KB) the profile's driver takes for `resident` groups of
// `group_local_bytes` each: carveouts_kb's smallest step holding carveout_local_factor times the
// local memory plus the occupancy profile's reserve per group, and at least carveout_min_kb (the
// largest step when none holds that); 0 when the profile has no steps, or the launch no local
// memory and the profile no minimum.
uint32_t launch_carveout_kb(const CacheProfile& profile, uint32_t resident, uint64_t group_local_bytes);
// The profile's parameters for one launch: its residency (launch_resident) and the L1 that
// the local memory of those groups leaves (launch_carveout_kb), then the overrides (an explicit
// --resident or --l1 wins). group_threads 0: the launch's shape is unknown, the profile's own.
CacheParams launch_params(const CacheProfile& profile, const CacheOverrides& overrides, uint32_t group_threads,
                          uint64_t group_local_bytes);

// launch_params for a traced launch (its local size and local arrays).
CacheParams trace_launch_params(const Trace& trace, const CacheProfile& profile, const CacheOverrides& overrides);

// Runs the model over a trace recorded with its cache requests; throws InputError when
// the trace has none (or they were truncated).
CacheReport model_trace_caches(const Trace& trace, const CacheProfile& profile, const CacheOverrides& overrides = {});

// How often the model read each element's sector from DRAM, per element of `buffer` in
// storage order (the heatmap "by DRAM fetches"); empty when the stream does not know
// where the buffer lies.
std::vector<uint32_t> dram_fetches_per_element(const CacheRequestStream& stream, const CacheReport& report,
                                               const std::string& buffer, uint32_t element_size, uint64_t elements);
// A copy of `trace` whose buffers' load heatmaps count DRAM fetches instead of loads.
std::shared_ptr<const Trace> with_dram_heatmap(const Trace& trace, const CacheReport& report);

// trace --json's "caches" object (names fixed by issue 11).
nlohmann::json cache_report_to_json(const CacheReport& report);

// The held-out check of the profile a report names, computed from the compiled-in held-out
// table (core/caches/held_out.h): for `kernel` alone when the table holds it, else the
// profile's summary; one line for L2 sectors, one for the L1 hit rate. "" when the table has
// no row for the profile, or options override it (then it is not the profile measured).
std::string cache_check_lines(const std::string& report_profile, const std::string& indent = "  ",
                              const std::string& kernel = "");

// The terminal table: per buffer and in total, then the held-out check of the profile (when
// it has one), the bounds and the busiest lines.
std::string cache_report_table(const CacheReport& report, const std::string& title = "", const std::string& kernel = "");

}  // namespace tilescope
