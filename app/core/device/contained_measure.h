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

#include <nlohmann/json.hpp>

#include "core/device/device_info.h"
#include "core/device/measurement.h"
#include "core/kernel/launch_config.h"

namespace tilescope {

struct RunOptions;

// The child's limits; 0 takes the default.
struct ContainedLimits {
    double wall_s = 0;          // default: twice the build limit (core/base/watchdog.h) + 120 s;
                                // $TILESCOPE_CHILD_TIMEOUT_S (0.1 to 86400 s) replaces it (tests set it small)
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

// $TILESCOPE_CHILD_TIMEOUT_S, or 0 when unset; throws InputError for a bad value.
double child_wall_limit_override();

// The one mechanism both the measurement and the trace of a kernel from a file use: runs
// `PROGRAM ARGS...` (the program set by set_trial_program) as a child with `limits` (wall
// clock, RLIMIT_CPU as a backstop, RLIMIT_AS when memory_bytes is set, no core file, at most
// `output_cap` bytes of output), killed with its parent or when `cancelled` answers true
// (then Cancelled). Returns its standard output. A crash, a time-out, an exit status 4 (out
// of memory) or any other failure is one InputError line: WHO crashed (SIGSEGV)WHERE; NOTHING_DONE.
std::string run_in_child(const std::vector<std::string>& args, const ContainedLimits& limits,
                         const std::function<bool()>& cancelled, const std::string& who, const std::string& where,
                         const std::string& nothing_done, uint64_t output_cap);

// "the kernel 'X' from --open 'F'" (or "from --source 'F'").
std::string contained_who(const LaunchConfig& config);

// The launch as the child rebuilds it (the kernel whole: source, NDRange, arguments, check).
nlohmann::json launch_request(const LaunchConfig& config);
LaunchConfig launch_from_request(const nlohmann::json& request);

// Whether `kernel` runs (and is traced) only in such a child from here: a kernel a file
// carries (--open's, --source's) outside a child. A --source kernel in a process that set no
// child program (a library caller such as the unit tests) runs in-process, as before; a
// kernel an opened file carries never does.
bool runs_contained(const KernelSpec& kernel);

// Whether this process is such a child (where a trusted carried kernel runs in-process).
bool in_contained_child();
void mark_contained_child();  // the child's side, before it runs the kernel

// The child's side: `tilescope __measure REQUEST_FILE`; writes its result to stdout.
int measure_child_main(const std::vector<std::string>& args);

}  // namespace tilescope
