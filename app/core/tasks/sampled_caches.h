#pragma once
// The cache model at a size too large to trace whole (issue 24, item 3: naive and tiled at
// 4096^3, where A and B outgrow the L2): a block of work-groups at the origin is traced on
// the emulator, checked to be moved copies of group (0,0,0) (core/caches: TranslatedGroups),
// and the model replays the launch's first groups made from it, dealt as the whole launch
// deals them. Every figure is modelled from a traced sample, and says so.
#include <array>
#include <cstdint>
#include <string>

#include "core/caches/cache_trace.h"
#include "core/caches/translated_groups.h"
#include "core/kernel/launch_config.h"
#include "core/tasks/task.h"

namespace tilescope::tasks {

struct SampledCachesRequest {
    LaunchConfig config;                         // the whole launch
    CacheProfile profile;
    CacheOverrides overrides;
    std::array<uint32_t, 3> sample{3, 3, 1};     // traced block of groups, per dimension
    uint64_t model_groups = 0;                   // groups the model replays; 0: see default_model_groups
    uint64_t max_lookups = 2'000'000'000;        // the default's budget of sector lookups
};

struct SampledCachesResult {
    CacheReport report;          // over the modelled groups (bounds not computed)
    uint64_t groups_total = 0;   // of the whole launch
    uint64_t groups_traced = 0;  // the sample
    uint64_t groups_checked = 0; // traced groups the translation rule predicted exactly (beyond those it was fitted on)
    uint64_t groups_modelled = 0;
    uint64_t wave = 0;           // groups resident at once (units x resident)
    uint64_t sectors_per_group = 0;
    double trace_seconds = 0, model_seconds = 0;
    // The whole launch's DRAM bytes, scaled from the modelled groups (= the report's when all were modelled).
    double whole_dram_read_bytes() const;
    double whole_dram_write_bytes() const;
    double scale() const { return groups_modelled ? double(groups_total) / double(groups_modelled) : 0.0; }
};

// The groups the model replays when none were asked for: all of them when their sector
// lookups fit `max_lookups`, else as many whole waves as fit (at least two).
uint64_t default_model_groups(uint64_t total_groups, uint64_t wave, uint64_t sectors_per_group, uint64_t max_lookups);

// Traces the sample (no race checks: their shadow memory at 4096^3 would be tens of GB),
// fits the rule, models. Throws InputError (a kernel whose groups are not moved copies, a
// sample larger than the launch, a second kernel) or Cancelled.
SampledCachesResult model_caches_sampled(const SampledCachesRequest& request, const TaskProgress& progress);

// JSON: {"sample": {...}, "caches": cache_report_to_json} (trace --sample --json).
nlohmann::json sampled_caches_to_json(const SampledCachesResult& r);
// The terminal text: what was traced and modelled, the table, the whole launch's DRAM.
std::string sampled_caches_text(const SampledCachesResult& r, const std::string& title, const std::string& kernel = "");

}  // namespace tilescope::tasks
