#include "core/tasks/sampled_caches.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>

#include "core/base/errors.h"
#include "core/base/input_budget.h"
#include "core/base/number_text.h"
#include "core/emulator/trace_runner.h"

namespace tilescope::tasks {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

double SampledCachesResult::whole_dram_read_bytes() const {
    return double(report.totals.dram_read_bytes) * scale();
}

double SampledCachesResult::whole_dram_write_bytes() const {
    return double(report.totals.dram_write_bytes) * scale();
}

uint64_t default_model_groups(uint64_t total, uint64_t wave, uint64_t sectors_per_group, uint64_t max_lookups) {
    if (total == 0) return 0;
    const uint64_t per_group = std::max<uint64_t>(1, sectors_per_group);
    if (total <= max_lookups / per_group) return total;
    wave = std::max<uint64_t>(1, wave);
    const uint64_t waves = std::max<uint64_t>(2, max_lookups / per_group / wave);
    return std::min(total, waves * wave);
}

SampledCachesResult model_caches_sampled(const SampledCachesRequest& req, const TaskProgress& progress) {
    SampledCachesResult out;
    if (req.config.kernel.then)
        throw InputError("--sample: '" + req.config.kernel.name +
                         "' launches a second kernel; accepted: a kernel of one launch");
    const ResolvedLaunch launch = resolve(req.config);
    std::array<uint64_t, 3> grid{launch.groups[0], launch.groups[1], launch.groups[2]};
    std::array<uint32_t, 3> sample = req.sample;
    for (int d = 0; d < 3; ++d) {
        if (grid[d] == 1) sample[d] = 1;
        if (sample[d] > grid[d] || (grid[d] > 1 && sample[d] < 2))
            throw InputError("--sample " + std::to_string(req.sample[d]) + ": the launch has " +
                             std::to_string(grid[d]) + " work-groups along dimension " + std::to_string(d) +
                             "; accepted: 2 to " + std::to_string(grid[d]) + " (3 checks the rule on more groups)");
    }
    out.groups_total = grid[0] * grid[1] * grid[2];
    out.groups_traced = uint64_t(sample[0]) * sample[1] * sample[2];

    TraceOptions to;
    to.checks = false;
    to.verify = false;
    to.cache_requests = true;
    to.sample = sample;
    to.geometry.sector_bytes = std::min<uint32_t>(32, apply_overrides(req.profile.params, req.overrides).sector_bytes);
    // The emulator holds the whole launch's matrices and per-element heatmaps (2.1 GB at
    // 4096^3) however few groups run, and a kernel without barriers (row) a whole group's
    // requests in every worker (about 5 GB at 1984^3): allowed up to half the RAM, which
    // the estimate (open requests included) is held to before the run starts.
    to.max_memory_bytes = std::max<uint64_t>(3ull << 29, physical_memory_bytes() / 2);
    to.detail_budget_bytes = 0;  // no group keeps element detail: the model needs none
    to.cancelled = progress.cancelled;
    to.progress = [&](uint64_t done, uint64_t total) { progress.advance(done, total); };
    progress.say("tracing " + std::to_string(out.groups_traced) + " of " + grouped(out.groups_total) +
                 " work-groups on the emulator");
    auto started = std::chrono::steady_clock::now();
    const Trace trace = run_trace(req.config, to);
    out.trace_seconds = seconds_since(started);
    if (!trace.cache_requests || trace.cache_requests_truncated)
        throw InputError("--sample: the traced groups' requests did not fit in memory; accepted: a smaller --sample");
    const TranslatedGroups groups = fit_translated_groups(*trace.cache_requests, sample, grid);
    out.groups_checked = groups.groups_checked;
    out.sectors_per_group = groups.base.sectors.size();

    const CacheParams params = trace_launch_params(trace, req.profile, req.overrides);
    out.wave = uint64_t(params.cus) * params.resident;
    out.groups_modelled = req.model_groups ? std::min(req.model_groups, out.groups_total)
                                           : default_model_groups(out.groups_total, out.wave, out.sectors_per_group,
                                                                  req.max_lookups);
    progress.say("modelling the first " + grouped(out.groups_modelled) + " of " + grouped(out.groups_total) +
                 " work-groups");
    started = std::chrono::steady_clock::now();
    bool stopped = false;
    out.report = run_cache_model(groups, params, req.profile.name + (req.overrides.any() ? " + overrides" : ""),
                                 out.groups_modelled, [&](uint64_t done, uint64_t total) {
                                     progress.advance(done, total);
                                     stopped = stopped || progress.is_cancelled();
                                     return !stopped;
                                 });
    if (stopped) throw Cancelled();
    out.model_seconds = seconds_since(started);
    return out;
}

nlohmann::json sampled_caches_to_json(const SampledCachesResult& r) {
    nlohmann::json j;
    j["sample"] = {{"groups_total", r.groups_total},
                   {"groups_traced", r.groups_traced},
                   {"groups_checked", r.groups_checked},
                   {"groups_modelled", r.groups_modelled},
                   {"wave", r.wave},
                   {"sectors_per_group", r.sectors_per_group},
                   {"scale", r.scale()},
                   {"whole_dram_read_bytes", r.whole_dram_read_bytes()},
                   {"whole_dram_write_bytes", r.whole_dram_write_bytes()},
                   {"trace_seconds", r.trace_seconds},
                   {"model_seconds", r.model_seconds},
                   {"kind", "modelled from a traced sample"}};
    j["caches"] = cache_report_to_json(r.report);
    return j;
}

std::string sampled_caches_text(const SampledCachesResult& r, const std::string& title, const std::string& kernel) {
    std::ostringstream o;
    o << "sampled (modelled from a traced sample): traced " << grouped(r.groups_traced) << " of " << grouped(r.groups_total)
      << " work-groups at the origin in " << fixed(r.trace_seconds, 1) << " s; " << grouped(r.groups_checked)
      << " of them are exactly where moving group (0,0,0) puts them, so every group is made that way\n";
    o << "the model replayed the first " << grouped(r.groups_modelled) << " groups ("
      << fixed(double(r.groups_modelled) / double(std::max<uint64_t>(1, r.wave)), 1) << " waves of " << grouped(r.wave)
      << ") in " << fixed(r.model_seconds, 1) << " s; the figures below are theirs\n\n";
    o << cache_report_table(r.report, title, kernel);
    o << "\nthe whole launch, scaled x" << fixed(r.scale(), 2) << " from the modelled groups: DRAM read "
      << fixed(r.whole_dram_read_bytes() / 1e6, 1) << " MB, written " << fixed(r.whole_dram_write_bytes() / 1e6, 1)
      << " MB (modelled)\n";
    return o.str();
}

}  // namespace tilescope::tasks
