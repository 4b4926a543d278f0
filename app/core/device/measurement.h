#pragma once
// One verified timing of a LaunchConfig on a real device, as plain data: what the Runner
// (core/device/runner.h) returns, bench prints and the GUI plots.
#include <string>
#include <vector>

#include "core/device/matrix.h"
#include "core/kernel/launch_config.h"

namespace tilescope {

struct Measurement {
    std::string kernel, device, title;
    bool library = false;
    ProblemSize size;
    int tile = 0;
    bool tile_used = true;        // false: a launch that never names TS (a custom kernel, a library call): tables show "-"
    ResolvedLaunch launch;        // launch.params: the tunable parameters in effect
    std::string params_source = "default";  // where tile and parameters came from: default, tuned, similar, type-defaults, given
    std::string tuning_note;      // the same in words ("tuned for a similar device: NAME")
    // The size the kernel ran at on zero-padded copies of A, B and C (KernelSpec::pad), the
    // copies timed with it; equal to `size` when it ran on the matrices themselves.
    ProblemSize ran_at;
    // Which matrices that run copied (in, or C back), in order; C is absent where the kernel
    // stored it in the user's own matrix (PadSpec::c_in_place). Empty when not padded.
    std::vector<std::string> padded_copies;
    int reps = 0;
    std::vector<double> times_s;  // one per timed launch
    // The process's CPU seconds (every thread: a CPU device's workers run in this process) over
    // each timed launch, by Runner::measure_interleaved; on a machine others load, what the
    // launch got of the CPU, where times_s is also what they took of it.
    std::vector<double> cpu_times_s;
    double median_s = 0, min_s = 0;
    double gflops = 0;            // 2*M*N*K / median; 0 unless verified
    bool checked = false;         // a reference was available (rungs, --check)
    Verification verification;
};

}  // namespace tilescope
