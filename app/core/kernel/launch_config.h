#pragma once
// A kernel at concrete sizes: everything needed to launch it on any device, the
// emulator included. Resolving evaluates every expression once, so the real run and the
// traced run see the same NDRange, defines and arguments.
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expr.h"
#include "core/kernel/kernel_spec.h"

namespace tilescope {

struct ProblemSize {
    int64_t M = 0, N = 0, K = 0;  // C is MxN, A is MxK, B is KxN
    std::string label() const;    // "128" when square, else "37x29x45"
    bool operator==(const ProblemSize&) const = default;
};

// Largest side parse_size accepts, and the most elements of any one of A, B and C (the rungs
// index a matrix with 32-bit ints).
inline constexpr int64_t kMaxSizeSide = int64_t(1) << 20;
inline constexpr int64_t kMaxMatrixElements = (int64_t(1) << 31) - 1;

// "S" (square) or "MxNxK"; throws InputError naming `option`.
ProblemSize parse_size(std::string_view text, std::string_view option = "--size");

struct LaunchConfig {
    KernelSpec kernel;
    ProblemSize size;
    int tile = 16;  // TS
    // Values for the kernel's tunable parameters (KernelSpec::params); a parameter not
    // named here takes its default. Naming one the kernel lacks is an InputError.
    std::map<std::string, int64_t> params = {};
    std::string params_source = "default";  // "default", "tuned", "similar", "type-defaults" (core/tuning) or "given" (--param)
    std::string tuning_note = {};            // in words, for tables and the GUI: "tuned here", "defaults for CPUs"
    std::string tuning_origin = {};          // the tuning file the tile and params came from ("" when not tuned)
    // How a refusal names this launch when nobody typed its --tile (a lesson's set-up: "FILE: the trace of
    // 'tiled' at 64"); empty: --tile N, or the tuning file it came from.
    std::string named_as = {};
    // Whether a rung with "pad" (KernelSpec::pad) may run on padded copies on a real device
    // when the size is not a multiple of its pad (bench --pad off sets false).
    bool pad = true;
};

struct ResolvedArg {
    ArgSpec spec;
    int64_t value = 0;              // Int: the value; Local: floats
    int64_t rows = 0, cols = 0;     // Matrix
    uint64_t bytes() const;         // buffer or local size in bytes
};

struct ResolvedLaunch {
    int dims = 1;
    std::array<size_t, 3> global{1, 1, 1}, local{1, 1, 1};
    std::array<size_t, 3> groups{1, 1, 1};
    std::string build_options;      // "-D TS=16 ..."
    std::map<std::string, int64_t> params;  // every tunable parameter's value in effect
    std::vector<ResolvedArg> args;  // in spec order; bound to parameters by name later
    uint64_t local_arg_bytes = 0;   // sum of local:E arguments
    uint64_t buffer_bytes = 0;      // sum of matrices
    double flops = 0;               // 2*M*N*K
    // The second kernel's NDRange (KernelSpec::then); then_dims is 0 when there is none.
    int then_dims = 0;
    std::array<size_t, 3> then_global{1, 1, 1}, then_local{1, 1, 1};

    size_t total_groups() const { return groups[0] * groups[1] * groups[2]; }
    size_t group_size() const { return local[0] * local[1] * local[2]; }
    const ResolvedArg* find(std::string_view name) const;
    std::string global_text() const;  // "128x128"
    std::string local_text() const;
};

// "TSK=16 WPTM=8" (catalog order), empty for a kernel without parameters.
std::string params_text(const KernelSpec& kernel, const std::map<std::string, int64_t>& params);
// Only the parameters whose value differs from the kernel's default ("PAD=0"; "" when none):
// what tells two launches of one rung apart in a label.
std::string changed_params_text(const KernelSpec& kernel, const std::map<std::string, int64_t>& params);
// The same for one side of a comparison: also each parameter whose value differs from the
// other side's, default or not (lesson 6: "PAD=0" against "PAD=4", the rung's default).
std::string compared_params_text(const KernelSpec& kernel, const std::map<std::string, int64_t>& params,
                                 const std::map<std::string, int64_t>& other);

// Parses "NAME=V" for `kernel` (the --param option); throws InputError naming the option.
std::pair<std::string, int64_t> parse_param(const KernelSpec& kernel, std::string_view text,
                                            std::string_view option = "--param");

// Every field of a launch that came in a file (a saved trace), checked against the others
// before anything uses it (issue 32, item 3): names, 1 to 3 dimensions with as many local
// sizes as global ones, every expression well formed and evaluated at the launch's sizes,
// each local size positive and dividing its global size, the work-group and the whole
// NDRange within bounds, arguments unique and named after the kernel function's parameters,
// each local store of at least one float, the check naming three matrix arguments whose
// shapes multiply, parameters the kernel has. Throws InputError "launch.FIELD: what;
// accepted: ..." (no file name: the caller adds it). The one validator the GUI and export
// share: both read saved launches through it (core/io/trace_file_check.cpp).
void validate_launch(const LaunchConfig& config);

// Evaluates every expression; checks sizes are positive, the NDRange is a whole number
// of work-groups. Throws InputError.
ResolvedLaunch resolve(const LaunchConfig& config);

}  // namespace tilescope
