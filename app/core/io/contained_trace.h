#pragma once
// A kernel that came in a file (a trusted --open trace's, or a --source), traced on the
// emulator only in a child process (issue 32, item 1), by the mechanism that measures it
// (run_in_child, core/device/contained_measure.h): a wall-clock limit, RLIMIT_CPU, an
// address-space limit, no core file. Oclgrind interprets the kernel, so an out-of-bounds
// access is reported rather than taken, but an endless loop never reaches a memory access
// to cancel at, and a kernel can still crash the emulator's compiler or exhaust its memory.
// The child writes the trace as a saved trace (.tstrace); this side reads it back through
// the same bounded, validated reader as any file. It lives in core/io because it reads a
// saved trace; run_trace (core/emulator) reaches it through set_contained_tracer.
#include <string>
#include <vector>

#include "core/emulator/trace_runner.h"

namespace tilescope {

// run_trace in `PROGRAM __trace REQUEST` (run_trace calls this, once use_child_program has
// been called, for a kernel from a file outside such a child). A crash, an endless loop or running out of memory is one
// InputError line: "the kernel 'X' from --source 'F' crashed (SIGSEGV) on the emulator
// in a child process; nothing was traced". The live progress and partial pictures are not
// reported; cancelling (options.cancelled, Ctrl-C) ends the child.
Trace trace_contained(const LaunchConfig& config, const TraceOptions& options, double estimated_seconds,
                      uint64_t memory_limit_bytes);

// The program every contained child runs (`PROGRAM __measure|__trace|__trial`, normally
// this executable): set_trial_program, and run_trace's kernels from files traced by
// trace_contained. Call once at start-up, before any thread runs a launch.
void use_child_program(const std::string& path);

// The child's side: `tilescope __trace REQUEST_FILE`; writes the saved trace to stdout.
int trace_child_main(const std::vector<std::string>& args);

}  // namespace tilescope
