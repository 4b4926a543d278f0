#pragma once
// A launch tried first in a child process, so a crash inside the driver cannot take
// tilescope down (issue 23, item 3).
//
// Why: a CPU driver (PoCL) compiles a kernel into this process and runs each work-group
// on one of its threads. A work-group function keeps the private values of every
// work-item of the group that live across a barrier on that thread's stack (8 MiB,
// glibc's default). reg2d_tpad at TS=1024 with WPTM=16, WPTN=32, VW=16, TSK=32 has 2,048
// work-items of 512 accumulators each; its frame is about 14 MiB, past the stack's guard
// page, and the process dies with SIGSEGV inside the kernel. Which points do that depends on
// what the driver's compiler keeps across barriers, so it is not predicted here: the point
// is run once, at one tile, in a child process, and a child that dies by a signal refuses
// the point with one line.
//
// Tried: a catalog rung (never a custom kernel or a library call) on a CPU device that
// is not the emulator, at a tile or a parameter value outside the rung's own candidates
// (ladder.json "tiles" and "values", what `tune` sweeps by default): typed on the command
// line, tuned elsewhere (a GPU's tuning reaches a CPU as a "similar device"), or explored
// by `tune --quick`. Each point is tried once per process.
#include <functional>
#include <string>
#include <vector>

#include "core/device/device_info.h"
#include "core/kernel/launch_config.h"

namespace tilescope {

// The program run as the child: `PROGRAM __trial ...` (tilescope itself; set by its
// main). Unset (tests that link the core): nothing is tried.
void set_trial_program(std::string path);
std::string trial_program();  // "" when unset

// Whether `config` on `device` is tried in a child before it runs here (see above).
bool needs_contained_trial(const LaunchConfig& config, const DeviceInfo& device);

// Runs the trial when needs_contained_trial and a program is set. Throws InputError
// naming the point when the child died by a signal (or outlived its time), Cancelled
// when the user cancelled (Ctrl-C, or `cancelled` answers true; the child is killed). A child that refused the point (exit 2:
// a build error, a limit) is not an error here: the caller's own checks say why.
void run_contained_trial(const LaunchConfig& config, const DeviceInfo& device,
                         const std::function<bool()>& cancelled = {});

// The child's side: `tilescope __trial DEVICE_LABEL KERNEL M N K TILE [NAME=V]...`.
// Builds and runs the point once; 0 when it ran, 2 with one line when refused. A crash of
// the driver's compiler is caught as well as one of the kernel: the child builds first.
int trial_main(const std::vector<std::string>& args);

// The environment a contained child runs with: this process's, with ASAN_OPTIONS extended so
// that a sanitizer build's child lets a driver's signal end it (as it would anywhere else)
// instead of reporting and exiting 1; `extra_asan` ("opt=v:...") is appended too. Ignored by
// a build without the sanitizer.
std::vector<std::string> child_environment(const std::string& extra_asan = "");

}  // namespace tilescope
