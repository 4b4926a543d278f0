#pragma once
// Pure functions over a Trace: what a student checks by hand. No OpenCL, no emulator.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/launch_config.h"
#include "core/trace.h"

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

// What a ladder rung must do at given sizes, from closed forms that hold for any M, N, K
// (partial tiles included). Bytes are of 4-byte floats.
struct ExpectedTraffic {
    uint64_t global_load_bytes = 0, global_store_bytes = 0;
    uint64_t local_load_bytes = 0, local_store_bytes = 0;
    uint64_t barriers = 0;
    std::string global_load_formula;  // e.g. "2*M*N*K floats" or "(ceil(N/TS)*M*K + ceil(M/TS)*K*N) floats"
};
// nullopt for kernels without a closed form (custom kernels, library calls).
std::optional<ExpectedTraffic> expected_traffic(std::string_view rung, const ProblemSize& size, int tile);

struct ExpectedVsTraced {
    std::string quantity;  // "global_load_bytes", ...
    uint64_t expected = 0, traced = 0;
    std::string formula;   // how `expected` was computed
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
    uint32_t ideal_sectors = 0;        // sectors of a request whose W lanes read consecutive floats
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
