#include "core/analysis.h"

#include <algorithm>

namespace tilescope {

std::vector<SpaceTraffic> traffic_by_space(const Trace& t) {
    return {{"global", t.totals.global_load_bytes, t.totals.global_store_bytes},
            {"local", t.totals.local_load_bytes, t.totals.local_store_bytes},
            {"private", t.totals.private_load_bytes, t.totals.private_store_bytes}};
}

double compute_to_global_ratio(const Trace& t) {
    const double words = static_cast<double>(t.totals.global_load_bytes) / 4.0;
    return words > 0 ? t.totals.flops / words : 0.0;
}

namespace {
uint64_t ceil_div(uint64_t a, uint64_t b) { return b ? (a + b - 1) / b : 0; }
}  // namespace

std::optional<ExpectedTraffic> expected_traffic(std::string_view rung, const ProblemSize& size, int tile) {
    if (size.M <= 0 || size.N <= 0 || size.K <= 0 || tile <= 0) return std::nullopt;
    const uint64_t M = static_cast<uint64_t>(size.M), N = static_cast<uint64_t>(size.N),
                   K = static_cast<uint64_t>(size.K), TS = static_cast<uint64_t>(tile);
    const uint64_t f = 4;  // bytes per float
    ExpectedTraffic e;
    e.global_store_bytes = M * N * f;  // every rung writes each element of C once
    if (rung == "naive" || rung == "row") {
        // Every (i, j, k) reads A(i,k) and B(k,j).
        e.global_load_bytes = 2 * M * N * K * f;
        e.global_load_formula = "2*M*N*K floats";
    } else if (rung == "row_private") {
        // A's row once per work-item, B's column for every element of C.
        e.global_load_bytes = (M * K + M * N * K) * f;
        e.global_load_formula = "(M*K + M*N*K) floats";
    } else if (rung == "row_private_local") {
        // Each of the ceil(M/TS) groups fetches every column of B once.
        const uint64_t groups = ceil_div(M, TS);
        e.global_load_bytes = (M * K + groups * N * K) * f;
        e.global_load_formula = "(M*K + ceil(M/TS)*N*K) floats";
        e.local_store_bytes = groups * N * K * f;
        e.local_load_bytes = M * N * K * f;
        e.barriers = groups * N * 2;
    } else if (rung == "tiled") {
        // Group (gx, gy) loads the in-range part of A's row band and B's column band,
        // once each; out-of-range elements are zero-filled without a load. Every
        // work-item stores 2 and reads 2*TS local floats per phase, with 2 barriers.
        const uint64_t gx = ceil_div(N, TS), gy = ceil_div(M, TS), phases = ceil_div(K, TS);
        const uint64_t groups = gx * gy;
        e.global_load_bytes = (gx * M * K + gy * K * N) * f;
        e.global_load_formula = (N % TS == 0 && M % TS == 0) ? "2*M*N*K/TS floats"
                                                             : "(ceil(N/TS)*M*K + ceil(M/TS)*K*N) floats";
        e.local_store_bytes = groups * TS * TS * phases * 2 * f;
        e.local_load_bytes = groups * TS * TS * phases * 2 * TS * f;
        e.barriers = groups * phases * 2;
    } else {
        return std::nullopt;
    }
    return e;
}

std::vector<ExpectedVsTraced> expected_vs_traced(const Trace& t) {
    std::vector<ExpectedVsTraced> rows;
    if (t.custom) return rows;
    const std::optional<ExpectedTraffic> e = expected_traffic(t.kernel, t.size, t.tile);
    if (!e) return rows;
    rows.push_back({"global_load_bytes", e->global_load_bytes, t.totals.global_load_bytes, e->global_load_formula});
    rows.push_back({"global_store_bytes", e->global_store_bytes, t.totals.global_store_bytes, "M*N floats"});
    rows.push_back({"local_load_bytes", e->local_load_bytes, t.totals.local_load_bytes,
                    t.kernel == "tiled" ? "groups*TS*TS*phases*2*TS floats"
                                        : (t.kernel == "row_private_local" ? "M*N*K floats" : "none")});
    rows.push_back({"local_store_bytes", e->local_store_bytes, t.totals.local_store_bytes,
                    t.kernel == "tiled" ? "groups*TS*TS*phases*2 floats"
                                        : (t.kernel == "row_private_local" ? "ceil(M/TS)*N*K floats" : "none")});
    rows.push_back({"barriers", e->barriers, t.totals.barriers,
                    t.kernel == "tiled" ? "groups*phases*2" : (t.kernel == "row_private_local" ? "ceil(M/TS)*N*2" : "none")});
    return rows;
}

CoalescingSummary coalescing_summary(const Trace& t) {
    CoalescingSummary s;
    s.total = t.coalescing;
    s.ideal_sectors = std::max<uint32_t>(1, t.geometry.warp * 4 / std::max<uint32_t>(1, t.geometry.sector_bytes));
    for (const LineTraffic& l : t.lines)
        if (!l.local && l.coalescing.requests > 0) s.lines.push_back({l.line, l.coalescing});
    std::stable_sort(s.lines.begin(), s.lines.end(), [](const LineCoalescing& a, const LineCoalescing& b) {
        return a.counts.sectors_per_request() > b.counts.sectors_per_request();
    });
    return s;
}

BankConflictSummary bank_conflict_summary(const Trace& t) {
    BankConflictSummary s;
    s.total = t.bank_conflicts;
    for (const LineTraffic& l : t.lines)
        if (l.local && l.bank_conflicts.requests > 0) s.lines.push_back({l.line, l.bank_conflicts});
    std::stable_sort(s.lines.begin(), s.lines.end(), [](const LineBankConflicts& a, const LineBankConflicts& b) {
        return a.counts.max_degree > b.counts.max_degree;
    });
    return s;
}

std::vector<BufferReuse> buffer_reuse(const Trace& t) {
    std::vector<BufferReuse> out;
    for (const TracedBuffer& b : t.buffers) {
        if (b.traffic.loads == 0) continue;
        BufferReuse r;
        r.buffer = b.name;
        r.distinct_elements_loaded = b.distinct_elements_loaded;
        const double element_loads = static_cast<double>(b.traffic.load_bytes) / std::max<uint32_t>(1, b.element_size);
        r.loads_per_element = b.distinct_elements_loaded ? element_loads / b.distinct_elements_loaded : 0.0;
        out.push_back(r);
    }
    return out;
}

}  // namespace tilescope
