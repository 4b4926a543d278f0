// The CPU's share of its peak, timed in pairs (issue 30 item 4): the spread of the pairs'
// ratios; the peak kernel's launch sized to a rung's FLOPs; Runner::measure_interleaved on
// PoCL; `tilescope ceilings --against K`'s output, JSON and refusals. Shapes and arithmetic
// only: how fast anything ran is measured by the subcommand, never judged by a test.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/device/ceilings.h"
#include "core/device/opencl_env.h"
#include "core/device/runner.h"
#include "core/kernel/catalog.h"
#include "core/base/errors.h"
#include "test_support.h"

namespace fs = std::filesystem;
using namespace tilescope;

namespace {

using test_support::slurp;

// Runs the binary with its own empty tuning folder and data home; stdout and stderr in `dir`.
int run(const std::string& args, const fs::path& dir) {
    const std::string cmd = "TILESCOPE_TUNING_DIR=" + (dir / "tuning").string() + " XDG_DATA_HOME=" + (dir / "xdg").string() +
                            " " + TILESCOPE_BIN + " " + args + " >" + (dir / "out").string() + " 2>" + (dir / "err").string();
    fs::create_directories(dir / "tuning");
    const int raw = std::system(cmd.c_str());
    return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

double flops_of(const ProblemSize& s) { return 2.0 * double(s.M) * double(s.N) * double(s.K); }

}  // namespace

TEST(PairSpread, MedianQuartilesAndExtremesOfTheRatios) {
    RatioSpread s = spread_of({0.9, 0.5, 0.7, 0.6, 0.8});
    EXPECT_EQ(s.count, 5);
    EXPECT_DOUBLE_EQ(s.median, 0.7);
    EXPECT_DOUBLE_EQ(s.q1, 0.6);
    EXPECT_DOUBLE_EQ(s.q3, 0.8);
    EXPECT_DOUBLE_EQ(s.min, 0.5);
    EXPECT_DOUBLE_EQ(s.max, 0.9);
    // An even count: between the two middle ratios; quartiles interpolated the same way.
    s = spread_of({4, 1, 3, 2});
    EXPECT_DOUBLE_EQ(s.median, 2.5);
    EXPECT_DOUBLE_EQ(s.q1, 1.75);
    EXPECT_DOUBLE_EQ(s.q3, 3.25);
    // One burst of load in one pair moves the extremes, not the median.
    s = spread_of({0.8, 0.81, 0.79, 0.8, 0.05});
    EXPECT_DOUBLE_EQ(s.median, 0.8);
    EXPECT_DOUBLE_EQ(s.min, 0.05);
    s = spread_of({});
    EXPECT_EQ(s.count, 0);
    EXPECT_DOUBLE_EQ(s.median, 0);
}

TEST(PairedPeak, ThePeakLaunchDoesAboutTheRungsFlops) {
    // A CPU: 16384 multiply-adds a work-item, as many work-items as the FLOPs need, in groups of 64.
    const ProblemSize cpu = paired_peak_size(2.0 * 1024 * 1024 * 1024, false, 2);
    EXPECT_EQ(cpu.K, 16384);
    EXPECT_EQ(cpu.M * cpu.N, 65536);
    EXPECT_EQ(cpu.N, 64);
    for (const double f : {2.0 * 1000 * 1000 * 1000, 2.0 * 1234 * 1234 * 1234, 2.0 * 3000 * 3000 * 3000}) {
        const ProblemSize p = paired_peak_size(f, false, 2);
        EXPECT_EQ(p.K, 16384);
        EXPECT_EQ(p.K % 256, 0);
        EXPECT_NEAR(flops_of(p) / f, 1.0, 0.01) << f;
    }
    // Few FLOPs: no fewer than 8 groups of 64 a compute unit, K shortened (a multiple of 256, >= 1024).
    ProblemSize small = paired_peak_size(2.0 * 256 * 256 * 256, false, 2);
    EXPECT_EQ(small.M * small.N, 1024);
    EXPECT_EQ(small.K, 16384);
    small = paired_peak_size(2.0 * 128 * 128 * 128, false, 2);
    EXPECT_EQ(small.M * small.N, 1024);
    EXPECT_EQ(small.K, 2048);
    EXPECT_NEAR(flops_of(small) / (2.0 * 128 * 128 * 128), 1.0, 0.01);
    small = paired_peak_size(2.0 * 16 * 16 * 16, false, 64);
    EXPECT_EQ(small.M * small.N, 64 * 8 * 64);
    EXPECT_EQ(small.K, 1024);
    // A GPU: 512x512 work-items, K a multiple of 64 (4 chains) from 1024.
    const ProblemSize gpu = paired_peak_size(2.0 * 8192 * 8192 * 8192, true, 132);
    EXPECT_EQ(gpu.M, 512);
    EXPECT_EQ(gpu.N, 512);
    EXPECT_EQ(gpu.K % 64, 0);
    EXPECT_NEAR(flops_of(gpu) / (2.0 * 8192 * 8192 * 8192), 1.0, 0.01);
    EXPECT_EQ(paired_peak_size(1e3, true, 132).K, 1024);
}

// Fake timings, no device: pair i is the i-th launch of each; a ratio is the rung's GFLOP/s over
// the peak's in the same pair, by wall and by CPU time; an unverified rung has no ratio.
TEST(PairedShareOf, EachPairsOwnRatioByWallAndCpuTimeNoneUnverified) {
    const ProblemSize peak_size{1024, 64, 16384};  // 2.147 GFLOP a launch
    const double peak_flops = 2.0 * 1024 * 64 * 16384, rung_flops = 2.0 * 1024 * 1024 * 1024;
    Measurement peak, rung;
    peak.times_s = {0.010, 0.020, 0.010};     // the second pair met a load: both took twice as long
    rung.times_s = {0.011, 0.022, 0.0125};
    peak.cpu_times_s = {0.02, 0.02, 0.0};     // the third peak took no CPU time we saw: no CPU ratio
    rung.cpu_times_s = {0.022, 0.024, 0.025};
    rung.checked = true;
    rung.verification.verified = true;
    PairedShare ps = paired_share_of(peak, rung, peak_size, rung_flops);
    ASSERT_EQ(ps.ratios.size(), 3u);
    const double f = rung_flops / peak_flops;
    EXPECT_NEAR(ps.ratios[0], f * 0.010 / 0.011, 1e-12);
    EXPECT_NEAR(ps.ratios[1], f * 0.020 / 0.022, 1e-12);  // the load weighed on both: the same ratio
    EXPECT_NEAR(ps.ratios[2], f * 0.010 / 0.0125, 1e-12);
    EXPECT_NEAR(ps.share.median, f * 0.010 / 0.011, 1e-12);
    EXPECT_NEAR(ps.peak_gflops[1], peak_flops / 0.020 * 1e-9, 1e-9);
    EXPECT_NEAR(ps.rung_gflops[2], rung_flops / 0.0125 * 1e-9, 1e-9);
    ASSERT_EQ(ps.cpu_ratios.size(), 2u);
    EXPECT_NEAR(ps.cpu_ratios[0], f * 0.02 / 0.022, 1e-12);
    EXPECT_NEAR(ps.cpu_ratios[1], f * 0.02 / 0.024, 1e-12);
    EXPECT_DOUBLE_EQ(ps.peak_flops, peak_flops);
    rung.verification.verified = false;
    ps = paired_share_of(peak, rung, peak_size, rung_flops);
    EXPECT_TRUE(ps.ratios.empty());
    EXPECT_TRUE(ps.cpu_ratios.empty());
    EXPECT_EQ(ps.share.count, 0);
}

// Why every size's pairs share the rounds (cpu8). Fake timings of two sizes that run at the same
// share, 30 pairs, with a load the peak kernel does not feel (others' memory traffic: the peak
// touches no memory) slowing the rung by a fifth in a third of the sitting. Timed one size after
// the other, the load falls on the later size's pairs alone and opens a gap between the two; in
// the same rounds it falls on both alike and the two medians stay level.
TEST(PairedShareOf, ALoadThePeakDoesNotFeelFallsOnEverySizeWhenTheyShareTheRounds) {
    const ProblemSize peak_size{1024, 64, 16384};
    const double flops = 2.0 * 1024 * 64 * 16384;  // both sizes' rungs do the peak's FLOPs here
    const int pairs = 30, slots = 2 * pairs;          // one slot a pair, the sitting in time order
    const auto slowed = [&](int slot) { return slot >= slots / 2 && slot < slots / 2 + slots / 3; };
    const auto share_of = [&](const std::vector<int>& slots_of_size) {
        Measurement peak, rung;
        for (const int slot : slots_of_size) {
            peak.times_s.push_back(0.010);
            rung.times_s.push_back(slowed(slot) ? 0.012 * 1.2 : 0.012);  // the rung alone is slowed
        }
        return paired_share_of(peak, rung, peak_size, flops).share.median;
    };
    std::vector<int> seq_a, seq_b, turn_a, turn_b;
    for (int i = 0; i < pairs; ++i) {
        seq_a.push_back(i);              // one size after the other: a's 30 pairs, then b's
        seq_b.push_back(pairs + i);
        turn_a.push_back(2 * i);         // the same rounds: a, b, a, b, ...
        turn_b.push_back(2 * i + 1);
    }
    const double level = 0.010 / 0.012;
    EXPECT_NEAR(share_of(seq_a), level, 1e-12);
    EXPECT_LT(share_of(seq_b), level * 0.9);                      // the load lands on b alone: a gap
    EXPECT_NEAR(share_of(turn_a), share_of(turn_b), 1e-12);       // on both alike: none
    EXPECT_GT(share_of(seq_a) - share_of(seq_b), 10 * std::abs(share_of(turn_a) - share_of(turn_b)) + 0.05);
}

// Rounds of several launches: each config gets one time a round and is verified as measure()
// verifies it, including a rung that runs on padded copies (cpu_panel at 37x29x45).
TEST(MeasureInterleaved, EachConfigIsTimedOnceARoundAndVerified) {
    const DeviceInfo& pocl = select_device("pocl");
    Runner runner(pocl);
    const std::vector<LaunchConfig> configs = {
        LaunchConfig{*find_rung("tiled"), parse_size("37x29x45"), 8},
        LaunchConfig{*find_rung("cpu_panel"), parse_size("37x29x45"), find_rung("cpu_panel")->default_tile},
        LaunchConfig{*find_rung("naive"), parse_size("33"), find_rung("naive")->default_tile}};
    RunOptions ro;
    ro.reps = 5;
    ro.warmup = 1;
    int rounds = 0;
    ro.progress = [&](const std::string& line) { rounds += line.rfind("round ", 0) == 0; };
    const std::vector<Measurement> m = runner.measure_interleaved(configs, ro);
    ASSERT_EQ(m.size(), 3u);
    EXPECT_EQ(rounds, 5);
    for (size_t i = 0; i < m.size(); ++i) {
        EXPECT_EQ(m[i].kernel, configs[i].kernel.name);
        EXPECT_EQ(m[i].size, configs[i].size);
        EXPECT_EQ(m[i].times_s.size(), 5u);
        ASSERT_EQ(m[i].cpu_times_s.size(), 5u);  // PoCL's workers run in this process: CPU time per launch
        for (const double c : m[i].cpu_times_s) EXPECT_GE(c, 0);
        EXPECT_TRUE(m[i].checked);
        EXPECT_TRUE(m[i].verification.verified) << m[i].kernel << ": " << m[i].verification.summary();
        EXPECT_GT(m[i].gflops, 0);
    }
    EXPECT_NE(m[1].ran_at, m[1].size);  // cpu_panel ran padded, C verified at the user's size
    ro.reps = 0;
    EXPECT_THROW(runner.measure_interleaved(configs, ro), InputError);
}

// measure_paired_shares: two sizes in the same rounds (as many rounds as pairs, not twice as
// many), one verified share per size, each with a ratio a pair, on PoCL at tiny sizes.
TEST(MeasurePairedShares, EverySizeGetsAPairInEachRound) {
    const DeviceInfo& pocl = select_device("pocl");
    Runner runner(pocl);
    const KernelSpec& panel = *find_rung("cpu_panel");
    const std::vector<LaunchConfig> rungs = {LaunchConfig{panel, parse_size("64"), panel.default_tile},
                                             LaunchConfig{panel, parse_size("45x37x29"), panel.default_tile}};
    RunOptions ro;
    int rounds = 0;
    ro.progress = [&](const std::string& line) { rounds += line.rfind("round ", 0) == 0; };
    const std::vector<PairedShare> s = measure_paired_shares(runner, rungs, 4, 1, ro);
    EXPECT_EQ(rounds, 4);
    ASSERT_EQ(s.size(), 2u);
    for (size_t i = 0; i < s.size(); ++i) {
        EXPECT_EQ(s[i].rung.size, rungs[i].size);
        EXPECT_EQ(s[i].peak.kernel, "ceiling_flops");
        EXPECT_TRUE(s[i].rung.verification.verified) << s[i].rung.verification.summary();
        EXPECT_EQ(s[i].ratios.size(), 4u);
        EXPECT_EQ(s[i].share.count, 4);
        EXPECT_GT(s[i].share.median, 0);
        // Each size its own peak launch, sized to that size's FLOPs.
        EXPECT_EQ(s[i].peak_size, paired_peak_size(resolve(rungs[i]).flops, pocl.is_gpu, pocl.compute_units));
    }
    EXPECT_THROW(measure_paired_shares(runner, rungs, 0, 1, ro), InputError);
}

// The subcommand at tiny sizes: one block per size with the median share inside its spread,
// the host CPU and the load; --json has every pair.
TEST(CeilingsAgainst, PrintsThePairedShareAndWritesEveryPair) {
    const fs::path dir = test_support::fresh_temp_dir("peak-share", "against");
    ASSERT_EQ(run("ceilings --device pocl --against cpu_panel --size 64,45x37x29 --pairs 3 --warmup 1 --json " +
                      (dir / "p.json").string(), dir), 0) << slurp(dir / "err");
    const std::string out = slurp(dir / "out");
    EXPECT_NE(out.find("host cpu: "), std::string::npos) << out;
    EXPECT_NE(out.find("load average before (1, 5, 15 min): "), std::string::npos) << out;
    EXPECT_NE(out.find("load average after (1, 5, 15 min): "), std::string::npos) << out;
    EXPECT_NE(out.find("cpu_panel TS="), std::string::npos) << out;
    EXPECT_NE(out.find("[padded to 45x48x29, copies timed]"), std::string::npos) << out;
    EXPECT_NE(out.find("sizes timed in turn: each of the 3 rounds launches every size's pair"), std::string::npos) << out;
    size_t n = 0;
    for (size_t at = 0; (at = out.find("share of the peak, median of the pairs: ", at)) != std::string::npos; ++at) ++n;
    EXPECT_EQ(n, 2u) << out;

    const nlohmann::json j = nlohmann::json::parse(slurp(dir / "p.json"));
    EXPECT_EQ(j["against"], "cpu_panel");
    EXPECT_FALSE(j["host_cpu"].get<std::string>().empty());
    EXPECT_EQ(j["load_before"].size(), 3u);
    EXPECT_EQ(j["sizes_in_turn"], true);
    ASSERT_EQ(j["results"].size(), 2u);
    for (const auto& r : j["results"]) {
        EXPECT_TRUE(r["verified"].get<bool>());
        EXPECT_EQ(r["pairs"], 3);
        EXPECT_EQ(r["ratios"].size(), 3u);
        EXPECT_EQ(r["peak_gflops"].size(), 3u);
        EXPECT_EQ(r["rung_gflops"].size(), 3u);
        EXPECT_LE(r["share_min"].get<double>(), r["share_q1"].get<double>());
        EXPECT_LE(r["share_q1"].get<double>(), r["share_median"].get<double>());
        EXPECT_LE(r["share_median"].get<double>(), r["share_q3"].get<double>());
        EXPECT_LE(r["share_q3"].get<double>(), r["share_max"].get<double>());
        EXPECT_GT(r["share_min"].get<double>(), 0);
        // The same pairs by CPU time (PoCL's threads are ours): one ratio a pair where both took some.
        EXPECT_LE(r["cpu_ratios"].size(), 3u);
        EXPECT_LE(r["cpu_share_q1"].get<double>(), r["cpu_share_median"].get<double>());
        EXPECT_LE(r["cpu_share_median"].get<double>(), r["cpu_share_q3"].get<double>());
        EXPECT_EQ(r["peak_below_rung"].get<bool>(), r["share_median"].get<double>() > 1);
        // Each ratio is the pair's own: the rung's GFLOP/s over the peak's in the same pair.
        for (size_t i = 0; i < 3; ++i)
            EXPECT_NEAR(r["ratios"][i].get<double>(),
                        r["rung_gflops"][i].get<double>() / r["peak_gflops"][i].get<double>(), 1e-9);
        EXPECT_DOUBLE_EQ(r["peak_flops"].get<double>(), 2.0 * r["peak_work_items"].get<double>() * r["peak_K"].get<double>());
    }
    EXPECT_EQ(j["results"][1]["padded_to"], "45x48x29");

    // A point as given, not the device's tuning.
    ASSERT_EQ(run("ceilings --device pocl --against cpu_panel --size 64 --pairs 2 --tile 16 --param WPTM=4 --json " +
                      (dir / "given.json").string(), dir), 0) << slurp(dir / "err");
    EXPECT_NE(slurp(dir / "out").find("cpu_panel TS=16 "), std::string::npos) << slurp(dir / "out");
    const nlohmann::json g = nlohmann::json::parse(slurp(dir / "given.json"))["results"][0];
    EXPECT_EQ(g["tile"], 16);
    EXPECT_EQ(g["params"]["WPTM"], 4);
    EXPECT_EQ(g["params_source"], "given");
    EXPECT_EQ(nlohmann::json::parse(slurp(dir / "given.json"))["sizes_in_turn"], false);  // one size: nothing to share
    fs::remove_all(dir);
}

// Bad input: one line naming what was wrong and what is accepted, exit 2, nothing written.
TEST(CeilingsAgainst, RefusesBadInputInOneLineAndWritesNothing) {
    const fs::path dir = test_support::fresh_temp_dir("peak-share", "refusals");
    const std::string json = " --json " + (dir / "p.json").string();
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"--against no_such_rung", "--against no_such_rung: unknown rung; accepted: one of naive"},
        {"--against cpu_panel --pairs 0", "--pairs '0': accepted: an integer from 1 to 10000"},
        {"--against cpu_panel --pairs 10001", "--pairs 10001: accepted: an integer from 1 to 10000"},
        {"--against cpu_panel --warmup 101", "--warmup 101: accepted: an integer from 0 to 100"},
        {"--against cpu_panel --reps 3", "--reps: --against times pairs; accepted with it:"},
        {"--against cpu_panel --size 0", "--size"},
        {"--pairs 3", "--pairs: belongs to --against K"},
        {"--against cpu_panel --param NO_SUCH=1", "NO_SUCH"},
        {"--against cpu_panel --device emulator", "--device emulator: the emulator has no speed to measure"},
    };
    for (const auto& [args, want] : cases) {
        const std::string device = args.find("--device") == std::string::npos ? " --device pocl" : "";
        EXPECT_EQ(run("ceilings " + args + device + json, dir), 2) << args;
        const std::string err = slurp(dir / "err");
        EXPECT_NE(err.find(want), std::string::npos) << args << ": " << err;
        EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << args << ": " << err;
        EXPECT_FALSE(fs::exists(dir / "p.json")) << args;
    }
    fs::remove_all(dir);
}
