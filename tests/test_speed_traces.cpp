// The CPU rung's claim, traced on the emulator (issue 12): no local memory and no barrier;
// every multiply-add costs (WPTM + TS)/(WPTM*TS) global loads, in WPTM + TS/VW load
// instructions per k; C is written once. And it runs clean under Oclgrind's checks.
#include <gtest/gtest.h>

#include "core/kernel/catalog.h"
#include "core/emulator/trace_runner.h"
#include "core/trace/analysis.h"

using namespace tilescope;

namespace {

Trace trace(const std::string& size, int tile, std::map<std::string, int64_t> params, bool checks) {
    const KernelSpec* k = find_rung("cpu_panel");
    if (!k) throw std::runtime_error("no rung cpu_panel");
    TraceOptions o;
    o.checks = checks;
    Trace t = run_trace(LaunchConfig{*k, parse_size(size), tile, std::move(params), "given"}, o);
    if (!t.verification || !t.verification->verified) throw std::runtime_error("cpu_panel: emulator result did not verify");
    return t;
}

// `c` traced with Oclgrind's checks: it verifies, the checks find nothing, and every closed form
// of the rung holds exactly. Returns the trace for the caller's own counts.
Trace traced_exactly(const LaunchConfig& c, const std::string& what) {
    TraceOptions o;
    o.checks = true;
    Trace t = run_trace(c, o);
    EXPECT_TRUE(t.verification && t.verification->verified) << what;
    for (const Diagnostic& d : t.diagnostics) ADD_FAILURE() << what << ": " << d.message;
    const std::vector<ExpectedVsTraced> rows = expected_vs_traced(t);
    EXPECT_EQ(rows.size(), kRequiredClosedForms) << what;
    for (const ExpectedVsTraced& r : rows)
        EXPECT_EQ(r.expected, r.traced) << what << ": " << r.quantity << " = " << r.expression;
    return t;
}

}  // namespace

TEST(CpuPanelTraffic, RegistersAndCachesInsteadOfLocalMemory) {
    constexpr uint64_t S = 64, F = S * S * S;
    for (const auto& [ts, wm, vw] : std::vector<std::tuple<uint64_t, uint64_t, uint64_t>>{{32, 8, 16}, {16, 4, 8}, {64, 4, 16}}) {
        const Trace t = trace(std::to_string(S), static_cast<int>(ts),
                              {{"WPTM", int64_t(wm)}, {"VW", int64_t(vw)}, {"WGN", 2}, {"WGM", 1}}, false);
        const std::string at = "TS=" + std::to_string(ts) + " WPTM=" + std::to_string(wm) + " VW=" + std::to_string(vw);
        EXPECT_EQ(t.totals.global_load_bytes, F * (wm + ts) / (wm * ts) * 4) << at;
        EXPECT_EQ(t.totals.global_loads, F * (wm + ts / vw) / (wm * ts)) << at;
        EXPECT_EQ(t.totals.global_store_bytes, S * S * 4) << at;
        EXPECT_EQ(t.totals.local_load_bytes, 0u) << at;
        EXPECT_EQ(t.totals.local_store_bytes, 0u) << at;
        EXPECT_EQ(t.totals.barriers, 0u) << at;
    }
    // Against the lesson's tiled kernel: a 8x32 block loads (8+32)/(8*32) = 1/6.4 floats per
    // multiply-add, between tiled's 2/8 and 2/16, with no local traffic at all where tiled
    // stages every float through local memory.
    const Trace panel = trace(std::to_string(S), 32, {{"WPTM", 8}}, false);
    const KernelSpec* tiled = find_rung("tiled");
    ASSERT_NE(tiled, nullptr);
    TraceOptions o;
    o.checks = false;
    const Trace ts8 = run_trace(LaunchConfig{*tiled, parse_size(std::to_string(S)), 8}, o);
    const Trace ts16 = run_trace(LaunchConfig{*tiled, parse_size(std::to_string(S)), 16}, o);
    EXPECT_LT(panel.totals.global_load_bytes, ts8.totals.global_load_bytes);
    EXPECT_GT(panel.totals.global_load_bytes, ts16.totals.global_load_bytes);
    EXPECT_EQ(ts16.totals.local_load_bytes, 2 * F * 4);
    EXPECT_EQ(panel.totals.local_load_bytes, 0u);
}

TEST(CpuPanelTraffic, RunsCleanUnderTheEmulatorsChecks) {
    for (const std::string size : {"37x29x45", "70x52x41"}) {
        const Trace t = trace(size, 32, {}, true);
        for (const Diagnostic& d : t.diagnostics) ADD_FAILURE() << size << ": " << d.message;
    }
}

// Issue 30: warp_tile's half-wide tiles (NDIV 2: a TS x TS/2 tile of C per group, twice the
// groups) traced on the emulator: every closed form holds exactly at sizes that take each load
// path (37x29x45: every load checked; 200x136x44: float4-aligned rows with edges and a K
// remainder; 128x64x32: no edge at all), and by hand the groups along N and the local stores
// follow TS/2, not TS. The same for splitk, which shares the source.
TEST(WarpTileHalfWide, TracedCountsMatchTheClosedForms) {
    const std::map<std::string, int64_t> half = {{"NDIV", 2}, {"TSK", 8}, {"WM", 32}, {"WN", 32}, {"WNITER", 1},
                                                 {"TM", 4},   {"TN", 4},  {"PAD", 4}};
    for (const char* name : {"warp_tile", "splitk"})
        for (const std::string size : {"37x29x45", "200x136x44", "128x64x32"}) {
            const KernelSpec* k = find_rung(name);
            ASSERT_NE(k, nullptr);
            const LaunchConfig c{*k, parse_size(size), 64, half, "given"};
            const Trace t = traced_exactly(c, std::string(name) + " " + size);
            const uint64_t gx = (c.size.N + 31) / 32, gy = (c.size.M + 63) / 64, p = (c.size.K + 7) / 8;
            EXPECT_EQ(t.groups[0], gx) << name << " " << size;
            EXPECT_EQ(t.groups[1], gy) << name << " " << size;
            EXPECT_EQ(t.totals.local_store_bytes, 4 * gx * gy * p * (64 + 32) * 8) << name << " " << size;
        }
}

// speed12: warp_tile's wide tiles (NMUL 2: 64 x 128 of C per group at TS 64, TSK 16) traced on
// the emulator: every closed form holds exactly at sizes that take each load path (37x29x45: every
// load checked; 200x136x44: float4-aligned rows with edges and a K remainder; 128x256x32: no edge),
// and by hand the groups along N and the local stores follow 2*TS, not TS. splitk shares the source.
TEST(WarpTileWide, TracedCountsMatchTheClosedForms) {
    const std::map<std::string, int64_t> wide = {{"NMUL", 2}, {"TSK", 16}, {"WM", 32}, {"WN", 64}, {"WNITER", 2},
                                                 {"TM", 8},   {"TN", 4},   {"PAD", 4}};
    for (const char* name : {"warp_tile", "splitk"})
        for (const std::string size : {"37x29x45", "200x136x44", "128x256x32"}) {
            const KernelSpec* k = find_rung(name);
            ASSERT_NE(k, nullptr);
            const LaunchConfig c{*k, parse_size(size), 64, wide, "given"};
            const Trace t = traced_exactly(c, std::string(name) + " " + size);
            const uint64_t gx = (c.size.N + 127) / 128, gy = (c.size.M + 63) / 64, p = (c.size.K + 15) / 16;
            EXPECT_EQ(t.groups[0], gx) << name << " " << size;
            EXPECT_EQ(t.groups[1], gy) << name << " " << size;
            EXPECT_EQ(t.totals.local_store_bytes, 4 * gx * gy * p * (64 + 128) * 16) << name << " " << size;
        }
}

// Issue 30: INPLACE=1 (warp_tile and splitk read rows that are not float4-aligned where they are,
// with vload4, instead of on padded copies) traced on the emulator at sizes whose rows of A and B
// are not aligned (K and N not multiples of 4, and N alone): it verifies, the emulator's checks
// find no read outside A or B (B's float4s across its right edge are read element by element), and
// every closed form holds exactly: the same bytes as the checked path, each in-range element once.
TEST(WarpTileInPlace, TracedCountsMatchTheClosedForms) {
    for (const char* name : {"warp_tile", "splitk"})
        for (const std::string size : {"37x29x45", "45x30x43", "70x38x48"}) {
            const KernelSpec* k = find_rung(name);
            ASSERT_NE(k, nullptr);
            for (const int64_t inplace : {1, 2})  // 2 (speed14): a float per work-item and load
                traced_exactly(LaunchConfig{*k, parse_size(size), 64, {{"INPLACE", inplace}, {"TM", 8}, {"TN", 4}}, "given"},
                               std::string(name) + " INPLACE=" + std::to_string(inplace) + " " + size);
        }
}
