#pragma once
// A kernel that came in someone else's file, measured only when trusted, and then only in
// a child process with a time and a memory limit (issue 32, item 1).
//
// Why: a CPU driver (PoCL) runs a kernel's work-groups on threads of the process that
// enqueued it. A kernel that writes out of bounds takes that process down (SIGSEGV); one
// that loops for ever never returns. A saved trace carries its kernel's source, so opening
// one must never build it, and measuring it must cost at most one line, never the window.
//
// What is "carried": KernelSpec::carried_by is set by the trace file's reader for a custom
// kernel, and for a catalog name whose source, NDRange, arguments or parameters differ from
// the catalog's. The catalog's rungs and a --source typed by the user are not carried.
//
// The gate: Runner::measure, run_once and validate refuse a carried kernel that is not
// trusted (KernelSpec::trusted: the GUI's confirm, --trust-source), with
// untrusted_kernel_refusal()'s line. A trusted one is measured by measure_contained() on a
// real device; on the emulator (an interpreter: an out-of-bounds access is reported, not
// taken) it is traced in-process.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/device/device_info.h"
#include "core/device/measurement.h"
#include "core/kernel/launch_config.h"

namespace tilescope {

struct RunOptions;

// The child's limits; 0 takes the default.
struct ContainedLimits {
    double wall_s = 0;          // default: twice the build limit (core/base/watchdog.h) + 120 s
    uint64_t memory_bytes = 0;  // address space on a CPU device; default 4 GiB + 3x the matrices
};
ContainedLimits default_contained_limits(const ResolvedLaunch& launch, const DeviceInfo& device);

// "--open 'F' carries its own kernel 'X'; nothing of it runs unless you trust it: ..." (one line).
std::string untrusted_kernel_refusal(const LaunchConfig& config, const std::string& how_to_trust);

// Throws InputError when `config` is carried and not trusted (the refusal above, with the
// command line's way to trust it).
void check_trusted(const LaunchConfig& config);

// Measures `config` on `device` in a child (`PROGRAM __measure REQUEST`, the program set by
// set_trial_program, core/device/contained_trial.h). A child that crashed, outlived its
// time or ran out of memory is one InputError line: "the kernel 'X' from F crashed (SIGSEGV)
// on DEVICE in a child process; nothing was measured". A refusal inside the child (a build
// error, a limit) is its own line. Cancelled when `options.cancelled` answers true.
Measurement measure_contained(const LaunchConfig& config, const DeviceInfo& device, const RunOptions& options,
                              const ContainedLimits& limits = {});

// Whether this process is such a child (where a trusted carried kernel runs in-process).
bool in_contained_child();

// The child's side: `tilescope __measure REQUEST_FILE`; writes its result to stdout.
int measure_child_main(const std::vector<std::string>& args);

}  // namespace tilescope
