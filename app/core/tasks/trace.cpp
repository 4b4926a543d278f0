#include "core/tasks/trace.h"

#include <algorithm>
#include <memory>

#include "core/emulator/trace_runner.h"
#include "core/teach/exercise_notes.h"

namespace tilescope::tasks {

TraceOptions figures_trace_options(const TaskProgress& progress) {
    TraceOptions to;
    to.cache_requests = true;
    to.checks = false;
    to.verify = false;
    to.detail_budget_bytes = 1 << 20;
    to.cancelled = progress.cancelled;
    return to;
}

TraceSnapshot run_trace_job(const TraceJob& job, const TaskProgress& progress) {
    TraceOptions o;
    o.groups = job.groups;
    o.cache_requests = job.cache_requests;
    if (job.ensure) {
        if (o.groups.empty()) o.groups = estimate_trace(job.config, o).detail_groups;
        if (std::find(o.groups.begin(), o.groups.end(), *job.ensure) == o.groups.end()) o.groups.push_back(*job.ensure);
    }
    if (job.partial) {
        o.early_groups = {job.ensure            ? *job.ensure
                          : !o.groups.empty()   ? o.groups.back()
                                                : estimate_trace(job.config, o).detail_groups.front()};
        o.partial = job.partial;
    }
    if (job.exercise_checks)
        if (const ExerciseNote* note = find_exercise_note(job.config.kernel.name)) o.uninitialized = note->uninitialized;
    o.cancelled = progress.cancelled;
    o.progress = progress.units;
    // The views' user typed no --size or --groups: a refusal names the launch, not options.
    o.named_as = job.named_as.empty() ? "the trace of '" + job.config.kernel.name + "' at " + job.config.size.label() : job.named_as;
    progress.say("estimating");
    TraceEstimate e = estimate_trace(job.config, o);
    std::string checks_off_because;
    if (job.race_check_if_it_fits && o.checks && !within_limits(e, o)) {
        TraceOptions lighter = o;
        lighter.checks = false;
        lighter.uninitialized = false;
        const TraceEstimate without = estimate_trace(job.config, lighter);
        // Past the limits either way: refused as traced without it, so the line names no check.
        checks_off_because = "with Oclgrind's race check this trace needs " + e.text() + ", past the limits of " + limits_text(o);
        o = lighter;
        e = without;
    }
    progress.say(std::string("tracing on the emulator") + (o.checks ? "" : " without the race check") + ", " + e.text());
    Trace trace = run_trace(job.config, o);
    trace.checks_off_because = checks_off_because;
    return std::make_shared<const Trace>(std::move(trace));
}

std::vector<std::string> emulator_libraries() {
    std::vector<std::string> out;
    for (const std::string& lib : {std::string(TILESCOPE_OCLGRIND_ICD), find_trace_plugin()})
        if (!lib.empty()) out.push_back(lib);
    return out;
}

}  // namespace tilescope::tasks
