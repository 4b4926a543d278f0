#pragma once
// Setting up a Run at kernelBegin, before Oclgrind starts its worker threads. Each step
// fills one part of the Run from the launch about to execute; TracePlugin::kernelBegin
// calls them in the order declared here (later steps read what earlier ones wrote).
// Depends on run.h; only trace_plugin.cpp calls it.
#include "run.h"

namespace tilescope::trace_plugin {

// The kernel's name, the NDRange and work-group counts, and Oclgrind's global memory.
void read_launch_shape(Run& run, const oclgrind::KernelInvocation* invocation, const oclgrind::Memory* global_memory);
// Defaults for a config that left the warp, banks or sector/bank widths unusable; the
// sub-groups per work-group and how Oclgrind's addresses split into buffer and offset.
void settle_request_geometry(Run& run);
// One slot per global or constant pointer parameter (name, element size, extent), and
// the "(unbound)" slot for memory no parameter points at.
void bind_buffer_parameters(Run& run);
// Which work-groups keep element detail (Config::detail_groups) and which of them are
// streamed early (Config::early_groups).
void choose_groups_on_display(Run& run);
// The __local parameters and arrays, named for people, with a 2D array's shape.
void describe_local_buffers(Run& run);
// Numbers the local buffers in one fixed order (by name, then size).
void order_local_buffers_by_name(Run& run);
// Starts the clock of Result::seconds and of the partial results.
void start_clock(Run& run);

}  // namespace tilescope::trace_plugin
