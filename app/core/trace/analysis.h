#pragma once
// Pure functions over a Trace: what a student checks by hand. No OpenCL, no emulator.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/kernel/kernel_spec.h"
#include "core/kernel/launch_config.h"
#include "core/trace/trace.h"

namespace tilescope {

struct SpaceTraffic {
    std::string space;  // "global" (incl. __constant), "local", "private"
    uint64_t load_bytes = 0, store_bytes = 0;
};
// Global, local and private, in that order. Private is compiler noise at -Oz, shown apart.
std::vector<SpaceTraffic> traffic_by_space(const Trace& trace);

// Floating-point operations per 4-byte word loaded from global memory (the lesson's
// "compute to global memory access ratio"): 1 for the naive kernel, TS for tiled.
// 0 when nothing was loaded.
double compute_to_global_ratio(const Trace& trace);

// What a ladder rung must do at given sizes, from its closed forms in kernels/ladder.json
// (KernelSpec::closed_forms), which hold for any M, N, K (partial tiles included).
struct ExpectedTraffic {
    uint64_t global_load_bytes = 0, global_store_bytes = 0;
    uint64_t local_load_bytes = 0, local_store_bytes = 0;
    uint64_t barriers = 0;
    std::string global_load_formula;  // e.g. "2*M*N*K floats" (the text of its closed form)
    std::optional<uint64_t> a_element_loads, b_element_loads;  // loads of each element of A, of B (optional forms)
    std::optional<uint64_t> phases;   // trips round the tile loop per group: the term PHASES, else P, where a rung names one
    std::vector<ClosedForm> forms;    // every quantity's closed form, in kClosedFormQuantities order
    uint64_t value(std::string_view quantity) const;  // one of the fields above by its quantity name
    const ClosedForm* form(std::string_view quantity) const;  // null when the rung gives none
};
// `params`: the tunable parameters in effect; a parameter not named takes its default.
// nullopt for kernels without closed forms (custom kernels, library calls) and sizes
// where a form cannot be evaluated.
std::optional<ExpectedTraffic> expected_traffic(const KernelSpec& rung, const ProblemSize& size, int tile,
                                                const std::map<std::string, int64_t>& params = {});
// The catalog rung of that name at its default parameters.
std::optional<ExpectedTraffic> expected_traffic(std::string_view rung, const ProblemSize& size, int tile);
// What the traced launch must have done: its rung, sizes, tile and parameters.
std::optional<ExpectedTraffic> expected_traffic(const Trace& trace);

// A rung with a second kernel (KernelSpec::then: splitk's sum of the K-slices) is traced as
// its first kernel only; what the second must move at the traced sizes and parameters, from
// its own closed forms (splitk_tests trace it alone and hold it to them). Empty otherwise.
struct FollowUpExpected {
    std::string entry;              // "mm_slice_sum"
    std::optional<ExpectedTraffic> traffic;
};
std::optional<FollowUpExpected> follow_up_expected(const Trace& trace);

struct ExpectedVsTraced {
    std::string quantity;  // "global_load_bytes", ...
    uint64_t expected = 0, traced = 0;
    std::string formula;   // how `expected` was computed, as a person reads it
    std::string expression;  // the closed form's expression (kernels/ladder.json)
    bool matches() const { return expected == traced; }
};
// Empty for custom kernels and kernels without a closed form.
std::vector<ExpectedVsTraced> expected_vs_traced(const Trace& trace);

struct LineCoalescing {
    int line = 0;
    CoalescingCounts counts;
};
struct CoalescingSummary {
    CoalescingCounts total;
    // Sectors per request when the W lanes read consecutive elements of each request's
    // access width, averaged over requests: 4 for floats, 16 for float4 (per line too:
    // LineCoalescing::counts.ideal_sectors_per_request()).
    double ideal_sectors_per_request = 0;
    std::vector<LineCoalescing> lines; // global lines, worst (most sectors per request) first
};
CoalescingSummary coalescing_summary(const Trace& trace);

struct LineBankConflicts {
    int line = 0;
    BankConflictCounts counts;
};
struct BankConflictSummary {
    BankConflictCounts total;
    std::vector<LineBankConflicts> lines;  // local lines, worst (highest max degree) first
};
BankConflictSummary bank_conflict_summary(const Trace& trace);

// Distinct elements of a buffer loaded from global memory, and how many times each was
// loaded on average (reuse the kernel failed to capture).
struct BufferReuse {
    std::string buffer;
    uint64_t distinct_elements_loaded = 0;
    double loads_per_element = 0;
};
std::vector<BufferReuse> buffer_reuse(const Trace& trace);

}  // namespace tilescope
