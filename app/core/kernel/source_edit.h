#pragma once
// Edits of a kernel's OpenCL C source for class: removing the barrier on one line, so a
// student sees the race appear (the GUI's barrier toggle, `trace --drop-barrier LINE`).
// Line numbers never change, so diagnostics and the source view still line up.
#include <string>
#include <string_view>
#include <vector>

#include "core/kernel/kernel_spec.h"

namespace tilescope {

// Source lines (1-based) holding a barrier call (barrier, work_group_barrier), comments
// and string literals skipped.
std::vector<int> barrier_lines(std::string_view source);

// The source with every barrier call on `line` replaced by a no-op, `(void)0`, so the
// statement around it stays valid. Throws InputError naming `option` and the lines that
// do hold a barrier when `line` has none.
std::string drop_barrier(std::string_view source, int line, std::string_view option = "--drop-barrier");

// The kernel with the barriers on `lines` removed (its source and name say so).
KernelSpec drop_barriers(const KernelSpec& kernel, const std::vector<int>& lines,
                         std::string_view option = "--drop-barrier");

}  // namespace tilescope
