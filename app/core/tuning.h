#pragma once
// Per-device tuned parameters, kept as data: assets/tuning/<device-slug>.json holds, for
// each tuned rung, the best verified tile and parameters and every result of the sweep
// that found them. Files are compiled into the binary (like kernels/) and also read at
// run time, so a tuning run on another machine can be brought back and used at once:
//   $TILESCOPE_TUNING_DIR, then ./assets/tuning, then <directory of the executable>/tuning,
//   then the embedded copies. The first file that names the device and rung wins.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/launch_config.h"
#include "core/opencl_env.h"

namespace tilescope {

// "NVIDIA CUDA / NVIDIA H200" -> "nvidia-cuda-nvidia-h200": lower case, runs of anything
// but letters and digits become one '-'.
std::string device_slug(std::string_view device_label);
std::string device_slug(const DeviceInfo& device);

// One point of a sweep: what ran and what came of it.
struct TuneResult {
    int tile = 0;
    std::map<std::string, int64_t> params;
    std::string status;     // "ok" (verified), "wrong" (did not verify), "refused" (limits, build, launch)
    double gflops = 0;      // verified only
    double median_s = 0;
    std::string global, local;  // NDRange as run ("256x128")
    std::string message;    // why it was refused or wrong
};

// The tuned choice for one rung on one device.
struct TunedChoice {
    std::string kernel;
    int tile = 0;
    std::map<std::string, int64_t> params;
    double gflops = 0;
    std::string size;     // the problem size it was tuned at
    std::string origin;   // the file it came from ("embedded assets/tuning/x.json" or a path)
};

// Directories read at run time, in precedence order (existing or not).
std::vector<std::string> tuning_search_dirs();

// Where `tilescope tune` writes by default: $TILESCOPE_TUNING_DIR, else assets/tuning.
std::string default_tuning_dir();

// The choice for `kernel` in one tuning file's text, or nullopt (also for unreadable text).
std::optional<TunedChoice> tuned_choice_in(std::string_view json_text, std::string_view kernel);

// The choice for `kernel` on the device with this slug, from the first file that has one.
std::optional<TunedChoice> find_tuned(std::string_view slug, std::string_view kernel);

// Sets config's tile and parameters from the device's tuning data when there is a choice
// for the rung that still resolves (sets params_source = "tuned"); else leaves it alone.
// Returns whether it applied one.
bool apply_tuning(LaunchConfig& config, const DeviceInfo& device);

// The tuning file's text with `kernel`'s entry replaced: the best verified result and
// all of `results` (which must have a verified one), plus the earlier results of that
// kernel at the same size for points `results` did not rerun. `existing` is the file's
// current text (empty when new); entries of other kernels are kept.
std::string merge_tuning(std::string_view existing, const std::string& device_label, const std::string& kernel,
                         const ProblemSize& size, const std::vector<TuneResult>& results, const std::string& command);

// Index of the best verified result, or -1.
int best_result(const std::vector<TuneResult>& results);

// The sweep: every combination of `tiles` and each parameter's candidate values (the
// kernel's own lists unless `values` overrides some), the defaults first.
std::vector<std::pair<int, std::map<std::string, int64_t>>> sweep_points(
    const KernelSpec& kernel, const std::vector<int>& tiles, const std::map<std::string, std::vector<int64_t>>& values);

}  // namespace tilescope
