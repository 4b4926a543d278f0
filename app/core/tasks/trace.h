#pragma once
// A trace on the emulator as one task, and what a process must load before anything else
// to keep the emulator's libraries on their own LLVM (the GUI, before its GL context).
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/emulator/trace_runner.h"
#include "core/kernel/launch_config.h"
#include "core/tasks/task.h"
#include "core/trace/trace.h"

namespace tilescope::tasks {

struct TraceJob {
    LaunchConfig config;
    std::vector<GroupId> groups;     // work-groups with element-level detail; empty: automatic
    // A group that must keep detail, added to the automatic choice; with `partial`, the group
    // streamed as soon as it completes (else the last of `groups`, else the first automatic one).
    std::optional<GroupId> ensure;
    bool cache_requests = true;      // keep the global requests for the cache model
    bool exercise_checks = true;     // an exercise whose mistake only the uninitialised-value check sees turns it on
    // Past the limits with Oclgrind's race check (it keeps about 180 bytes per byte of the
    // matrices) and within them without it: trace without it, and say why (Trace::checks_off_because).
    // The GUI's window, whose user has no switch for it; the CLI has --no-checks.
    bool race_check_if_it_fits = false;
    // The trace so far (Trace::partial), from the emulator's threads, one call at a time;
    // empty: no snapshots.
    std::function<void(TraceSnapshot)> partial;
    // How a refusal names this trace (TraceOptions::named_as); empty: "the trace of 'K' at SIZE".
    std::string named_as;
};

// Estimates (a message with the cost), refuses beyond the bounds, traces. Progress units:
// work-groups. Throws InputError or Cancelled. Run on the thread that drives OpenCL.
TraceSnapshot run_trace_job(const TraceJob& job, const TaskProgress& progress);

// A trace taken only for its figures (intensity, cache model, ladder): the requests kept for
// the cache model, no checks, no verification, a small detail budget, cancelled with the task.
TraceOptions figures_trace_options(const TaskProgress& progress);

// The emulator's libraries (Oclgrind's ICD, the trace plugin) that exist, to load with
// every symbol bound before a GL driver brings its own LLVM into the process.
std::vector<std::string> emulator_libraries();

}  // namespace tilescope::tasks
