#pragma once
// The set-up options bench, trace and gui share: which kernel(s), sizes, tiles, or a
// custom kernel (--source ...). Turned into LaunchConfigs here, once.
#include <set>
#include <string>
#include <vector>

#include "args/options.h"
#include "core/kernel/launch_config.h"

namespace tilescope::args {

// Option names of the custom-kernel family, valued ones.
std::set<std::string> custom_kernel_options();

// Every kernel named by --kernel (or "all"), or the custom kernel from --source.
// `default_kernel` applies when neither is given.
std::vector<KernelSpec> kernels_from(const Options& o, const std::string& default_kernel, bool allow_many);

// The sizes in --size (default `fallback`).
std::vector<ProblemSize> sizes_from(const Options& o, const std::string& fallback, bool allow_many);

// The tiles in --tile for a kernel: the given list, else the kernel's default.
std::vector<int> tiles_from(const Options& o, const KernelSpec& k, bool allow_many);

// All combinations, kernels outermost, with any --param NAME=V applied (params_source
// "given") to the kernels that have that parameter.
std::vector<LaunchConfig> configs_from(const Options& o, const std::string& default_kernel,
                                       const std::string& default_size, bool allow_many);

}  // namespace tilescope::args
