// Beyond the lesson (issue 5), traced: each new rung changes the memory traffic the way
// its opening comment claims, against the rung before it, on the emulator. Sizes are
// multiples of every tile so the closed forms are exact; F = M*N*K multiply-adds.
#include <gtest/gtest.h>

#include "catalog_params.h"
#include "core/kernel/catalog.h"
#include "core/emulator/trace_runner.h"

using namespace tilescope;

namespace {

constexpr int64_t S = 64;                 // M = N = K
constexpr uint64_t F = uint64_t(S) * S * S;  // multiply-adds
constexpr uint64_t kFloat = 4;

Trace trace(const std::string& rung, int tile, std::map<std::string, int64_t> params = {}) {
    const KernelSpec* k = find_rung(rung);
    if (!k) throw std::runtime_error("no rung " + rung);
    TraceOptions o;
    o.checks = false;
    LaunchConfig c{*k, parse_size(std::to_string(S)), tile, std::move(params), "given"};
    Trace t = run_trace(c, o);
    if (!t.verification || !t.verification->verified) throw std::runtime_error(rung + ": emulator result did not verify");
    return t;
}

uint64_t phases(int64_t depth) { return (S + depth - 1) / depth; }

}  // namespace

// tiled_wpt: a column of WPT results per work-item. Global traffic is tiled's; local
// loads per multiply-add fall from 2 to (1+WPT)/WPT.
TEST(RungTraffic, TiledWptCutsLocalLoadsBy2WptOver1PlusWpt) {
    const Trace tiled = trace("tiled", 32);
    const Trace wpt = trace("tiled_wpt", 32, {{"WPT", 4}});
    EXPECT_EQ(tiled.totals.global_load_bytes, 2 * F / 32 * kFloat);
    EXPECT_EQ(wpt.totals.global_load_bytes, tiled.totals.global_load_bytes);
    EXPECT_EQ(tiled.totals.local_load_bytes, 2 * F * kFloat);
    EXPECT_EQ(wpt.totals.local_load_bytes, F * (1 + 4) / 4 * kFloat);
    EXPECT_EQ(wpt.totals.local_store_bytes, tiled.totals.local_store_bytes);
    EXPECT_EQ(wpt.total_groups(), tiled.total_groups());
    EXPECT_EQ(wpt.totals.barriers, tiled.totals.barriers);
}

// reg2d: a WPTM x WPTN block per work-item: (WPTM+WPTN)/(WPTM*WPTN) local loads per
// multiply-add, and TS x TS tiles of C with TSK-deep tiles of A and B: 2*F/TS global loads.
TEST(RungTraffic, Reg2dLocalLoadsPerMultiplyAdd) {
    for (const auto& [wm, wn] : std::vector<std::pair<int64_t, int64_t>>{{4, 4}, {8, 8}, {2, 8}}) {
        const Trace t = trace("reg2d", 64, {{"TSK", 16}, {"WPTM", wm}, {"WPTN", wn}});
        EXPECT_EQ(t.totals.global_load_bytes, 2 * F / 64 * kFloat) << wm << "x" << wn;
        EXPECT_EQ(t.totals.local_load_bytes, F * (wm + wn) / (wm * wn) * kFloat) << wm << "x" << wn;
        EXPECT_EQ(t.totals.local_loads, F * (wm + wn) / (wm * wn)) << wm << "x" << wn;
        EXPECT_EQ(t.totals.barriers, t.total_groups() * 2 * phases(16)) << wm << "x" << wn;
    }
    // Against the lesson's tiled kernel: local loads per multiply-add 2 -> (WPTM+WPTN)/(WPTM*WPTN),
    // i.e. cut by 2*WPTM*WPTN/(WPTM+WPTN): 8x for 8x8.
    const Trace tiled = trace("tiled", 32);
    const Trace r88 = trace("reg2d", 64, {{"TSK", 16}, {"WPTM", 8}, {"WPTN", 8}});
    EXPECT_EQ(tiled.totals.local_load_bytes, 8 * r88.totals.local_load_bytes);
}

// reg2d_vec: the same bytes as reg2d at the same parameters, in VW times fewer global
// memory instructions (loads and stores), and fewer local ones (B read as vectors).
TEST(RungTraffic, Reg2dVecMovesTheSameBytesInFewerInstructions) {
    const std::map<std::string, int64_t> p = {{"TSK", 16}, {"WPTM", 8}, {"WPTN", 8}};
    std::map<std::string, int64_t> pv = p;
    pv["VW"] = 4;
    const Trace scalar = trace("reg2d", 64, p);
    const Trace vec = trace("reg2d_vec", 64, pv);
    EXPECT_EQ(vec.totals.global_load_bytes, scalar.totals.global_load_bytes);
    EXPECT_EQ(vec.totals.global_store_bytes, scalar.totals.global_store_bytes);
    EXPECT_EQ(vec.totals.local_load_bytes, scalar.totals.local_load_bytes);
    EXPECT_EQ(vec.totals.local_store_bytes, scalar.totals.local_store_bytes);
    EXPECT_EQ(vec.totals.global_loads * 4, scalar.totals.global_loads);
    EXPECT_EQ(vec.totals.global_stores * 4, scalar.totals.global_stores);
    EXPECT_EQ(vec.coalescing.requests * 4, scalar.coalescing.requests);
    EXPECT_EQ(vec.coalescing.sectors, scalar.coalescing.sectors);
    // Per step a work-item reads WPTM floats of A and WPTN/VW vectors of B.
    EXPECT_EQ(vec.totals.local_loads, F * (8 + 8 / 4) / (8 * 8));
}

// reg2d_tpad: A's tile transposed, so A is read as vectors too: local load instructions
// per step fall from WPTM + WPTN/VW to (WPTM+WPTN)/VW; bytes unchanged. The transposing
// stores are scalar; PAD words of padding per row spread them over the banks.
TEST(RungTraffic, Reg2dTpadReadsAAsVectorsAndPaddingSpreadsItsStores) {
    const std::map<std::string, int64_t> base = {{"TSK", 16}, {"WPTM", 8}, {"WPTN", 8}, {"VW", 4}};
    std::map<std::string, int64_t> padded = base, unpadded = base;
    padded["PAD"] = 4;
    unpadded["PAD"] = 0;
    const Trace vec = trace("reg2d_vec", 64, base);
    const Trace tpad = trace("reg2d_tpad", 64, padded);
    const Trace flat = trace("reg2d_tpad", 64, unpadded);
    EXPECT_EQ(tpad.totals.local_load_bytes, vec.totals.local_load_bytes);
    EXPECT_EQ(tpad.totals.global_load_bytes, vec.totals.global_load_bytes);
    EXPECT_EQ(tpad.totals.local_loads, F * (8 + 8) / 4 / (8 * 8));
    EXPECT_EQ(flat.totals.local_loads, tpad.totals.local_loads);
    EXPECT_LT(tpad.bank_conflicts.degree_sum, flat.bank_conflicts.degree_sum)
        << "padded " << tpad.bank_conflicts.mean_degree() << " vs unpadded " << flat.bank_conflicts.mean_degree();
}

// reg2d_dbuf: two sets of tiles, one barrier per phase (plus one for the first load)
// instead of two; every byte is the same as reg2d_tpad's.
TEST(RungTraffic, Reg2dDbufHalvesTheBarriers) {
    const std::map<std::string, int64_t> p = {{"TSK", 16}, {"WPTM", 8}, {"WPTN", 8}, {"VW", 4}, {"PAD", 4}};
    const Trace tpad = trace("reg2d_tpad", 64, p);
    const Trace dbuf = trace("reg2d_dbuf", 64, p);
    EXPECT_EQ(tpad.totals.barriers, tpad.total_groups() * 2 * phases(16));
    EXPECT_EQ(dbuf.totals.barriers, dbuf.total_groups() * (phases(16) + 1));
    EXPECT_EQ(dbuf.totals.global_load_bytes, tpad.totals.global_load_bytes);
    EXPECT_EQ(dbuf.totals.local_load_bytes, tpad.totals.local_load_bytes);
    EXPECT_EQ(dbuf.totals.local_store_bytes, tpad.totals.local_store_bytes);
    EXPECT_EQ(dbuf.totals.local_loads, tpad.totals.local_loads);
}

// With Oclgrind's checks on, at a size that is a multiple of nothing (partial tiles at every
// edge), no rung of the catalog written in OpenCL C races, reads uninitialised local memory
// or leaves its buffers; and the emulator's C verifies. Small, so every rung stays cheap.
class CleanRung : public ::testing::TestWithParam<std::string> {};

TEST_P(CleanRung, RunsCleanUnderTheEmulatorsChecks) {
    const KernelSpec* k = find_rung(GetParam());
    ASSERT_NE(k, nullptr);
    TraceOptions o;
    o.checks = true;
    const Trace t = run_trace(LaunchConfig{*k, parse_size("37x29x45"), k->default_tile}, o);
    ASSERT_TRUE(t.verification) << GetParam();
    EXPECT_TRUE(t.verification->verified) << GetParam() << ": " << t.verification->summary();
    for (const Diagnostic& d : t.diagnostics) ADD_FAILURE() << GetParam() << ": " << d.message;
}

INSTANTIATE_TEST_SUITE_P(EmulatorChecks, CleanRung, ::testing::ValuesIn(test::opencl_rungs()), test::RungName());
