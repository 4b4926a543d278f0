#pragma once
// The kernel ladder: kernels/ladder.json and the .cl files it names, compiled into the
// binary. Rungs are KernelSpecs like any custom kernel.
#include <string>
#include <string_view>
#include <vector>

#include "core/kernel/kernel_spec.h"

namespace tilescope {

const std::vector<KernelSpec>& ladder();

// The rung called `name`, or nullptr.
const KernelSpec* find_rung(std::string_view name);

// "naive, row, ..." for error messages.
std::string rung_names();

// Deliberately broken kernels for class (kernels/exercises/): found by --kernel like the
// rungs, never part of "all".
const std::vector<KernelSpec>& exercises();
std::string exercise_names();

// A rung or an exercise called `name`, or nullptr.
const KernelSpec* find_kernel(std::string_view name);

// Text of an embedded file such as "kernels/exercises/missing_barrier.cl"; throws
// InputError when absent.
std::string_view embedded_text(std::string_view path);

// Parses a kernel catalog (the ladder.json format); `dir` is where its files live.
std::vector<KernelSpec> parse_catalog(std::string_view json_text, std::string_view dir);

}  // namespace tilescope
