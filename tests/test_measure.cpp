// One figure, one value (issue 21, item 3): a measurement's min-max as GFLOP/s, and the
// verdict on two of them (faster, or within noise: overlapping ranges rank neither).
// The CPU lesson explains this machine (item 7): explain_cpu picks the branch the runs
// support, labels every number, and `bench --explain` names the figures its --json holds.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/device/spread.h"
#include "core/kernel/catalog.h"
#include "core/tasks/performance.h"
#include "core/teach/cpu_explained.h"
#include "test_support.h"

namespace fs = std::filesystem;
using namespace tilescope;

namespace {

// A verified measurement at n^3 with these run times (seconds); median as the Runner takes it.
Measurement measured(const std::string& kernel, int n, std::vector<double> times, int tile = 16) {
    Measurement m;
    m.kernel = kernel;
    m.size = ProblemSize{n, n, n};
    m.tile = tile;
    m.times_s = times;
    std::sort(times.begin(), times.end());
    m.median_s = times.size() % 2 ? times[times.size() / 2] : (times[times.size() / 2 - 1] + times[times.size() / 2]) / 2;
    m.min_s = times.front();
    m.reps = int(times.size());
    m.gflops = 2.0 * n * n * n / m.median_s / 1e9;
    m.checked = true;
    m.verification.verified = true;
    m.launch.dims = 2;
    m.launch.local = {size_t(tile), size_t(tile), 1};
    return m;
}

CpuExplainInput cpu_input(const Measurement& naive, const Measurement& tiled) {
    CpuExplainInput in;
    in.naive = naive;
    in.tiled = tiled;
    in.device.name = "test-cpu";
    in.device.compute_units = 2;
    in.device.native_vector_width_float = 16;
    in.device.is_cpu = true;
    in.cache.l1_bytes = 32 * 1024;
    in.cache.line_bytes = 64;
    in.cache.sector_bytes = 64;
    in.cache.ways = 8;
    return in;
}

bool has(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

}  // namespace

TEST(GflopsSpread, ComesFromTheSlowestAndFastestRun) {
    const Measurement m = measured("tiled", 100, {0.004, 0.002, 0.005});  // 2e6 FLOP
    const GflopsSpread s = gflops_spread(m);
    EXPECT_NEAR(s.median, 0.5, 1e-12);  // 2e6 / 0.004 s
    EXPECT_NEAR(s.low, 0.4, 1e-12);     // at 0.005 s
    EXPECT_NEAR(s.high, 1.0, 1e-12);    // at 0.002 s
    EXPECT_EQ(s.runs, 3);
    EXPECT_EQ(spread_text(s), "0.50 GFLOP/s (0.40-1.00 over 3 runs)");
}

TEST(GflopsSpread, AResultThatDidNotVerifyHasNone) {
    Measurement m = measured("tiled", 100, {0.004, 0.002, 0.005});
    m.gflops = 0;  // the Runner's rule: no rate unless verified
    EXPECT_FALSE(gflops_spread(m).valid());
    EXPECT_EQ(compare_measurements(m, measured("naive", 100, {0.004})).ranking, Ranking::unknown);
}

TEST(CompareMeasurements, RangesApartRankRangesThatOverlapDoNot) {
    const Measurement fast = measured("a", 128, {0.010, 0.011, 0.012});
    const Measurement slow = measured("b", 128, {0.020, 0.021, 0.022});
    const Comparison c = compare_measurements(fast, slow);
    EXPECT_EQ(c.ranking, Ranking::first_faster);
    EXPECT_NEAR(c.factor, 0.021 / 0.011, 1e-9);
    EXPECT_EQ(compare_measurements(slow, fast).ranking, Ranking::second_faster);
    // The TS 8 / TS 16 flip: medians 2.34 and 2.48 GFLOP/s, but the runs overlap.
    const Measurement ts8 = measured("tiled", 128, {0.0018, 0.0019, 0.0033}, 8);
    const Measurement ts16 = measured("tiled", 128, {0.0016, 0.0017, 0.0030}, 16);
    EXPECT_GT(gflops_spread(ts16).median, gflops_spread(ts8).median);  // a median order exists...
    EXPECT_EQ(compare_measurements(ts8, ts16).ranking, Ranking::within_noise);  // ...but is not claimed
    EXPECT_TRUE(within_noise(gflops_spread(ts8), gflops_spread(ts16)));
}

TEST(CompareMeasurements, TouchingRangesAreWithinNoise) {
    GflopsSpread a{2, 1, 3, 3}, b{4, 3, 5, 3}, c{4, 3.01, 5, 3};
    EXPECT_TRUE(within_noise(a, b));
    EXPECT_FALSE(within_noise(a, c));
    EXPECT_EQ(compare_measurements(a, c).ranking, Ranking::second_faster);
}

TEST(NoiseNeighbours, NameTheOverlappingOnesNearestFirst) {
    const std::vector<GflopsSpread> s = {{10, 9, 11, 3}, {10.5, 10.2, 12, 3}, {20, 19, 21, 3}, {9.6, 8, 10.1, 3}, {}};
    const auto n = noise_neighbours(s);
    ASSERT_EQ(n.size(), 5u);
    EXPECT_EQ(n[0], (std::vector<size_t>{3, 1}));  // 9.6 is nearer 10 than 10.5 is
    EXPECT_EQ(n[1], (std::vector<size_t>{0}));
    EXPECT_TRUE(n[2].empty());
    EXPECT_EQ(n[3], (std::vector<size_t>{0}));
    EXPECT_TRUE(n[4].empty());  // no rate: overlaps nothing
}

// The machine: 1024^3, naive ~1,910 ms, tiled ~422 ms. Tiled wins; the slide is contradicted.
TEST(CpuExplained, TiledWinsAt1024DisagreesWithTheSlide) {
    const Measurement naive = measured("naive", 1024, {1.90, 1.91, 1.95});
    const Measurement tiled = measured("tiled", 1024, {0.41, 0.422, 0.43});
    CpuExplainInput in = cpu_input(naive, tiled);
    LadderRungFigures fn, ft;
    fn.kernel = "naive";
    fn.global_requests = 16512;
    fn.l1_bytes = 1.5 * 1024 * 1024;
    ft.kernel = "tiled";
    ft.global_requests = 1152;
    ft.local_bytes = 2 * 1024 * 1024;
    ft.barriers = 128;
    ft.l1_bytes = 128 * 1024;
    in.naive_traced = fn;
    in.tiled_traced = ft;
    in.traced_size = 64;
    const CpuExplanation e = explain_cpu(in);
    EXPECT_EQ(e.winner, CpuWinner::tiled);
    EXPECT_FALSE(e.slide_agrees);
    const std::string t = e.text();
    EXPECT_TRUE(has(t, "Measured on this CPU (test-cpu, 2 compute units) at 1024\u00b3")) << t;
    EXPECT_TRUE(has(t, "tiled (TS=16) took 422 ms (runs 410-430 ms) and naive 1,910 ms (runs 1,900-1,950 ms)")) << t;
    EXPECT_TRUE(has(t, "so tiled is 4.5\u00d7 faster")) << t;
    EXPECT_TRUE(has(t, "3,333 ms without local memory, 3,850 ms with it")) << t;
    EXPECT_TRUE(has(t, "This machine disagrees: here local memory pays.")) << t;
    // the cache profile's figures at 1024: 4,096-B stride, one of 64 sets, 8 of 1,024 lines kept
    EXPECT_EQ(e.figures.sets, 64u);
    EXPECT_EQ(e.figures.column_lines_kept, 8u);
    EXPECT_EQ(e.figures.naive_group_bytes, 16u * 1024 * 4 + 1024u * 64);  // 16 rows of A + a 64-B strip of B, down K
    EXPECT_TRUE(has(t, "1,024 lines 4,096 B apart, of which the L1 can keep only 8 (the stride maps them onto 1 of its 64 sets)")) << t;
    EXPECT_TRUE(has(t, "come to 128 KiB, 4.0\u00d7 the L1")) << t;
    EXPECT_TRUE(has(t, "Modelled with the cpu cache profile")) << t;
    EXPECT_TRUE(has(t, "native float vector width 16")) << t;
    EXPECT_TRUE(has(t, "16\u00d716 = 256 work-items")) << t;
    EXPECT_TRUE(has(t, "Traced at 64\u00b3 on the emulator: tiled issues 14\u00d7 fewer global requests (1,152 against 16,512)")) << t;
    EXPECT_TRUE(has(t, "(modelled) has the L1 serve 1.5 MiB of naive's global loads and 128 KiB of tiled's")) << t;
    // the projector's short form says the same three things
    ASSERT_EQ(e.summary.size(), 3u);
    EXPECT_EQ(e.summary[0], "Measured at 1024³: naive 1,910 ms, tiled 422 ms (median of 3 runs): tiled is 4.5× faster.");
    EXPECT_TRUE(has(e.summary[1], "This machine disagrees.")) << e.summary[1];
    EXPECT_TRUE(has(e.summary[2], "keeps 8 of 1,024 lines in L1")) << e.summary[2];
}

// The slide's machine: naive faster with ranges apart, and a size where naive's group fits L1.
TEST(CpuExplained, NaiveWinsAgreesWithTheSlide) {
    const Measurement naive = measured("naive", 64, {0.00016, 0.00017, 0.00018});
    const Measurement tiled = measured("tiled", 64, {0.00030, 0.00031, 0.00035});
    const CpuExplanation e = explain_cpu(cpu_input(naive, tiled));
    EXPECT_EQ(e.winner, CpuWinner::naive);
    EXPECT_TRUE(e.slide_agrees);
    const std::string t = e.text();
    EXPECT_TRUE(has(t, "so naive is 1.8\u00d7 faster")) << t;
    EXPECT_TRUE(has(t, "This machine agrees at 64\u00b3 TS=16: here too tiled is slower.")) << t;
    EXPECT_FALSE(e.figures.column_walk_misses());  // 64 lines 256 B apart: 16 sets x 8 ways hold them
    EXPECT_FALSE(e.figures.naive_exceeds_l1());    // 4 KiB of A + 4 KiB of B
    EXPECT_TRUE(has(t, "the caches already catch naive's reuse")) << t;
    EXPECT_FALSE(has(t, "Traced at")) << "no traces given, no traced sentence: " << t;
}

TEST(CpuExplained, OverlappingRunsSayWithinNoiseAndRankNeither) {
    // The 256^3 screen: 3.58 against 2.57 GFLOP/s at the medians, runs overlapping.
    const Measurement naive = measured("naive", 256, {0.0085, 0.0094, 0.0140});
    const Measurement tiled = measured("tiled", 256, {0.0090, 0.0131, 0.0150});
    const CpuExplanation e = explain_cpu(cpu_input(naive, tiled));
    EXPECT_EQ(e.winner, CpuWinner::within_noise);
    const std::string t = e.text();
    EXPECT_TRUE(has(t, "within noise")) << t;
    EXPECT_TRUE(has(t, "cannot say either way")) << t;
    EXPECT_FALSE(has(t, "faster")) << t;
    EXPECT_FALSE(has(t, "This machine agrees")) << t;
    EXPECT_FALSE(has(t, "This machine disagrees")) << t;
}

TEST(CpuExplained, AResultThatDidNotVerifyIsSaid) {
    Measurement tiled = measured("tiled", 128, {0.002});
    tiled.gflops = 0;
    tiled.verification.verified = false;
    const CpuExplanation e = explain_cpu(cpu_input(measured("naive", 128, {0.002}), tiled));
    EXPECT_EQ(e.winner, CpuWinner::unknown);
    EXPECT_TRUE(has(e.text(), "did not verify")) << e.text();
}

// ---- the command line: bench --explain on PoCL names the figures its --json holds ----

namespace {

using test_support::slurp;

std::string ms_text(double seconds) {  // as the explanation writes a time
    char b[32];
    const double v = seconds * 1e3;
    std::snprintf(b, sizeof b, v >= 10 ? "%.1f" : v >= 1 ? "%.2f" : "%.3f", v);
    return b;
}

}  // namespace

TEST(BenchExplain, TheSentencesNameTheMeasuredFiguresOfTheJson) {
    const fs::path dir = fs::temp_directory_path() / ("tilescope-measure-" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    setenv("TILESCOPE_TUNING_DIR", (dir / "tuning").c_str(), 1);
    const std::string cmd = std::string(TILESCOPE_BIN) + " bench --device pocl --kernel naive,tiled --size 96 --tile 16 --reps 3 " +
                            "--explain --json " + (dir / "b.json").string() + " >" + (dir / "out").string() + " 2>" + (dir / "err").string();
    const int raw = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(raw) && WEXITSTATUS(raw) == 0) << slurp(dir / "err");
    const std::string out = slurp(dir / "out");
    const nlohmann::json records = nlohmann::json::parse(slurp(dir / "b.json"));
    ASSERT_EQ(records.size(), 2u);
    // the paragraph is wrapped for the terminal: read it as one line
    std::string text = out.substr(out.find("why, on this machine"));
    for (size_t at = text.find("\n  "); at != std::string::npos; at = text.find("\n  ")) text.replace(at, 3, " ");
    for (const auto& r : records) {
        // new keys beside the contract's: the runs' spread as GFLOP/s around the median
        ASSERT_TRUE(r["gflops_min"].is_number() && r["gflops_max"].is_number()) << r.dump();
        EXPECT_LE(r["gflops_min"].get<double>(), r["gflops"].get<double>());
        EXPECT_GE(r["gflops_max"].get<double>(), r["gflops"].get<double>());
        const std::string kernel = r["kernel"];
        const std::vector<double> times = r["times_s"];
        const std::string median = ms_text(r["median_s"].get<double>());
        const std::string range = ms_text(*std::min_element(times.begin(), times.end())) + "-" +
                                  ms_text(*std::max_element(times.begin(), times.end())) + " ms";
        const std::string said = kernel == "tiled" ? "tiled (TS=16) took " + median + " ms (runs " + range + ")"
                                                   : "naive " + median + " ms (runs " + range + ")";
        EXPECT_TRUE(has(text, said)) << said << "\n" << text;
    }
    // whichever won, the verdict follows the runs' ranges in the JSON
    auto spread = [&](const char* kernel) {
        for (const auto& r : records)
            if (r["kernel"] == kernel) return GflopsSpread{r["gflops"], r["gflops_min"], r["gflops_max"], 3};
        return GflopsSpread{};
    };
    const Comparison c = compare_measurements(spread("tiled"), spread("naive"));
    if (c.ranking == Ranking::within_noise) EXPECT_TRUE(has(text, "within noise")) << text;
    if (c.ranking == Ranking::first_faster) EXPECT_TRUE(has(text, "so tiled is ") && has(text, "This machine disagrees")) << text;
    if (c.ranking == Ranking::second_faster) EXPECT_TRUE(has(text, "so naive is ") && has(text, "This machine agrees")) << text;
    EXPECT_TRUE(has(text, "Modelled with the cpu cache profile")) << text;
    EXPECT_TRUE(has(text, "Traced at 64\u00b3 on the emulator")) << text;
    // the table carries the spread too
    EXPECT_TRUE(has(out, "min-max")) << out;
    fs::remove_all(dir);
}

TEST(BenchExplain, RefusesWithoutBothRungsOrOffACpu) {
    for (const char* args : {"bench --device pocl --kernel tiled --size 32 --explain", "bench --device pocl --kernel naive,row --size 32 --explain"}) {
        const std::string err_path = (fs::temp_directory_path() / ("tilescope-measure-err-" + std::to_string(getpid()))).string();
        const std::string cmd = std::string(TILESCOPE_BIN) + " " + args + " >/dev/null 2>" + err_path;
        const int raw = std::system(cmd.c_str());
        EXPECT_TRUE(WIFEXITED(raw) && WEXITSTATUS(raw) == 2) << args;
        const std::string err = slurp(err_path);
        fs::remove(err_path);
        EXPECT_TRUE(has(err, "--explain") && has(err, "accepted")) << err;
    }
}
