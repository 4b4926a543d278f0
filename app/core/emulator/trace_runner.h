#pragma once
// Runs a LaunchConfig on the emulator (Oclgrind with the trace plugin) through the same
// Runner as real devices, and returns its Trace. Estimates the cost first and refuses
// runs beyond a bound; reports progress and can be cancelled between work-groups.
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/kernel/launch_config.h"
#include "core/trace/trace.h"

namespace tilescope {

struct TraceOptions {
    // Oclgrind's race detector (--no-checks: off). Barrier divergence and out-of-bounds
    // accesses are reported either way (Oclgrind always checks them).
    bool checks = true;
    // Oclgrind's uninitialised-value check: off by default; it makes the run about 1.5x
    // slower and, at 256^3, takes about 100 MB more than the whole 300 MB budget allows.
    bool uninitialized = false;
    std::vector<GroupId> groups;      // work-groups with element-level detail (--groups); empty: automatic
    TraceGeometry geometry;           // --warp, --sector, --banks
    bool cache_requests = false;      // keep every global request for the cache model (--caches)
    bool verify = true;               // check the emulator's C against the CPU reference when the kernel has a check
    uint64_t max_memory_bytes = 0;    // refuse above this estimate; 0: 1 GiB (the input budget) or half the RAM, the smaller
    double max_seconds = 900;         // refuse above this estimated emulation time
    uint64_t detail_budget_bytes = 32ull << 20;  // automatic --groups keeps detail within this (at least one group; 0: none)
    std::string plugin_path;          // empty: find libtilescope_trace.so (see find_trace_plugin)
    std::function<bool()> cancelled;  // polled after every work-group; true stops the run (throws Cancelled)
    // After work-groups complete, at most a few times a second. Called from the emulator's
    // worker threads, one call at a time.
    std::function<void(uint64_t groups_done, uint64_t groups_total)> progress;
    // The first picture at once (issue 12): work-groups whose detail is wanted as soon as
    // each completes (they keep detail whether or not `groups` names them), and what gets
    // each snapshot of the launch so far (Trace::partial). Called from the emulator's
    // worker threads, one call at a time: at once when an early group completes, else at
    // most every partial_interval_ms. Not called after run_trace returns.
    std::vector<GroupId> early_groups;
    std::function<void(TraceSnapshot)> partial;
    uint32_t partial_interval_ms = 250;
    // Trace only this block of work-groups at the NDRange's origin, per dimension (0 0 0:
    // the whole launch), with the launch's arguments unchanged: the sample the cache model
    // stands a launch too large to trace on (issue 24). C is then only partly computed, so
    // it is not checked; a rung with a second kernel (splitk) is refused.
    std::array<uint32_t, 3> sample{0, 0, 0};
    bool sampled() const { return sample[0] || sample[1] || sample[2]; }
    // How a refusal names the launch. Empty: as typed on the command line ("--size 4096",
    // "--groups 9,0", "use a smaller --size ... or --no-checks"). A caller whose user typed
    // no such option (the GUI's views, a lesson's step) names it in its own words, e.g. "the
    // trace of 'tiled' at 4096", "--lesson 'l.json': the trace of ...", and the remedies name no option
    // (issue 32, item 6).
    std::string named_as;
};

struct TraceEstimate {
    uint64_t memory_events = 0;     // global and local accesses the run will make (about)
    uint64_t peak_bytes = 0;        // resident memory of the whole process at its peak (about)
    uint64_t detail_bytes = 0;      // of which element-level detail
    double seconds = 0;             // emulation time on this machine (about)
    std::vector<GroupId> detail_groups;  // the groups that will keep detail
    unsigned workers = 1;           // Oclgrind's threads (OCLGRIND_NUM_THREADS or one per hardware thread)
    std::string text() const;       // "about 30 s and 180 MB"
};

// What tracing `config` would cost with `options`. Throws InputError for bad --groups.
TraceEstimate estimate_trace(const LaunchConfig& config, const TraceOptions& options);
// The same with `workers` emulator threads instead of this process's (one needs the least memory).
TraceEstimate estimate_trace(const LaunchConfig& config, const TraceOptions& options, unsigned workers);

// Whether a trace of that estimate runs within `options`' time and memory limits (run_trace
// refuses one that does not).
bool within_limits(const TraceEstimate& estimate, const TraceOptions& options);
// Those limits in words: "15.0 min, 1.0 GB".
std::string limits_text(const TraceOptions& options);

// Estimates, refuses beyond the bounds (InputError, one line with the estimate and how to
// reduce it), runs, and builds the Trace. Throws InputError (build failure, limits, a
// missing plugin) or Cancelled. Must be called from the thread that drives OpenCL.
Trace run_trace(const LaunchConfig& config, const TraceOptions& options = {});

// A kernel from a file (a trusted --open trace's, a --source) is traced only in a child
// process (issue 32). The child hands its trace back as a saved trace, which only core/io
// reads, so core/io hands run_trace the way in (`set_contained_tracer`, called by
// `contain_kernels_from_files`, core/io/contained_trace.h) and the arrow points down. A
// process that set none refuses such a kernel rather than trace it in-process.
using ContainedTracer = std::function<Trace(const LaunchConfig& config, const TraceOptions& options,
                                            double estimated_seconds, uint64_t memory_limit_bytes)>;
void set_contained_tracer(ContainedTracer tracer);

// The same launch on the emulator without the trace plugin, with Oclgrind's checks as
// `options` asks: the seconds the kernel took. The yardstick for the trace's own cost.
double time_bare_emulation(const LaunchConfig& config, const TraceOptions& options);

// For a process that only traces (the CLI's trace): call before any other OpenCL use,
// and the device list holds the emulator only, without loading the system's drivers
// (PoCL alone keeps about 60 MB resident, a fifth of a 256^3 trace's budget). Does
// nothing once devices have been listed.
void use_emulator_only();

// Where the plugin library is: TILESCOPE_TRACE_PLUGIN, then next to the executable,
// then the build tree. Empty when none exists.
std::string find_trace_plugin();

// Parses --groups "X,Y[,Z];X,Y..." (InputError naming the option on bad input).
std::vector<GroupId> parse_groups(std::string_view text);

}  // namespace tilescope
