#pragma once
// What a kernel is, independent of sizes: its source, entry point, NDRange and
// argument expressions. Ladder rungs (kernels/ladder.json) and custom kernels from the
// command line are the same type, parsed by the same functions.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tilescope {

enum class Layout { RowMajor, ColMajor };
enum class Access { In, Out };

// One --arg SPEC:  NAME=int:E | NAME=matrix:ExE[:rowmajor|colmajor][:in|out] | NAME=local:E
struct ArgSpec {
    enum class Kind { Int, Matrix, Local };
    std::string name;
    Kind kind = Kind::Int;
    std::string value;           // Int: the value; Local: number of floats
    std::string rows, cols;      // Matrix: its shape
    Layout layout = Layout::RowMajor;
    Access access = Access::In;  // inputs get seeded random values, outputs zeros
};

ArgSpec parse_arg_spec(std::string_view spec);  // throws InputError
std::string to_string(const ArgSpec& arg);       // the SPEC text back

// --check C=A*B: C must equal the product of A and B, each in its declared layout.
struct CheckSpec {
    std::string c, a, b;
};
CheckSpec parse_check_spec(std::string_view spec);  // throws InputError

// A build parameter of a rung beyond TS (TSK, WPTM, VW, ...): usable by name in every
// expression of the kernel (NDRange, defines, arguments). `values` are the candidates
// `tilescope tune` tries; tuned values per device live in assets/tuning/ (core/tuning/tuning.h).
struct TunableParam {
    std::string name;
    int64_t default_value = 0;
    std::vector<int64_t> values;  // candidates for tuning; contains the default
};

// What a rung must move at any M, N, K (partial tiles included), from kernels/ladder.json:
// an integer expression (core/base/expr.h) over M, N, K, TS, the rung's params and its named
// terms, and the formula as a person reads it. Compared with the trace wherever shown.
struct ClosedForm {
    std::string quantity;  // one of kClosedFormQuantities
    std::string expr;
    std::string text;      // "(ceil(N/TS)*M*K + ceil(M/TS)*K*N) floats"
};
// What a closed form may give. The first kRequiredClosedForms are required of every rung
// with closed forms; the element loads (how many times each element of A, of B is loaded
// from global memory: the heatmap's sentence) are optional.
inline constexpr std::string_view kClosedFormQuantities[] = {
    "global_load_bytes", "global_store_bytes", "local_load_bytes", "local_store_bytes", "barriers",
    "A_element_loads",   "B_element_loads"};
inline constexpr size_t kRequiredClosedForms = 5;

struct ClosedForms {
    // Named sub-expressions ("GX" = "(N+TS-1)/TS"), in order; each may use those before it.
    std::vector<std::pair<std::string, std::string>> terms;
    std::vector<ClosedForm> forms;  // in kClosedFormQuantities order; empty: none
    const ClosedForm* find(std::string_view quantity) const;
};

// A second kernel of the same program, launched right after the first over its own NDRange
// (ladder.json "then"; rung splitk: the sum of the K-slices). Its parameters bind by name to
// the rung's arguments, buffers shared; its own "args" describe it launched alone (the
// buffers it reads as inputs), as follow_up_alone() does to trace it. A launch's time spans
// both kernels. The emulator's trace of the rung covers the first kernel only (the plugin
// claims the rung's entry by name); the second runs there too, so the result is verified.
struct FollowUpKernel {
    std::string entry;
    std::vector<std::string> global, local;
    std::vector<ArgSpec> args;
    ClosedForms closed_forms;
};

// ladder.json "pad": the rung may run on copies of A, B and C padded with zeros up to these
// multiples of M, N and K (warp_tile: N and K to 4, so that every row is float4-aligned and the
// unchecked loop runs). The runner (core/device/runner.h, padded_config) makes the copies with
// a small kernel (kernels/support/pad_copy.cl) on a real device, times them with the product and
// verifies the user's C; the emulator traces the rung as written, at the size asked for.
// "avoid" ({"N": 128}: cpu_panel) names multiples a padded extent must not be: one that is grows
// by one more pad multiple. A row of B read down its column every k at a stride that is a
// multiple of 512 bytes falls on a few cache sets, so a panel of B that fits the cache by size
// does not by sets (rows of 1024 floats: each line of the panel's rows on 32 of the 2,048 sets of
// a 1 MiB 8-way L2); at 1040 they spread over all of them.
// "C": "CN" (warp_tile, splitk) names the define through which the kernel learns the user's N:
// with it the runner binds the user's own C (M unpadded) and the kernel stores C where it lies,
// so C gets no padded copy and no copy back (one launch and 2*M*N floats of traffic fewer).
struct PadSpec {
    int64_t M = 1, N = 1, K = 1;
    int64_t avoid_M = 0, avoid_N = 0, avoid_K = 0;  // 0: any multiple is fine
    std::string c_in_place;                         // the define, or empty: C is copied back
};

struct KernelSpec {
    std::string name;         // catalog name ("tiled") or the custom file's stem
    std::string title;        // short label for tables and plots
    std::string lesson;       // the one idea the kernel teaches
    std::string tile_meaning; // what TS means for this kernel
    std::string source;       // OpenCL C text
    std::string source_name;  // file name used in messages
    // Text the build puts before `source` (ladder.json "prelude": shared helpers), then
    // "#line 1", so line numbers stay those of `source`. Empty for custom kernels.
    std::string prelude;
    std::string prelude_name;  // its file name ("prelude_vector.cl"); empty without one
    std::string entry;        // kernel function name
    std::vector<std::string> global, local;                   // 1 to 3 expressions each
    std::vector<std::pair<std::string, std::string>> defines; // -D NAME=E
    std::vector<ArgSpec> args;
    std::optional<CheckSpec> check;
    std::vector<TunableParam> params;  // tunable parameters beyond TS, in catalog order
    std::vector<int> tiles;   // tile sizes worth showing (GUI menus, --tile all); tune's TS candidates
    int default_tile = 16;
    bool custom = false;      // from --source rather than the catalog
    std::string library;      // non-empty for a library call rather than OpenCL C ("clblast")
    ClosedForms closed_forms; // catalog rungs; empty for custom kernels and library calls
    std::optional<FollowUpKernel> then;  // a second launch (splitk's reduction); none for most
    // Where the source came from when a file carried it (a saved trace: its label,
    // "--open 'F'"; a --source typed by the user: "--source 'F'", trusted at once); "" for
    // the catalog's rungs.
    // Never saved: a file's kernel is carried by that file (issue 32, item 1). A carried
    // kernel is built or run on no device until the user trusts it (`trusted`: the GUI's
    // confirm, --trust-source), and then only in a child process (core/device/contained_measure.h).
    std::string carried_by;
    bool trusted = false;
    // ladder.json "compares_with": the rung this one teaches one change against (an earlier
    // OpenCL C rung); `trace` traces it beside this one. Empty: shown alone (the lesson's rungs).
    std::string compares_with;
    std::optional<PadSpec> pad;          // may run on zero-padded copies (see PadSpec); none for most

    const ArgSpec* find_arg(std::string_view arg_name) const;
    const TunableParam* find_param(std::string_view param_name) const;
    std::vector<std::string> param_names() const;
    // Whether TS reaches the launch: some NDRange, define, argument shape or the second
    // kernel's NDRange names it. A custom kernel that never does has no tile size to show.
    bool uses_tile() const;
};

// The rung's second kernel as a kernel of its own ("splitk.then": its entry, NDRange, arguments
// and closed forms; the rung's source, defines, parameters and tiles), so that it can be traced
// and its closed forms checked like any rung's. Throws InputError when `spec` has none.
KernelSpec follow_up_alone(const KernelSpec& spec);

// The longest kernel or entry name a custom kernel may have (a saved trace holds no longer).
inline constexpr size_t kMaxKernelNameChars = 256;

// The largest kernel source accepted: far beyond any hand-written kernel, small enough
// that no build of it can exhaust the machine.
inline constexpr uint64_t kMaxSourceBytes = 1u << 20;

struct CustomKernelOptions {
    std::string source_path, entry;
    std::vector<std::string> global, local, defines, args;
    std::string check;
};
// Reads a kernel from a file and command-line pieces (the --source family of options).
// Validates everything that does not need sizes; throws InputError.
KernelSpec load_custom_kernel(const CustomKernelOptions& options);

// The text OpenCL builds: `spec.source`, after the prelude and a "#line 1" when there
// is one, so that every line the compiler or the emulator reports is a line of `source`.
std::string program_source(const KernelSpec& spec);

// The parameter names of kernel function `entry` in `source` (comments skipped), in order;
// nullopt when no definition "void ENTRY(" is found. What a saved launch's arguments are
// checked against (they bind to the kernel's parameters by name).
std::optional<std::vector<std::string>> kernel_parameter_names(std::string_view source, std::string_view entry);

// Shared validation: dimensions 1..3, expressions well formed, unique argument names,
// the check naming matrices. Throws InputError.
void validate(const KernelSpec& spec);

}  // namespace tilescope
