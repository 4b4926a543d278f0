#pragma once
// Oclgrind's own checks (data races, divergent barriers, out-of-bounds accesses,
// uninitialised local reads) reach us as message text. This reads that text into
// Diagnostics a student can act on: merged by kind and source lines, naming the
// work-items, and with addresses named after the buffers ("A[4096]", "atile[2][3]").
#include <vector>

#include "core/trace/trace.h"
#include "oclgrind_plugin/trace_abi.h"

namespace tilescope {

std::vector<Diagnostic> diagnose(const trace_abi::Result& raw);

}  // namespace tilescope
