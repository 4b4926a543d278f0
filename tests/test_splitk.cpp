// Split K (issue 20, item 2): when C is too small to give every compute unit work-groups of its
// own, rung splitk deals the K loop out over work-groups (the NDRange's third dimension) that
// store partial products into W, and a second kernel, mm_slice_sum, adds W's slices into C.
// Held here: the result against the CPU reference on PoCL (odd, skinny and square sizes, every
// load path of warp_tile.cl), the same bits on every run (no atomics), the traced counts of
// both kernels against their closed forms on the emulator, and the launch's shape.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>

#include "core/base/errors.h"
#include "core/device/runner.h"
#include "core/emulator/trace_runner.h"
#include "core/io/trace_export.h"
#include "core/kernel/catalog.h"
#include "core/trace/analysis.h"
#include "core/tuning/tuning.h"

using namespace tilescope;

namespace {

const KernelSpec& splitk() {
    const KernelSpec* k = find_rung("splitk");
    if (!k) throw std::runtime_error("no rung splitk");
    return *k;
}

// The H200's small warp_tile point (TS 64, TM 8), as the GPU defaults give it to splitk.
const std::map<std::string, int64_t> kGpuPoint = {{"TSK", 8}, {"WM", 32}, {"WN", 64}, {"WNITER", 2},
                                                  {"TM", 8},  {"TN", 4},  {"PAD", 4}};

std::map<std::string, int64_t> with(std::map<std::string, int64_t> p, const std::string& name, int64_t v) {
    p[name] = v;
    return p;
}

// The slices a launch makes: P phases of TSK along K, dealt out PPS at a time.
int64_t slices(int64_t K, int64_t tsk, int64_t wanted) {
    const int64_t p = (K + tsk - 1) / tsk, pps = (p + wanted - 1) / wanted;
    return (p + pps - 1) / pps;
}

}  // namespace

// Sizes where every path of warp_tile.cl's loads runs in a slice: rows not float4-aligned
// (37x29x45: every load checked), aligned with edges and a K remainder (200x136x44: slice 0
// holds the partial phase, the others start past it), the tiles dividing everything (256x128x64),
// skinny and flat ones, and 1000^3; slice counts that divide the phases and ones that do not.
TEST(SplitK, VerifiesOnPoclAtAnySizeAndSliceCount) {
    Runner r(select_device("pocl"));
    RunOptions o;
    o.reps = 1;
    o.warmup = 0;
    struct Point {
        const char* size;
        int tile;
        std::map<std::string, int64_t> params;
    };
    const std::vector<Point> points = {
        {"37x29x45", 64, {}},
        {"37x29x45", 64, with(kGpuPoint, "SLICES", 2)},
        {"200x136x44", 64, with({}, "SLICES", 4)},
        {"200x136x44", 64, with(kGpuPoint, "SLICES", 16)},
        {"256x128x64", 64, with(kGpuPoint, "SLICES", 4)},
        {"256x128x64", 128, {}},
        {"8x256x1000", 64, with(kGpuPoint, "SLICES", 8)},
        {"64x512x2048", 64, with(kGpuPoint, "SLICES", 8)},
        {"512x64x1000", 64, with(kGpuPoint, "SLICES", 4)},
        {"5x3x7", 64, {}},
        {"1000", 64, with(kGpuPoint, "SLICES", 4)},
    };
    for (const Point& p : points) {
        LaunchConfig c{splitk(), parse_size(p.size), p.tile, p.params, "given"};
        c.pad = false;  // every load path of warp_tile.cl, the checked ones included
        const Measurement m = r.measure(c, o);
        EXPECT_TRUE(m.verification.verified) << p.size << " TS=" << p.tile << ": " << m.verification.summary();
        EXPECT_EQ(m.verification.checked_elements, m.size.M * m.size.N) << p.size;
        // One slice per PPS phases of TSK (5x3x7 has one phase, so one slice: warp_tile's loop).
        const int64_t tsk = p.params.count("TSK") ? p.params.at("TSK") : 8, wanted = p.params.count("SLICES") ? p.params.at("SLICES") : 8;
        EXPECT_EQ(m.launch.groups[2], uint64_t(slices(m.size.K, tsk, wanted))) << p.size;
        if (m.size.K > 2 * tsk) EXPECT_GT(m.launch.groups[2], 1u) << p.size << ": K was not split";
    }
}

// Each slice is summed in slice order by one work-item, with no atomics: two runs give the
// same bits.
TEST(SplitK, TheSameBitsOnEveryRun) {
    Runner r(select_device("pocl"));
    const LaunchConfig c{splitk(), parse_size("64x200x1000"), 64, with(kGpuPoint, "SLICES", 8), "given"};
    const RunResult a = r.run_once(c), b = r.run_once(c);
    ASSERT_EQ(a.matrices.at("C").data.size(), 64u * 200u);
    EXPECT_EQ(std::memcmp(a.matrices.at("C").data.data(), b.matrices.at("C").data.data(), 64 * 200 * sizeof(float)), 0);
}

// The second kernel alone: C is exactly W's slices added in slice order (the host adds them in
// the same order, so not one bit may differ), on the float4 path (M*N a multiple of 4) and the
// element path, with few slices and with enough for the float4 path's batches of eight loads
// (18 slices at 64x200x1000: two batches and one left over).
TEST(SplitK, TheSumKernelAddsTheSlicesInOrder) {
    Runner r(select_device("pocl"));
    const KernelSpec sum = follow_up_alone(splitk());
    EXPECT_EQ(sum.entry, "mm_slice_sum");
    for (const int64_t wanted : {4, 19})
    for (const char* size : {"37x29x45", "64x200x1000"}) {
        const LaunchConfig c{sum, parse_size(size), 64, with({}, "SLICES", wanted), "given"};
        const ResolvedLaunch l = resolve(c);
        const RunResult res = r.run_once(c);
        const HostMatrix& w = res.matrices.at("W");
        const HostMatrix& out = res.matrices.at("C");
        const int64_t mn = c.size.M * c.size.N, s = slices(c.size.K, 8, wanted);
        ASSERT_EQ(w.rows, s * c.size.M) << size;
        EXPECT_GT(s, 1) << size;
        EXPECT_EQ(l.global[0] % 256, 0u);
        int64_t differ = 0;
        for (int64_t e = 0; e < mn; ++e) {
            float acc = w.data[e];
            for (int64_t z = 1; z < s; ++z) acc += w.data[z * mn + e];
            differ += acc != out.data[e];
        }
        EXPECT_EQ(differ, 0) << size;
    }
}

// The trace covers the partial-product kernel (the plugin claims the rung's entry by name);
// the sum runs on the emulator too, so the emulator's C verifies. Every closed form holds
// exactly where the slices and the load paths differ, and each group passes one barrier per
// phase of its own slice.
TEST(SplitK, TracedCountsMatchTheClosedForms) {
    struct Point {
        const char* size;
        std::map<std::string, int64_t> params;
    };
    for (const Point& p : std::vector<Point>{{"37x29x45", with({}, "SLICES", 4)},
                                             {"200x136x44", with(kGpuPoint, "SLICES", 4)},
                                             {"8x256x200", with(kGpuPoint, "SLICES", 8)}}) {
        TraceOptions o;
        o.checks = true;
        const LaunchConfig c{splitk(), parse_size(p.size), 64, p.params, "given"};
        const Trace t = run_trace(c, o);
        ASSERT_TRUE(t.verification && t.verification->verified) << p.size;
        EXPECT_TRUE(t.diagnostics.empty()) << p.size << ": " << t.diagnostics.front().message;
        const std::vector<ExpectedVsTraced> rows = expected_vs_traced(t);
        ASSERT_EQ(rows.size(), kRequiredClosedForms);
        for (const ExpectedVsTraced& r : rows) EXPECT_EQ(r.expected, r.traced) << p.size << ": " << r.quantity << " = " << r.expression;
        // By hand, beside the forms: S slices of M x N floats stored, one barrier per phase.
        const int64_t tsk = p.params.count("TSK") ? p.params.at("TSK") : 8;
        const int64_t s = slices(c.size.K, tsk, p.params.at("SLICES"));
        EXPECT_EQ(t.totals.global_store_bytes, uint64_t(4 * s * c.size.M * c.size.N)) << p.size;
        EXPECT_EQ(t.groups[2], uint64_t(s)) << p.size;
        const int64_t phases = (c.size.K + tsk - 1) / tsk, pps = (phases + p.params.at("SLICES") - 1) / p.params.at("SLICES");
        // trace --json names the second launch, untraced, with its closed forms' values.
        const nlohmann::json j = trace_to_json(t);
        ASSERT_TRUE(j.contains("then")) << p.size;
        EXPECT_EQ(j["then"]["entry"], "mm_slice_sum");
        EXPECT_EQ(j["then"]["traced"], false);
        EXPECT_EQ(j["then"]["expected"][0]["quantity"], "global_load_bytes");
        EXPECT_EQ(j["then"]["expected"][0]["expected"].get<uint64_t>(), uint64_t(4 * s * c.size.M * c.size.N)) << p.size;
        for (const GroupTotals& g : t.group_totals) {
            const int64_t mine = std::min(pps, phases - int64_t(g.group[2]) * pps);
            EXPECT_EQ(g.barriers, uint32_t(mine)) << p.size << " group z=" << g.group[2];
        }
    }
}

// The sum kernel traced alone from the same source: its closed forms (ladder.json "then") hold.
TEST(SplitK, TheSumKernelsTraceMatchesItsClosedForms) {
    const KernelSpec sum = follow_up_alone(splitk());
    for (const char* size : {"37x29x45", "64x200x1000"}) {
        TraceOptions o;
        o.checks = true;
        const LaunchConfig c{sum, parse_size(size), 64, with({}, "SLICES", 4), "given"};
        const Trace t = run_trace(c, o);
        EXPECT_TRUE(t.diagnostics.empty()) << size;
        const std::optional<ExpectedTraffic> e = expected_traffic(sum, c.size, c.tile, c.params);
        ASSERT_TRUE(e) << size;
        const int64_t s = slices(c.size.K, 8, 4);
        EXPECT_EQ(e->global_load_bytes, uint64_t(4 * s * c.size.M * c.size.N)) << size;
        EXPECT_EQ(t.totals.global_load_bytes, e->global_load_bytes) << size;
        EXPECT_EQ(t.totals.global_store_bytes, e->global_store_bytes) << size;
        EXPECT_EQ(t.totals.local_load_bytes + t.totals.local_store_bytes + t.totals.barriers, 0u) << size;
    }
}

// The shape it is for: 64x8192x8192 with the GPU defaults makes 128 tiles of C times 8 slices,
// W holds 8 slices, and the sum covers C in float4s.
TEST(SplitK, ResolvesTheSkinnyShapeIntoEnoughGroups) {
    const LaunchConfig c{splitk(), parse_size("64x8192x8192"), 64, with(kGpuPoint, "SLICES", 8), "given"};
    const ResolvedLaunch l = resolve(c);
    EXPECT_EQ(l.dims, 3);
    EXPECT_EQ(l.groups[0] * l.groups[1], 128u);
    EXPECT_EQ(l.groups[2], 8u);
    EXPECT_EQ(l.then_dims, 1);
    EXPECT_EQ(l.then_global[0], 64u * 8192u / 4u);
    EXPECT_EQ(l.find("W")->rows, 8 * 64);
    EXPECT_NE(l.build_options.find("-D PPS=128 "), std::string::npos) << l.build_options;
    // More slices asked for than there are phases: one phase each, no empty slice.
    const ResolvedLaunch few = resolve(LaunchConfig{splitk(), parse_size("64x64x20"), 64, with({}, "SLICES", 16), "given"});
    EXPECT_EQ(few.groups[2], 3u);
    // The GPU defaults pick it.
    DeviceInfo gpu;
    gpu.platform = "Some GPU platform";
    gpu.name = "Nobody tuned this";
    gpu.type = "GPU";
    gpu.is_gpu = true;
    gpu.compute_units = 132;
    const auto l2 = lookup_tuning(gpu, "splitk", parse_size("64x8192x8192"));
    ASSERT_TRUE(l2);
    EXPECT_EQ(l2->choice.tile, 64);
    EXPECT_EQ(l2->choice.params.at("SLICES"), 8);
}

// A slice count of 0 is refused with one line and exit status 2.
TEST(SplitK, ZeroSlicesIsRefusedInOneLine) {
    const std::string cmd = std::string(TILESCOPE_BIN) +
                            " bench --device pocl --kernel splitk --size 64 --param SLICES=0 >/dev/null 2>/tmp/splitk-zero-$$.txt;"
                            " s=$?; n=$(wc -l </tmp/splitk-zero-$$.txt); rm -f /tmp/splitk-zero-$$.txt; exit $((s * 10 + n))";
    const int raw = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(raw));
    EXPECT_EQ(WEXITSTATUS(raw), 21);  // status 2, one line
}
