#pragma once
// Runs a LaunchConfig on one OpenCL device: builds the kernel with its defines, checks
// the device's limits before launching, times it with profiling events after warm-up,
// and verifies the result against the CPU reference. The same code path drives the
// emulator, which is just another device.
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/kernel/launch_config.h"
#include "core/device/matrix.h"
#include "core/device/measurement.h"
#include "core/device/opencl_env.h"

namespace tilescope {

struct RunOptions {
    int reps = 3;    // timed launches
    int warmup = 1;  // untimed launches before them
    std::function<bool()> cancelled;                        // polled between launches
    std::function<void(const std::string&)> progress;       // short status lines
};

struct RunResult {
    std::map<std::string, HostMatrix> matrices;  // every matrix argument after the run
    double seconds = 0;                          // wall time of the launch
};

// The work-group shape and local memory a launch needs against what `device` allows (the
// part of Runner::check_limits that does not depend on buffers). `what` starts the message.
// A limit the device reports as 0 (unknown) is not checked. Throws InputError naming the limit.
void check_group_limits(const std::string& what, const ResolvedLaunch& launch, const DeviceInfo& device);

class Runner {
public:
    explicit Runner(const DeviceInfo& device);
    ~Runner();
    Runner(const Runner&) = delete;
    Runner& operator=(const Runner&) = delete;

    const DeviceInfo& device() const { return device_; }

    // Checks what can be checked without building: work-group shape, local memory of
    // local:E arguments, buffer sizes against max allocation and global memory.
    // Throws InputError naming the limit.
    void check_limits(const LaunchConfig& config, const ResolvedLaunch& launch) const;

    // Everything that can be refused without running: limits, the build, binding every
    // parameter by name. Throws InputError.
    // `cancelled` is polled while a point is tried in a child (core/device/contained_trial.h).
    void validate(const LaunchConfig& config, const std::function<bool()>& cancelled = {});

    // Warm-up, timed launches, verification. Throws InputError (bad config, build
    // failure, limits) or Cancelled.
    Measurement measure(const LaunchConfig& config, const RunOptions& options);

    // Several launches timed in turn (issue 30 item 4): each round launches every config once,
    // in the given order on even rounds and reversed on odd ones (A B, B A, ...), so the r-th
    // times of all of them come from the same moments of a machine others may be loading.
    // options.warmup untimed rounds, then options.reps timed ones; each result is read back,
    // verified and summarized as measure() does, its times_s[r] from round r. A kernel from a
    // file is refused (it runs only alone, in a child process). Throws InputError or Cancelled.
    std::vector<Measurement> measure_interleaved(const std::vector<LaunchConfig>& configs, const RunOptions& options);

    // One untimed launch; returns the matrices. Used by the emulator trace.
    RunResult run_once(const LaunchConfig& config, const RunOptions& options = {});

private:
    struct Impl;
    DeviceInfo device_;
    std::unique_ptr<Impl> impl_;
};

// Median and fastest of the timed launches; both 0 when there are none.
struct TimeSummary {
    double median_s = 0, min_s = 0;
};
TimeSummary summarize_times(std::vector<double> times_s);

// The launch a rung that may run padded (KernelSpec::pad) makes on `device` instead of
// `config`: the same rung, tile and parameters at M, N, K rounded up to the pad's multiples,
// on zero-padded copies of the matrices. nullopt when the size is already a multiple, the
// rung has no pad, config.pad is false, or the device is the emulator (which traces the rung
// as written). Runner::measure makes the copies, times them with the product from the
// user's A and B to the user's C, and verifies that C.
std::optional<LaunchConfig> padded_config(const LaunchConfig& config, const DeviceInfo& device);

// Fresh inputs (seeded random) and zeroed outputs for every matrix argument.
std::map<std::string, HostMatrix> make_matrices(const ResolvedLaunch& launch);

}  // namespace tilescope
