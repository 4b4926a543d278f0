// --kernel fastest (issue 30 item 3): the rung, tile and parameters a tuning file's measured
// "fastest" table names for the nearest shape; the fallback chain (this device, a similar
// device, the type defaults); bench's records and its one line of why, on PoCL; the GUI's
// Measure asking for it (the performance plan); a peak measured below a rung, flagged.
#include <gtest/gtest.h>

#include <regex>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <sstream>

#include "core/device/opencl_env.h"
#include "core/device/runner.h"
#include "core/kernel/catalog.h"
#include "core/tasks/performance.h"
#include "test_support.h"
#include "core/tuning/tuning.h"

namespace fs = std::filesystem;
using namespace tilescope;

namespace {

fs::path temp_dir(const std::string& name) { return test_support::fresh_temp_dir("fastest", name); }

using test_support::ScopedEnv;

// A test's own tuning folder and data home: TILESCOPE_TUNING_DIR is the folder itself
// (`dir`) or, with `subfolder`, a fresh `dir/tuning`; XDG_DATA_HOME is `dir/xdg`.
struct TuningSandbox {
    fs::path dir, tuning;
    ScopedEnv tuning_env, xdg_env;
    TuningSandbox(const std::string& name, bool subfolder)
        : dir(temp_dir(name)), tuning(subfolder ? dir / "tuning" : dir), tuning_env("TILESCOPE_TUNING_DIR", tuning.string()),
          xdg_env("XDG_DATA_HOME", (dir / "xdg").string()) {
        fs::create_directories(tuning);
    }
};

void write(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

using test_support::slurp;

DeviceInfo fake_gpu(const std::string& platform, const std::string& name) {
    DeviceInfo d;
    d.platform = platform;
    d.name = name;
    d.type = "GPU";
    d.is_gpu = true;
    d.compute_units = 132;
    return d;
}

const nlohmann::json kWarpLarge = {{"PAD", 4}, {"TM", 4}, {"TN", 4}, {"TSK", 16}, {"WM", 64}, {"WN", 64}, {"WNITER", 4}};
const nlohmann::json kSplitk128 = {{"PAD", 4}, {"SLICES", 128}, {"TM", 4}, {"TN", 4}, {"TSK", 8}, {"WM", 32}, {"WN", 64}, {"WNITER", 2}};

// Sizes drawn each run from a seed the test prints: odd and no multiple of 3, so no tile divides them.
struct OddDraw {
    unsigned seed = std::random_device{}();
    std::mt19937 rng{seed};
    int operator()(int lo, int hi) {
        int v;
        do v = std::uniform_int_distribution<int>(lo, hi)(rng);
        while (v % 2 == 0 || v % 3 == 0);
        return v;
    }
};

nlohmann::json entry(const std::string& size, const std::string& kernel, int tile, const nlohmann::json& params, double gflops) {
    return {{"size", size}, {"kernel", kernel}, {"tile", tile}, {"params", params}, {"gflops", gflops}};
}

int run(const std::string& args, const fs::path& dir) {
    const std::string cmd = std::string(TILESCOPE_BIN) + " " + args + " >" + (dir / "out").string() + " 2>" + (dir / "err").string();
    const int raw = std::system(cmd.c_str());
    return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

}  // namespace

// A hand-written table: the nearest measured shape (in log M, log N, log K) names the rung and
// its point, and the reason says which shape, the figure there and how many groups C makes.
TEST(FastestPick, TheNearestMeasuredShapeNamesTheRungAndItsPoint) {
    const TuningSandbox sandbox("pick", false);
    const fs::path& dir = sandbox.dir;
    const DeviceInfo gpu = fake_gpu("Some GPU platform", "Test GPU with 132 units");
    nlohmann::json doc = {{"device", gpu.label()}, {"kernels", nlohmann::json::object()}};
    doc["fastest"] = {entry("4096", "warp_tile", 128, kWarpLarge, 49000), entry("128x128x65536", "splitk", 64, kSplitk128, 24000),
                      entry("300", "no_such_rung", 16, nlohmann::json::object(), 9e5),  // not in the catalog: never picked
                      entry("96x6000x9000", "warp_tile", 128, {{"NO_SUCH_PARAM", 1}}, 9e5)};  // does not resolve: never picked
    write(dir / (device_slug(gpu) + ".json"), doc.dump());

    auto p = pick_fastest(gpu, parse_size("5001"));
    ASSERT_TRUE(p);
    EXPECT_EQ(p->choice.kernel, "warp_tile");
    EXPECT_EQ(p->choice.tile, 128);
    EXPECT_EQ(p->choice.params.at("TSK"), 16);
    EXPECT_EQ(p->match, TuningMatch::exact);
    EXPECT_EQ(p->note, "tuned here");

    p = pick_fastest(gpu, parse_size("100x140x50001"));
    ASSERT_TRUE(p);
    EXPECT_EQ(p->choice.kernel, "splitk");
    EXPECT_EQ(p->choice.params.at("SLICES"), 128);
    EXPECT_EQ(p->choice.size, "128x128x65536");
    // One line: the rung, the shape it was measured at and its figure, and C's groups on the units.
    EXPECT_EQ(p->reason.find('\n'), std::string::npos);
    EXPECT_EQ(p->reason.rfind("splitk: fastest measured at 128x128x65536", 0), 0u) << p->reason;
    EXPECT_NE(p->reason.find("24000 GFLOP/s"), std::string::npos) << p->reason;
    const size_t groups = resolve(LaunchConfig{*find_rung("splitk"), parse_size("100x140x50001"), 64,
                                               p->choice.params, "tuned"}).total_groups();
    EXPECT_NE(p->reason.find("C is 100x140: " + std::to_string(groups) + " work-groups for 132 compute units"), std::string::npos)
        << p->reason;
    // 96x6000x9000's own entry does not resolve: the nearest one that does is taken.
    p = pick_fastest(gpu, parse_size("96x6000x9000"));
    ASSERT_TRUE(p);
    EXPECT_NE(p->choice.params.count("TSK"), 0u);
    fs::remove_all(dir);
}

// A row naming a point this device refuses (a work-group larger than it allows: NMUL makes the
// tile 64 x 64,000,000 here) is left out like a row that does not resolve, in the device's table
// and in the rows remembered from a trial: the pick, and the line that explains it, name the
// point that runs.
TEST(FastestPick, ARowTheDeviceRefusesIsLeftOut) {
    const TuningSandbox sandbox("refused", false);
    const fs::path& dir = sandbox.dir;
    DeviceInfo gpu = fake_gpu("Some GPU platform", "Test GPU with 132 units");
    gpu.max_work_group = 1024;
    gpu.max_work_item_sizes = {1024, 1024, 64};
    gpu.local_mem = 48 * 1024;
    nlohmann::json huge = kSplitk128;
    huge["NMUL"] = 1000000;
    huge["NDIV"] = 1;
    huge["SLICES"] = 2;
    const LaunchConfig refused{*find_rung("splitk"), parse_size("500"), 64, {}, "tuned"};
    LaunchConfig c = refused;
    for (const auto& [k, v] : huge.items()) c.params[k] = v.get<int64_t>();
    EXPECT_THROW(check_group_limits("splitk", resolve(c), gpu), InputError);  // it resolves, the device refuses it

    nlohmann::json doc = {{"device", gpu.label()}, {"kernels", nlohmann::json::object()}};
    doc["fastest"] = {entry("500", "splitk", 64, huge, 9e5), entry("700", "warp_tile", 128, kWarpLarge, 30000)};
    write(dir / (device_slug(gpu) + ".json"), doc.dump());
    auto p = pick_fastest(gpu, parse_size("500"));
    ASSERT_TRUE(p);
    EXPECT_EQ(p->choice.kernel, "warp_tile") << p->reason;
    EXPECT_EQ(p->choice.size, "700");
    EXPECT_GT(p->distance, 0);
    EXPECT_EQ(p->reason.find("slices"), std::string::npos) << p->reason;
    EXPECT_EQ(fastest_candidates(gpu, parse_size("500"), 3).size(), 1u);  // the refused row is no candidate either

    // The same row remembered from a trial at this shape is not taken as "timed here".
    const fs::path user = dir / "xdg" / "tilescope" / "tuning";
    fs::create_directories(user);
    nlohmann::json timed = {{"device", gpu.label()}, {"fastest", {entry("500", "splitk", 64, huge, 9e5)}}};
    write(user / timed_picks_file(gpu), timed.dump());
    p = pick_fastest(gpu, parse_size("500"));
    ASSERT_TRUE(p);
    EXPECT_FALSE(p->remembered);
    EXPECT_EQ(p->choice.kernel, "warp_tile") << p->reason;
    // Without the limits (a device that reports none) the row is taken: the test above is the limit's doing.
    gpu.max_work_group = 0;
    gpu.max_work_item_sizes.clear();
    gpu.local_mem = 0;
    p = pick_fastest(gpu, parse_size("500"));
    ASSERT_TRUE(p);
    EXPECT_TRUE(p->remembered);
    EXPECT_EQ(p->choice.kernel, "splitk");
    fs::remove_all(dir);
}

// A device's own table may be thinner than a similar device's: its own entry is taken where it is
// at least as near the shape asked for, the similar device's (here the embedded H200 file) where
// that one is strictly nearer; the note says which.
TEST(FastestPick, ASimilarDevicesNearerEntryBeatsAThinOwnTable) {
    const TuningSandbox sandbox("thin", false);
    const DeviceInfo gpu = fake_gpu("NVIDIA CUDA", "NVIDIA H100 test GPU");
    ASSERT_EQ(device_family(gpu.label()), device_family("NVIDIA CUDA / NVIDIA H200"));
    write(sandbox.dir / (device_slug(gpu) + ".json"),
          nlohmann::json{{"device", gpu.label()},
                         {"fastest", {entry("128x128x65536", "warp_tile", 64, nlohmann::json::object(), 5)}}}.dump());
    // Measured here at this very shape: its own entry.
    auto p = pick_fastest(gpu, parse_size("128x128x65536"));
    ASSERT_TRUE(p);
    EXPECT_EQ(p->match, TuningMatch::exact);
    EXPECT_EQ(p->note.rfind("tuned here", 0), 0u) << p->note;
    EXPECT_EQ(p->choice.kernel, "warp_tile");
    // As near as the H200's own 128x128x65536 row (the same shape in both): its own still.
    p = pick_fastest(gpu, parse_size("130x128x65536"));
    ASSERT_TRUE(p);
    EXPECT_EQ(p->match, TuningMatch::exact);
    EXPECT_EQ(p->choice.kernel, "warp_tile");
    // The H200 measured 64x64x131072 itself; the own table's only row is far from it.
    p = pick_fastest(gpu, parse_size("64x64x131072"));
    ASSERT_TRUE(p);
    EXPECT_EQ(p->match, TuningMatch::similar);
    EXPECT_EQ(p->note.rfind("tuned for a similar device: NVIDIA CUDA / NVIDIA H200", 0), 0u) << p->note;
    EXPECT_EQ(p->choice.size, "64x64x131072");
    EXPECT_EQ(p->choice.kernel, "splitk");
    fs::remove_all(sandbox.dir);
}

// Entries come from anywhere: the unreadable ones (a figure past kMaxClaimedGflops or below 0 too)
// are left out, the rest kept in order.
TEST(FastestPick, UnreadableEntriesAreLeftOut) {
    nlohmann::json doc = {{"fastest", {entry("64", "tiled", 16, nlohmann::json::object(), 1),
                                       {{"size", "64"}},                                                 // no kernel
                                       entry("sixty", "tiled", 16, nlohmann::json::object(), 1),         // no size
                                       {{"size", "64"}, {"kernel", "tiled"}, {"tile", "big"}},           // tile not a number
                                       entry("65", "tiled", 16, nlohmann::json::object(), 1e9),          // past kMaxClaimedGflops
                                       entry("66", "tiled", 16, nlohmann::json::object(), -5),           // below 0
                                       entry("67", "tiled", 16, nlohmann::json::object(), kMaxClaimedGflops),  // at the bound: kept
                                       entry("8x9x10", "naive", 8, nlohmann::json::object(), 2)}}};
    const auto entries = fastest_entries_in(doc.dump());
    ASSERT_EQ(entries.size(), 3u);
    EXPECT_EQ(entries[0].kernel, "tiled");
    EXPECT_EQ(entries[1].size, "67");
    EXPECT_EQ(entries[2].size, "8x9x10");
    EXPECT_FALSE(plausible_gflops(1e9));
    EXPECT_FALSE(plausible_gflops(std::nan("")));
    EXPECT_TRUE(fastest_entries_in("{\"fastest\": 3}").empty());
    EXPECT_TRUE(fastest_entries_in("not json").empty());
}

// No table for the device: a similar device's (the embedded H200 file for an H100 PCIe), else its
// type's (the embedded defaults), as the tuning lookup falls back; nothing for a device of
// neither type.
TEST(FastestPick, WithNoDataForTheDeviceItFallsBackAsTheTuningLookupDoes) {
    const TuningSandbox sandbox("fallback", false);
    const fs::path& dir = sandbox.dir;
    auto p = pick_fastest(fake_gpu("NVIDIA CUDA", "NVIDIA H100 PCIe"), parse_size("128x128x65536"));
    ASSERT_TRUE(p);
    EXPECT_EQ(p->match, TuningMatch::similar);
    EXPECT_EQ(p->note, "tuned for a similar device: NVIDIA CUDA / NVIDIA H200");
    EXPECT_EQ(p->choice.kernel, "splitk");  // measured: 128 slices, 24,474 GFLOP/s
    EXPECT_EQ(p->choice.params.at("SLICES"), 128);

    p = pick_fastest(fake_gpu("Some GPU platform", "Nobody's GPU"), parse_size("7000"));
    ASSERT_TRUE(p);
    EXPECT_EQ(p->match, TuningMatch::type_defaults);
    EXPECT_EQ(p->note, "defaults for GPUs");
    EXPECT_EQ(p->choice.kernel, "warp_tile");

    DeviceInfo cpu;
    cpu.platform = "Portable Computing Language";
    cpu.name = "cpu-unknowntarget-Nobody's CPU";
    cpu.type = "CPU";
    cpu.is_cpu = true;
    p = pick_fastest(cpu, parse_size("1000"));
    ASSERT_TRUE(p);
    EXPECT_EQ(p->match, TuningMatch::type_defaults);
    EXPECT_EQ(p->note, "defaults for CPUs");

    // A hand-written type-defaults file in the user's folder comes before the embedded one.
    write(dir / "defaults-cpu.json", nlohmann::json{{"fastest", {entry("64", "tiled", 8, nlohmann::json::object(), 3)}}}.dump());
    p = pick_fastest(cpu, parse_size("1000"));
    ASSERT_TRUE(p);
    EXPECT_EQ(p->choice.kernel, "tiled");
    EXPECT_EQ(p->choice.tile, 8);

    DeviceInfo other;
    other.platform = "Some platform";
    other.name = "An accelerator";
    other.type = "ACCELERATOR";
    EXPECT_FALSE(pick_fastest(other, parse_size("64")));
    fs::remove_all(dir);
}

// Issue 30 item 2: a tiny C with a long K takes a splitk row whose reason says what the point
// does: how many K-slices, how deep each, that a second launch adds them in order, and, for an
// INPLACE row, that no padded copies are made. (The embedded H200 table's row at 245x252x71683,
// measured: 128 slices of TS 64 in place, 29,156 GFLOP/s.)
TEST(FastestPick, ASplitkPickSaysHowItSplitsK) {
    const TuningSandbox sandbox("slices", false);
    const auto p = pick_fastest(fake_gpu("NVIDIA CUDA", "NVIDIA H200"), parse_size("245x252x71683"));
    ASSERT_TRUE(p);
    ASSERT_EQ(p->choice.kernel, "splitk");
    const int64_t slices = p->choice.params.at("SLICES");
    EXPECT_GT(slices, 8);
    EXPECT_NE(p->reason.find("; K split into " + std::to_string(slices) + " slices of about " +
                             std::to_string((71683 + slices - 1) / slices) + " (a group per tile of C and slice), added in slice order by mm_slice_sum"),
              std::string::npos) << p->reason;
    EXPECT_EQ(p->choice.params.at("INPLACE"), 1);
    EXPECT_NE(p->reason.find("read in place (INPLACE=1: no padded copies)"), std::string::npos) << p->reason;
    // A point that does not split K says nothing of slices.
    const auto q = pick_fastest(fake_gpu("NVIDIA CUDA", "NVIDIA H200"), parse_size("10000"));
    ASSERT_TRUE(q);
    ASSERT_EQ(q->choice.kernel, "warp_tile");
    EXPECT_EQ(q->reason.find("slices"), std::string::npos) << q->reason;
    fs::remove_all(sandbox.dir);
}

// Issue 30 item 4: on a CPU nobody tuned, --kernel fastest runs the point the tuning lookup
// gives cpu_panel (the CPU fallback), not an older one. The embedded CPU table's rows had named
// TS=32 points measured before the fallback moved to TS=48 WGM=16 WGN=1, so `bench --kernel
// fastest` ran a point 8 to 17 points of the peak behind it (paired, by CPU time, at 1024 and
// 1234: docs/results/pocl_issue30_cpu6/fastest_rows/). The rows are measured data: a later
// measurement that finds another point fastest at a shape changes this test with them.
TEST(FastestPick, AnUntunedCpuGetsTheFallbackPointItsTuningLookupGives) {
    const TuningSandbox sandbox("cpu-fallback", false);
    DeviceInfo cpu;
    cpu.platform = "Portable Computing Language";
    cpu.name = "cpu-unknowntarget-Nobody's CPU";
    cpu.type = "CPU";
    cpu.is_cpu = true;
    cpu.compute_units = 2;
    for (const char* size : {"256", "1000", "1024", "1234", "2000"}) {
        const auto pick = pick_fastest(cpu, parse_size(size));
        const auto tuned = lookup_tuning(cpu, "cpu_panel", parse_size(size));
        ASSERT_TRUE(pick) << size;
        ASSERT_TRUE(tuned) << size;
        EXPECT_EQ(pick->match, TuningMatch::type_defaults) << size;
        EXPECT_EQ(pick->choice.kernel, "cpu_panel") << size;
        EXPECT_EQ(pick->choice.tile, tuned->choice.tile) << size;
        EXPECT_EQ(pick->choice.params, tuned->choice.params) << size;
    }
}

// bench --kernel fastest on PoCL with a table written for this device: the picked rungs run
// at sizes that are multiples of nothing, verify against the CPU reference, and the records
// keep the contract's keys and add "picked", "pick_reason" and (neither size being a row)
// "pick_trials"; the table says why.
TEST(BenchFastest, PicksFromThisDevicesTableAndVerifiesAtOddSizes) {
    const DeviceInfo& pocl = select_device("pocl");
    const TuningSandbox sandbox("bench", true);
    const fs::path& dir = sandbox.dir;
    nlohmann::json doc = {{"device", pocl.label()}, {"kernels", nlohmann::json::object()}};
    doc["fastest"] = {entry("48", "tiled", 8, nlohmann::json::object(), 5), entry("200x20x900", "naive", 16, nlohmann::json::object(), 2)};
    write(dir / "tuning" / (device_slug(pocl) + ".json"), doc.dump());

    OddDraw odd;
    const unsigned seed = odd.seed;
    const std::string square = std::to_string(odd(33, 71));
    const std::string skinny = std::to_string(odd(150, 250)) + "x" + std::to_string(odd(15, 29)) + "x" + std::to_string(odd(700, 999));
    SCOPED_TRACE("seed " + std::to_string(seed) + ": sizes " + square + ", " + skinny);
    std::printf("BenchFastest seed %u: sizes %s, %s\n", seed, square.c_str(), skinny.c_str());
    ASSERT_EQ(run("bench --device pocl --kernel fastest --size " + square + "," + skinny + " --reps 1 --warmup 0 --json " +
                      (dir / "b.json").string(), dir), 0) << slurp(dir / "err");
    const nlohmann::json records = nlohmann::json::parse(slurp(dir / "b.json"));
    ASSERT_EQ(records.size(), 2u);
    const std::string out = slurp(dir / "out");
    const char* want[2][2] = {{"tiled", "48"}, {"naive", "200x20x900"}};
    for (size_t i = 0; i < 2; ++i) {
        const auto& r = records[i];
        for (const char* key : {"kernel", "device", "M", "N", "K", "tile", "global", "local", "reps", "median_s", "min_s", "gflops",
                                "max_rel_error", "verified"})
            EXPECT_TRUE(r.contains(key)) << key;
        // Neither size is a row: both rows' points are timed there and the faster one runs.
        ASSERT_TRUE(r.contains("pick_trials")) << r.dump();
        const nlohmann::json& trials = r["pick_trials"];
        ASSERT_EQ(trials.size(), 2u) << trials.dump();
        const size_t w = trials[0]["gflops"].get<double>() >= trials[1]["gflops"].get<double>() ? 0 : 1;
        const size_t row = trials[w]["kernel"] == want[0][0] ? 0 : 1;
        EXPECT_EQ(r["kernel"], want[row][0]);
        EXPECT_EQ(r["tile"], row == 0 ? 8 : 16);
        EXPECT_EQ(r["verified"], true);
        EXPECT_EQ(r["params_source"], "tuned");
        EXPECT_EQ(r["picked"], "fastest");
        const std::string reason = r["pick_reason"];
        EXPECT_EQ(reason.rfind("fastest of 2 points timed here (", 0), 0u) << reason;
        EXPECT_NE(reason.find(". " + std::string(want[row][0]) + ": fastest measured at " + want[row][1] + ","), std::string::npos) << reason;
        EXPECT_NE(out.find("picked " + reason + "\n"), std::string::npos) << out;
    }
    fs::remove_all(dir);
}

// No table anywhere for this device but the embedded ones: the type defaults pick, said so;
// and --kernel fastest with a choice of its own to make is refused in one line, exit 2.
TEST(BenchFastest, FallsBackToTheEmbeddedDataAndRefusesWhatItWouldOverride) {
    const TuningSandbox sandbox("bench-fallback", true);
    const fs::path& dir = sandbox.dir;
    ASSERT_EQ(run("bench --device pocl --kernel fastest --size 61x67x53 --reps 1 --warmup 0 --json " + (dir / "b.json").string(), dir), 0)
        << slurp(dir / "err");
    const nlohmann::json records = nlohmann::json::parse(slurp(dir / "b.json"));
    ASSERT_EQ(records.size(), 1u);
    EXPECT_EQ(records[0]["verified"], true);
    EXPECT_EQ(records[0]["picked"], "fastest");
    const std::string source = records[0]["params_source"];
    EXPECT_TRUE(source == "tuned" || source == "similar" || source == "type-defaults") << source;
    EXPECT_NE(records[0]["pick_reason"].get<std::string>().find(records[0]["kernel"].get<std::string>() + ": fastest measured at "),
              std::string::npos);

    for (const char* extra : {"--tile 16", "--param TSK=8", "--explain"}) {
        EXPECT_EQ(run(std::string("bench --device pocl --kernel fastest --size 64 ") + extra, dir), 2) << extra;
        const std::string err = slurp(dir / "err");
        EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
        EXPECT_NE(err.find("--kernel fastest picks"), std::string::npos) << err;
    }
    fs::remove_all(dir);
}

// A tuning file of `gpu` whose warp_tile is tuned in two buckets: TS 128 at 4096 (49 TFLOP/s), the
// small bucket's TS 64 at 1024 (33 TFLOP/s); no "fastest" table yet.
static nlohmann::json warp_tile_tuned_in_two_buckets(const DeviceInfo& gpu) {
    const std::map<std::string, int64_t> large = {{"PAD", 4}, {"TM", 4}, {"TN", 4}, {"TSK", 16}, {"WM", 64}, {"WN", 64}, {"WNITER", 4}};
    const std::map<std::string, int64_t> small = {{"PAD", 4}, {"TM", 8}, {"TN", 4}, {"TSK", 8}, {"WM", 32}, {"WN", 64}, {"WNITER", 2}};
    std::string text = merge_tuning("", gpu.label(), "warp_tile", parse_size("4096"), {TuneResult{128, large, "ok", 49000, 0.01, "", "", ""}}, "");
    text = merge_tuning(text, gpu.label(), "warp_tile", parse_size("1024"), {TuneResult{64, small, "ok", 33000, 0.01, "", "", ""}}, "");
    return nlohmann::json::parse(text);
}

// A picked point measured at another shape whose groups fall unevenly here (3000^3 at TS 128: 576
// groups on 132 units, 87 %) gives way to the rung's tuned point that falls more evenly (the small
// bucket's TS 64, as lookup_tuning chooses); where it falls evenly (4096^3) the table's point stays.
TEST(FastestPick, AnUnevenlyFallingPointGivesWayToTheTunedOne) {
    const TuningSandbox sandbox("balance", false);
    const fs::path& dir = sandbox.dir;
    const DeviceInfo gpu = fake_gpu("Some GPU platform", "Test GPU with 132 units");
    nlohmann::json doc = warp_tile_tuned_in_two_buckets(gpu);
    doc["fastest"] = {entry("2048", "warp_tile", 128, kWarpLarge, 46000)};
    write(dir / (device_slug(gpu) + ".json"), doc.dump());
    auto p = pick_fastest(gpu, parse_size("3000"));
    ASSERT_TRUE(p);
    EXPECT_EQ(p->choice.tile, 64);
    EXPECT_EQ(p->choice.params.at("TSK"), 8);
    EXPECT_NE(p->reason.find("its TS=128 fills 132 units 87% evenly here"), std::string::npos) << p->reason;
    p = pick_fastest(gpu, parse_size("4096"));
    ASSERT_TRUE(p);
    EXPECT_EQ(p->choice.tile, 128);
    EXPECT_EQ(p->reason.find("evenly here"), std::string::npos) << p->reason;
    fs::remove_all(dir);
}

// The trial's candidates (fastest_candidates): a row read from two folders counts once even when
// the pick swaps its tile and parameters (its groups fall unevenly here), and a shape with two
// rows counts once towards the 3 nearest shapes, each of its points tried. Before, the swapped
// row's second copy took the place of a farther row (the H100 at 1509x2162x5719: only the
// swapped warp_tile point, no trial; docs/benchmarks.md, speed8).
TEST(FastestPick, TheTrialsCandidatesCountARowAndAShapeOnce) {
    const TuningSandbox sandbox("candidates", true);
    const DeviceInfo gpu = fake_gpu("Some GPU platform", "Test GPU with 132 units");
    nlohmann::json doc = warp_tile_tuned_in_two_buckets(gpu);
    nlohmann::json s4 = kSplitk128, s2 = kSplitk128, s8 = kSplitk128;
    s4["SLICES"] = 4;
    s2["SLICES"] = 2;
    s8["SLICES"] = 8;
    // At 3000, TS 128 makes 576 groups, 4.36 per unit (87%): the 2900 row's point gives way to TS 64.
    doc["fastest"] = {entry("2900", "warp_tile", 128, kWarpLarge, 46000), entry("2500", "splitk", 64, s4, 40000),
                      entry("2500", "splitk", 64, s2, 39000), entry("2400", "splitk", 64, s8, 38000),
                      entry("2000", "splitk", 64, kSplitk128, 30000)};
    write(sandbox.tuning / (device_slug(gpu) + ".json"), doc.dump());
    fs::create_directories(sandbox.dir / "xdg" / "tilescope" / "tuning");
    write(sandbox.dir / "xdg" / "tilescope" / "tuning" / (device_slug(gpu) + ".json"), doc.dump());  // a second copy
    const std::vector<FastestPick> c = fastest_candidates(gpu, parse_size("3000"), 3);
    ASSERT_EQ(c.size(), 4u);
    EXPECT_EQ(c[0].choice.size, "2900");
    EXPECT_EQ(c[0].choice.tile, 64);  // swapped
    EXPECT_EQ(c[1].choice.size, "2500");
    EXPECT_EQ(c[1].choice.params.at("SLICES"), 4);
    EXPECT_EQ(c[2].choice.size, "2500");
    EXPECT_EQ(c[2].choice.params.at("SLICES"), 2);
    EXPECT_EQ(c[3].choice.size, "2400");  // the third shape; 2000 is the fourth
    fs::remove_all(sandbox.dir);
}

// What the GUI's Measure calls (issue 30 item 3 in the GUI): the performance plan, asked for
// "fastest", measures the rung this device's table picks at the plan's size with the picked
// tile, verified, and carries the same one line of why that bench --kernel fastest prints;
// not asked, it measures nothing more.
TEST(PerformancePlanFastest, MeasuresThePickedRungAndSaysWhy) {
    const DeviceInfo& pocl = select_device("pocl");
    const TuningSandbox sandbox("plan", true);
    const fs::path& dir = sandbox.dir;
    nlohmann::json doc = {{"device", pocl.label()}, {"kernels", nlohmann::json::object()}};
    doc["fastest"] = {entry("40", "tiled", 8, nlohmann::json::object(), 5), entry("2000", "naive", 16, nlohmann::json::object(), 2)};
    write(dir / "tuning" / (device_slug(pocl) + ".json"), doc.dump());

    // 40 is a row: its point runs as the table names it, nothing timed first.
    tasks::PerformancePlan plan = tasks::performance_plan("pocl", 40);
    EXPECT_TRUE(plan.fastest) << "the GUI's Measure asks for the pick unless told not to";
    std::vector<tasks::PlanPoint> kept;  // one bar only, no ceilings, no traces: quick
    for (const tasks::PlanPoint& p : plan.points)
        if (p.part == tasks::PlanPart::rungs && p.config.kernel.name == "naive") kept.push_back(p);
    plan.points = kept;
    plan.ceilings = false;
    plan.intensity.clear();
    plan.reps = 1;
    tasks::PerformanceResult r = tasks::run_performance_plan(plan, tasks::TaskProgress{});
    const std::optional<FastestPick> want = pick_fastest(pocl, parse_size("40"));
    ASSERT_TRUE(want);
    ASSERT_TRUE(r.fastest);
    EXPECT_EQ(r.fastest->pick.choice.kernel, "tiled");
    EXPECT_EQ(r.fastest->pick.reason, want->reason);
    ASSERT_TRUE(r.fastest->measured) << r.fastest->refused;
    EXPECT_EQ(r.fastest->measured->kernel, "tiled");
    EXPECT_EQ(r.fastest->measured->tile, 8);
    EXPECT_EQ(r.fastest->measured->size.M, 40);
    EXPECT_TRUE(r.fastest->measured->verification.verified);
    EXPECT_GT(r.fastest->measured->gflops, 0);
    const std::string line = tasks::fastest_line(*r.fastest);
    EXPECT_EQ(line.rfind("tiled TS=8 [tuned here]: ", 0), 0u) << line;
    EXPECT_NE(line.find(" GFLOP/s (measured). Why: " + want->reason), std::string::npos) << line;
    EXPECT_EQ(std::count(line.begin(), line.end(), '\n'), 0) << line;

    // 45 is no row: both rows' points are timed there first (as bench does), the faster one is
    // measured and remembered, so the next pick at 45 is a row.
    plan.size = 45;
    for (tasks::PlanPoint& p : plan.points) p.config.size = parse_size("45");
    r = tasks::run_performance_plan(plan, tasks::TaskProgress{});
    ASSERT_TRUE(r.fastest);
    EXPECT_EQ(r.fastest->pick.reason.rfind("fastest of 2 points timed here (", 0), 0u) << r.fastest->pick.reason;
    ASSERT_TRUE(r.fastest->measured) << r.fastest->refused;
    EXPECT_EQ(r.fastest->measured->kernel, r.fastest->pick.choice.kernel);
    EXPECT_EQ(r.fastest->measured->size.M, 45);
    const std::optional<FastestPick> again = pick_fastest(pocl, parse_size("45"));
    ASSERT_TRUE(again);
    EXPECT_EQ(again->note, "timed here at this shape");
    EXPECT_EQ(again->choice.kernel, r.fastest->pick.choice.kernel);

    plan.fastest = false;
    EXPECT_FALSE(tasks::run_performance_plan(plan, tasks::TaskProgress{}).fastest);
    fs::remove_all(dir);
}

// The pick is a bar's own configuration: the line above the chart quotes that bar's runs, not a
// second measurement a moment later (on a loaded CPU the two read 80.3 and 61.2 GFLOP/s).
TEST(PerformancePlanFastest, APickThatIsABarQuotesThatBarsRuns) {
    const DeviceInfo& pocl = select_device("pocl");
    const TuningSandbox sandbox("plan_bar", true);
    tasks::PerformancePlan plan = tasks::performance_plan("pocl", 40);
    std::vector<tasks::PlanPoint> kept;
    for (const tasks::PlanPoint& p : plan.points)
        if (p.part == tasks::PlanPart::rungs && p.config.kernel.name == "tiled") kept.push_back(p);
    ASSERT_EQ(kept.size(), 1u);
    nlohmann::json doc = {{"device", pocl.label()}, {"kernels", nlohmann::json::object()}};
    doc["fastest"] = {entry("40", "tiled", kept[0].config.tile, nlohmann::json::object(), 5)};
    write(sandbox.dir / "tuning" / (device_slug(pocl) + ".json"), doc.dump());
    plan.points = kept;
    plan.ceilings = false;
    plan.intensity.clear();
    plan.reps = 3;
    const tasks::PerformanceResult r = tasks::run_performance_plan(plan, tasks::TaskProgress{});
    ASSERT_EQ(r.rungs.size(), 1u);
    ASSERT_TRUE(r.fastest && r.fastest->measured) << (r.fastest ? r.fastest->refused : "no pick");
    EXPECT_EQ(r.fastest->measured->tile, r.rungs[0].tile);
    EXPECT_EQ(r.fastest->measured->gflops, r.rungs[0].gflops) << "one configuration, one set of runs";
    EXPECT_EQ(r.fastest->measured->times_s, r.rungs[0].times_s);
    EXPECT_GT(r.fastest->measured->gflops, 0);
}

// Issue 30 item 4: a peak measured below a rung of the same plan (cpu_panel 255 under a 250.6
// GFLOP/s ceiling on a loaded machine) is flagged with the rung's figure, never taken for a
// roof; any verified point counts (bars, sweeps, the pick), unverified ones (0) do not.
TEST(RoofBelowRung, FlagsThePeakBelowTheFastestMeasuredPoint) {
    auto measured = [](const std::string& kernel, double gflops) {
        Measurement m;
        m.kernel = kernel;
        m.gflops = gflops;
        m.verification.verified = gflops > 0;
        return m;
    };
    tasks::PerformanceResult r;
    r.rungs = {measured("tiled", 20), measured("cpu_panel", 255), measured("reg2d_vec", 251), measured("naive", 0)};
    r.peak_gflops = 250.6;
    auto below = tasks::roof_below_rung(r);
    ASSERT_TRUE(below);
    EXPECT_EQ(below->kernel, "cpu_panel");
    EXPECT_DOUBLE_EQ(below->rung_gflops, 255);
    EXPECT_DOUBLE_EQ(below->peak_gflops, 250.6);
    EXPECT_EQ(tasks::roof_below_text(*below), "peak 250.6 GFLOP/s (measured) is below cpu_panel's 255.0: not a roof");
    below->measurements = 2;
    EXPECT_EQ(tasks::roof_below_text(*below), "peak 250.6 GFLOP/s (measured twice) is below cpu_panel's 255.0: not a roof");
    EXPECT_EQ(tasks::roof_below_text(*below, true), "peak 250.6 GFLOP/s (measured twice): not a roof");  // the roofline's own line

    r.peak_gflops = 255.5;  // above every point: a roof
    EXPECT_FALSE(tasks::roof_below_rung(r));
    r.sweep_tiles = {measured("tiled", 256)};  // a sweep's point above it
    ASSERT_TRUE(tasks::roof_below_rung(r));
    EXPECT_EQ(tasks::roof_below_rung(r)->kernel, "tiled");
    r.sweep_tiles.clear();
    r.fastest = tasks::FastestMeasured{FastestPick{}, measured("warp_tile", 300), ""};  // the pick's run
    ASSERT_TRUE(tasks::roof_below_rung(r));
    EXPECT_EQ(tasks::roof_below_rung(r)->kernel, "warp_tile");
    r.peak_gflops = 0;  // not measured: nothing to flag
    EXPECT_FALSE(tasks::roof_below_rung(r));
}

// The pick follows the tuning data; the bars are measured now: a bar faster than the pick in the
// same plan is said beside it (on a shared CPU at 256^3, cpu_panel picked at 20.9 GFLOP/s beside a
// reg2d_vec bar at 26.2), with whether the two runs' ranges overlap. Unverified bars (0), sweeps,
// and a pick that did not run give nothing.
TEST(PickBeaten, ABarFasterThanThePickIsNamedWithItsNoise) {
    auto measured = [](const std::string& kernel, int tile, std::vector<double> times) {
        Measurement m;
        m.kernel = kernel;
        m.tile = tile;
        m.size = ProblemSize{256, 256, 256};
        m.times_s = times;
        std::sort(times.begin(), times.end());
        m.median_s = times[times.size() / 2];
        m.gflops = 2.0 * 256 * 256 * 256 / m.median_s / 1e9;
        m.verification.verified = true;
        return m;
    };
    const double flop = 2.0 * 256 * 256 * 256;
    tasks::PerformanceResult r;
    r.rungs = {measured("tiled", 16, {flop / 10e9, flop / 11e9, flop / 12e9}),
               measured("reg2d_vec", 64, {flop / 25.5e9, flop / 26.2e9, flop / 27e9}),
               measured("cpu_panel", 32, {flop / 20e9, flop / 20.9e9, flop / 21.5e9})};
    EXPECT_FALSE(tasks::pick_beaten(r)) << "nothing picked";
    r.fastest = tasks::FastestMeasured{FastestPick{}, r.rungs[2], ""};
    auto b = tasks::pick_beaten(r);
    ASSERT_TRUE(b);
    EXPECT_EQ(b->kernel, "reg2d_vec");
    EXPECT_EQ(b->tile, 64);
    EXPECT_NEAR(b->gflops, 26.2, 0.05);
    EXPECT_NEAR(b->pick_gflops, 20.9, 0.05);
    EXPECT_FALSE(b->within_noise);
    const std::string text = tasks::pick_beaten_text(*b);
    EXPECT_EQ(text.rfind("reg2d_vec TS=64 measured faster in this run: 26.2 GFLOP/s against the pick's 20.9 (their runs apart)", 0), 0u)
        << text;
    EXPECT_NE(text.find("tune --quick"), std::string::npos) << text;
    // Ranges that overlap: within noise, said so.
    r.rungs[1] = measured("reg2d_vec", 64, {flop / 20.5e9, flop / 21.2e9, flop / 22e9});
    b = tasks::pick_beaten(r);
    ASSERT_TRUE(b);
    EXPECT_TRUE(b->within_noise);
    EXPECT_NE(tasks::pick_beaten_text(*b).find("within noise, not ranked"), std::string::npos);
    // Not verified (gflops 0), or only a sweep faster: nothing.
    r.rungs[1].gflops = 0;
    r.sweep_tiles = {measured("tiled", 32, {flop / 40e9, flop / 41e9, flop / 42e9})};
    EXPECT_FALSE(tasks::pick_beaten(r));
    // The pick fastest of the bars, or the pick refused: nothing.
    r.rungs[1] = measured("reg2d_vec", 64, {flop / 19e9, flop / 19.5e9, flop / 20e9});
    EXPECT_FALSE(tasks::pick_beaten(r));
    r.rungs[1] = measured("reg2d_vec", 64, {flop / 25.5e9, flop / 26.2e9, flop / 27e9});
    r.fastest->measured.reset();
    EXPECT_FALSE(tasks::pick_beaten(r));
}

// tune writes the table (issue 30 item 3): two rungs tuned at one shape drawn at random on PoCL
// leave one row there, naming whichever stored point ran faster with its tile and figure; a
// second shape adds a row; bench --kernel fastest then picks that row's rung and tile there and
// verifies. A slower re-run of the same rung does not replace a faster row.
TEST(TuneWritesTheTable, EachTunedShapeKeepsTheFastestStoredPoint) {
    const DeviceInfo& pocl = select_device("pocl");
    const TuningSandbox sandbox("tune", true);
    const fs::path& dir = sandbox.dir;
    OddDraw odd;
    const unsigned seed = odd.seed;
    const std::string shape = std::to_string(odd(41, 79)) + "x" + std::to_string(odd(41, 79)) + "x" + std::to_string(odd(41, 79));
    const std::string other = std::to_string(odd(150, 250)) + "x" + std::to_string(odd(15, 29)) + "x" + std::to_string(odd(100, 200));
    SCOPED_TRACE("seed " + std::to_string(seed) + ": sizes " + shape + ", " + other);
    std::printf("TuneWritesTheTable seed %u: sizes %s, %s\n", seed, shape.c_str(), other.c_str());
    ASSERT_EQ(run("tune --device pocl --kernel naive --size " + other + " --tile 8 --reps 1 --warmup 0", dir), 0) << slurp(dir / "err");
    for (const char* kernel : {"naive", "tiled"})
        ASSERT_EQ(run(std::string("tune --device pocl --kernel ") + kernel + " --size " + shape + " --tile 8,16 --reps 1 --warmup 0", dir), 0)
            << slurp(dir / "err");
    const fs::path file = dir / "tuning" / (device_slug(pocl) + ".json");
    nlohmann::json doc = nlohmann::json::parse(slurp(file));
    ASSERT_TRUE(doc.contains("fastest")) << doc.dump();
    ASSERT_EQ(doc["fastest"].size(), 2u) << doc["fastest"].dump();
    EXPECT_EQ(parse_size(doc["fastest"][0]["size"].get<std::string>()), parse_size(other));
    EXPECT_EQ(doc["fastest"][0]["kernel"], "naive");
    const ProblemSize s = parse_size(shape);
    const nlohmann::json row = doc["fastest"][1];
    EXPECT_EQ(parse_size(row["size"].get<std::string>()), s);
    // Each rung's stored point at this shape (the last tune of each), from the same file: the
    // row is the faster one, its tile and figure as stored.
    const auto stored = [&](const std::string& k) { return doc["kernels"][k]; };
    const std::string faster = stored("naive")["gflops"].get<double>() >= stored("tiled")["gflops"].get<double>() ? "naive" : "tiled";
    EXPECT_EQ(row["kernel"], faster);
    EXPECT_EQ(row["tile"], stored(faster)["tile"]);
    EXPECT_DOUBLE_EQ(row["gflops"].get<double>(), stored(faster)["gflops"].get<double>());
    EXPECT_EQ(row["from"].get<std::string>().rfind("tilescope tune, ", 0), 0u) << row["from"];

    ASSERT_EQ(run("bench --device pocl --kernel fastest --size " + shape + " --reps 1 --warmup 0 --json " + (dir / "b.json").string(), dir), 0)
        << slurp(dir / "err");
    const nlohmann::json records = nlohmann::json::parse(slurp(dir / "b.json"));
    ASSERT_EQ(records.size(), 1u);
    EXPECT_EQ(records[0]["kernel"], faster);
    EXPECT_EQ(records[0]["tile"], row["tile"]);
    EXPECT_EQ(records[0]["verified"], true);
    EXPECT_EQ(records[0]["pick_reason"].get<std::string>().rfind(faster + ": fastest measured at " + row["size"].get<std::string>() + ",", 0), 0u)
        << records[0]["pick_reason"];

    // merge_tuning keeps a faster row: a slower result of the same shape leaves it as it was.
    const std::string again = merge_tuning(slurp(file), pocl.label(), faster, s,
                                           {TuneResult{8, {}, "ok", row["gflops"].get<double>() / 2, 0.01, "", "", ""}}, "");
    EXPECT_EQ(nlohmann::json::parse(again)["fastest"][1], row);
    fs::remove_all(dir);
}

// A long K (issue 30 item 2: K above 65536 is now accepted): splitk and warp_tile verify against the
// CPU reference on PoCL at a small C and a K beyond 65536 that is a multiple of nothing, drawn each run.
TEST(LongK, SplitkAndWarpTileVerifyBeyond65536OnPocl) {
    const TuningSandbox sandbox("longk", true);
    const fs::path& dir = sandbox.dir;
    OddDraw odd;
    const unsigned seed = odd.seed;
    const std::string size = std::to_string(odd(5, 13)) + "x" + std::to_string(odd(5, 13)) + "x" + std::to_string(odd(65537, 80000));
    SCOPED_TRACE("seed " + std::to_string(seed) + ": size " + size);
    std::printf("LongK seed %u: size %s\n", seed, size.c_str());
    ASSERT_EQ(run("bench --device pocl --kernel splitk,warp_tile --size " + size + " --reps 1 --warmup 0 --json " + (dir / "b.json").string(), dir), 0)
        << slurp(dir / "err");
    const nlohmann::json records = nlohmann::json::parse(slurp(dir / "b.json"));
    ASSERT_EQ(records.size(), 2u);
    for (const auto& r : records) {
        EXPECT_EQ(r["verified"], true) << r.dump();
        EXPECT_EQ(r["K"].get<int64_t>(), parse_size(size).K);
    }
    fs::remove_all(dir);
}

// Issue 30 items 1 and 3: a shape that is no row of the table has the points of its nearest rows
// timed there; the faster verified one runs and is remembered in the user's folder
// (<slug>.timed.json), so the next run at that shape finds a row and times nothing. A shape
// that is a row of a point with no neighbour (naive: no K-slices, no wide point) times nothing.
// A hostile remembered file is refused with a line, not fatal.
TEST(FastestTrial, ARowRunsAsIsAShapeBetweenRowsIsTimedAndRemembered) {
    const DeviceInfo& pocl = select_device("pocl");
    const TuningSandbox sandbox("trial", true);
    const fs::path& dir = sandbox.dir;
    nlohmann::json doc = {{"device", pocl.label()}, {"kernels", nlohmann::json::object()}};
    doc["fastest"] = {entry("32", "tiled", 8, nlohmann::json::object(), 5), entry("64", "naive", 16, nlohmann::json::object(), 2)};
    write(dir / "tuning" / (device_slug(pocl) + ".json"), doc.dump());
    const fs::path timed = dir / "xdg" / "tilescope" / "tuning" / timed_picks_file(pocl);

    // A row whose point has no neighbour: no trial, nothing remembered.
    ASSERT_EQ(run("bench --device pocl --kernel fastest --size 64 --reps 1 --warmup 0 --json " + (dir / "a.json").string(), dir), 0)
        << slurp(dir / "err");
    nlohmann::json a = nlohmann::json::parse(slurp(dir / "a.json"));
    EXPECT_EQ(a[0]["kernel"], "naive");
    EXPECT_FALSE(a[0].contains("pick_trials")) << a.dump();
    EXPECT_EQ(slurp(dir / "err").find("timing the"), std::string::npos) << slurp(dir / "err");
    EXPECT_FALSE(fs::exists(timed));

    // 45 lies between the rows 32 and 64: both points are timed, the faster verified one runs.
    ASSERT_EQ(run("bench --device pocl --kernel fastest --size 45 --reps 1 --warmup 0 --json " + (dir / "b.json").string(), dir), 0)
        << slurp(dir / "err");
    const nlohmann::json b = nlohmann::json::parse(slurp(dir / "b.json"))[0];
    ASSERT_TRUE(b.contains("pick_trials")) << b.dump();
    const nlohmann::json& trials = b["pick_trials"];
    ASSERT_EQ(trials.size(), 2u) << trials.dump();
    EXPECT_NE(trials[0]["kernel"], trials[1]["kernel"]);
    for (const auto& t : trials) EXPECT_EQ(t["verified"], true) << t.dump();
    EXPECT_GT(b["pick_trial_s"].get<double>(), 0);
    const nlohmann::json& won = trials[0]["gflops"].get<double>() >= trials[1]["gflops"].get<double>() ? trials[0] : trials[1];
    EXPECT_EQ(b["kernel"], won["kernel"]);
    EXPECT_EQ(b["tile"], won["tile"]);
    EXPECT_EQ(b["verified"], true);
    const std::string reason = b["pick_reason"];
    EXPECT_EQ(reason.rfind("fastest of 2 points timed here (", 0), 0u) << reason;
    EXPECT_NE(reason.find("nearest rows 32, 64"), std::string::npos) << reason;
    EXPECT_NE(reason.find("remembered as the row for 45 in '" + timed.string() + "'"), std::string::npos) << reason;
    ASSERT_TRUE(fs::exists(timed));
    const nlohmann::json kept = nlohmann::json::parse(slurp(timed));
    ASSERT_EQ(kept["fastest"].size(), 1u) << kept.dump();
    EXPECT_EQ(parse_size(kept["fastest"][0]["size"].get<std::string>()), parse_size("45"));
    EXPECT_EQ(kept["fastest"][0]["kernel"], won["kernel"]);
    EXPECT_EQ(kept["device"], pocl.label());

    // The second run at 45 finds the remembered row: no trial, the same point.
    ASSERT_EQ(run("bench --device pocl --kernel fastest --size 45 --reps 1 --warmup 0 --json " + (dir / "c.json").string(), dir), 0)
        << slurp(dir / "err");
    const nlohmann::json c = nlohmann::json::parse(slurp(dir / "c.json"))[0];
    EXPECT_FALSE(c.contains("pick_trials")) << c.dump();
    EXPECT_EQ(c["kernel"], won["kernel"]);
    EXPECT_EQ(c["tile"], won["tile"]);
    EXPECT_NE(c["pick_reason"].get<std::string>().find("timed here at this shape"), std::string::npos) << c["pick_reason"];
    // A remembered row of another shape is no row here.
    EXPECT_NE(pick_fastest(pocl, parse_size("47"))->note, "timed here at this shape");

    // A hostile remembered file: skipped with a line, the trial runs again, the file is left as it was.
    const std::string hostile = std::string(200, '[') + "1" + std::string(200, ']');
    write(timed, hostile);
    ASSERT_EQ(run("bench --device pocl --kernel fastest --size 45 --reps 1 --warmup 0 --json " + (dir / "d.json").string(), dir), 0)
        << slurp(dir / "err");
    const nlohmann::json d = nlohmann::json::parse(slurp(dir / "d.json"))[0];
    EXPECT_TRUE(d.contains("pick_trials")) << d.dump();
    EXPECT_EQ(d["verified"], true);
    EXPECT_NE(d["pick_reason"].get<std::string>().find("not remembered: '" + timed.string() + "'"), std::string::npos) << d["pick_reason"];
    EXPECT_NE(slurp(dir / "err").find("skipped: nested deeper than"), std::string::npos) << slurp(dir / "err");
    EXPECT_EQ(slurp(timed), hostile);
    fs::remove_all(dir);
}

// The remembered picks stay readable: a slower point never replaces a faster row of its shape,
// a damaged file is refused, and past kMaxFastestEntries rows the oldest go (the newest is read).
TEST(FastestTrial, RememberedRowsAreMergedAndBounded) {
    const std::string label = "Some GPU platform / Test GPU with 132 units";
    std::string text = merge_fastest_row("", label, "tiled", parse_size("45"), 8, {}, 5.0, "test");
    text = merge_fastest_row(text, label, "naive", parse_size("45"), 16, {}, 4.0, "test");
    std::vector<TunedChoice> rows = fastest_entries_in(text);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].kernel, "tiled");
    EXPECT_EQ(rows[0].device, label);
    EXPECT_THROW(merge_fastest_row(std::string(100, '[') + std::string(100, ']'), label, "tiled", parse_size("45"), 8, {}, 5, "t"),
                 InputError);
    EXPECT_THROW(merge_fastest_row("{not json", label, "tiled", parse_size("45"), 8, {}, 5, "t"), InputError);
    for (int m = 1; m <= kMaxFastestEntries + 1; ++m)
        text = merge_fastest_row(text, label, "naive", parse_size(std::to_string(m) + "x7x9"), 16, {}, 1.0, "test");
    rows = fastest_entries_in(text);
    ASSERT_EQ(rows.size(), size_t(kMaxFastestEntries));
    EXPECT_EQ(parse_size(rows.back().size), parse_size(std::to_string(kMaxFastestEntries + 1) + "x7x9"));
    EXPECT_TRUE(std::none_of(rows.begin(), rows.end(), [](const TunedChoice& c) { return parse_size(c.size) == parse_size("45"); }));
}

// The second round's points (trial_slice_neighbours): one K-slice fewer and one more beside a
// winner that splits K; at two slices the fewer is the rung it splits (warp_tile, the same
// parameters but SLICES); a count that runs the same slices at this K, a point already timed
// and a point without SLICES give none.
TEST(FastestTrial, ASplitKWinnersNeighboursAreOneSliceFewerAndOneMore) {
    const std::map<std::string, int64_t> p{{"PAD", 4}, {"TM", 8}, {"TN", 4}, {"TSK", 8}, {"WM", 32}, {"WN", 64}, {"WNITER", 2}};
    const auto point = [&](const std::string& size, int64_t slices) {
        std::map<std::string, int64_t> q = p;
        q["SLICES"] = slices;
        return LaunchConfig{*find_rung("splitk"), parse_size(size), 64, q};
    };
    const auto slices = [](const LaunchConfig& c) { return c.params.count("SLICES") ? c.params.at("SLICES") : int64_t{1}; };
    // K 1001: 126 phases of 8; 3, 4 and 5 slices are each a different split.
    std::vector<LaunchConfig> n = trial_slice_neighbours(point("301x299x1001", 4), {});
    ASSERT_EQ(n.size(), 2u);
    EXPECT_EQ(n[0].kernel.name, "splitk");
    EXPECT_EQ(slices(n[0]), 3);
    EXPECT_EQ(slices(n[1]), 5);
    EXPECT_EQ(n[0].tile, 64);
    // Two slices: the fewer is warp_tile at the same point.
    n = trial_slice_neighbours(point("301x299x1001", 2), {});
    ASSERT_EQ(n.size(), 2u);
    EXPECT_EQ(n[0].kernel.name, "warp_tile");
    EXPECT_EQ(n[0].params, p);
    EXPECT_EQ(slices(n[1]), 3);
    // A neighbour already timed is left out.
    n = trial_slice_neighbours(point("301x299x1001", 4), {point("301x299x1001", 5)});
    ASSERT_EQ(n.size(), 1u);
    EXPECT_EQ(slices(n[0]), 3);
    // K 24: 3 phases; 4 slices run 3, as 3 and 5 do: nothing new to time.
    EXPECT_TRUE(trial_slice_neighbours(point("301x299x24", 4), {}).empty());
    // No SLICES: no second round.
    EXPECT_TRUE(trial_slice_neighbours(LaunchConfig{*find_rung("warp_tile"), parse_size("301x299x1001"), 64, p}, {}).empty());
}

// The second round's wide point (trial_wide_point, speed12): 64 x 128 tiles (TS 64, NMUL 2) at
// TSK 16 beside a warp_tile or splitk winner, with its SLICES and INPLACE; none beside a winner
// that is already wide, another rung, or when that point was timed already.
TEST(FastestTrial, AWarpTileWinnersWidePointIs64By128) {
    const std::map<std::string, int64_t> p{{"PAD", 4}, {"TM", 4}, {"TN", 4}, {"TSK", 16}, {"WM", 64}, {"WN", 64}, {"WNITER", 4}};
    const LaunchConfig w{*find_rung("warp_tile"), parse_size("2474"), 128, p};
    const std::optional<LaunchConfig> wide = trial_wide_point(w, {});
    ASSERT_TRUE(wide.has_value());
    EXPECT_EQ(wide->kernel.name, "warp_tile");
    EXPECT_EQ(wide->tile, 64);
    const std::map<std::string, int64_t> want{{"NMUL", 2}, {"NDIV", 1}, {"TSK", 16}, {"WM", 32}, {"WN", 64},
                                              {"WNITER", 2}, {"TM", 8}, {"TN", 4}, {"PAD", 4}};
    EXPECT_EQ(wide->params, want);
    // 128 work-items, 64 x 128 of C each: ceil(2474/128) x ceil(2474/64) groups.
    const ResolvedLaunch r = resolve(*wide);
    EXPECT_EQ(r.local[0], 128u);
    EXPECT_EQ(r.groups[0], size_t((2474 + 127) / 128));
    EXPECT_EQ(r.groups[1], size_t((2474 + 63) / 64));
    // A splitk winner keeps its slices (and INPLACE); the wide point is splitk too.
    std::map<std::string, int64_t> q = p;
    q["SLICES"] = 3;
    q["INPLACE"] = 1;
    const std::optional<LaunchConfig> ws = trial_wide_point(LaunchConfig{*find_rung("splitk"), parse_size("1109"), 64, q}, {});
    ASSERT_TRUE(ws.has_value());
    EXPECT_EQ(ws->kernel.name, "splitk");
    EXPECT_EQ(ws->params.at("SLICES"), 3);
    EXPECT_EQ(ws->params.at("INPLACE"), 1);
    EXPECT_EQ(ws->params.at("NMUL"), 2);
    // Already wide, already timed, or another rung: none.
    EXPECT_FALSE(trial_wide_point(*wide, {}).has_value());
    EXPECT_FALSE(trial_wide_point(w, {*wide}).has_value());
    EXPECT_FALSE(trial_wide_point(LaunchConfig{*find_rung("tiled"), parse_size("2474"), 16, {}}, {}).has_value());
}

// The second round's in-place points (trial_inplace_points): beside a winner on padded copies (N
// or K not a multiple of 4), (1) the winner itself with INPLACE 2 where it is of TSK 8 and not wide
// (speed14), a warp_tile winner as it is at a short K (speed15) and split in two past it (session
// 47); (2) 128 x 64 tiles in place with the winner's slices, 2 when it has none (session 47).
namespace {
bool is_128x64_in_place(const LaunchConfig& c, int64_t slices) {
    const auto at = [&](const char* name, int64_t absent) { return c.params.count(name) ? c.params.at(name) : absent; };
    return c.kernel.name == "splitk" && c.tile == 128 && at("NDIV", 1) == 2 && at("NMUL", 1) == 1 && at("TSK", 0) == 8 &&
           at("INPLACE", 0) == 2 && at("SLICES", 0) == slices;
}
}  // namespace

TEST(FastestTrial, AWinnerOnPaddedCopiesIsTimedInPlace) {
    const std::map<std::string, int64_t> p{{"PAD", 4}, {"TM", 8}, {"TN", 4}, {"TSK", 8}, {"WM", 32}, {"WN", 64}, {"WNITER", 2}, {"SLICES", 8}};
    const LaunchConfig w{*find_rung("splitk"), parse_size("3286x571x7062"), 64, p};
    const std::vector<LaunchConfig> in = trial_inplace_points(w, {});
    ASSERT_EQ(in.size(), 2u);
    std::map<std::string, int64_t> want = p;
    want["INPLACE"] = 2;
    EXPECT_EQ(in[0].params, want);
    EXPECT_EQ(in[0].tile, 64);
    EXPECT_EQ(in[0].kernel.name, "splitk");
    EXPECT_TRUE(is_128x64_in_place(in[1], 8));
    // A 128 x 64 winner (TS 128, NDIV 2; K alone odd is enough): itself in place, once.
    std::map<std::string, int64_t> n2 = p;
    n2["NDIV"] = 2;
    const std::vector<LaunchConfig> in2 = trial_inplace_points(LaunchConfig{*find_rung("splitk"), parse_size("8797x660x1841"), 128, n2}, {});
    ASSERT_EQ(in2.size(), 1u);
    EXPECT_TRUE(is_128x64_in_place(in2[0], 8));
    // TSK 16 and the wide point: only the 128 x 64 point, with the winner's slices.
    std::map<std::string, int64_t> q = p;
    q["TSK"] = 16;
    const std::vector<LaunchConfig> in16 = trial_inplace_points(LaunchConfig{*find_rung("splitk"), w.size, 64, q}, {});
    ASSERT_EQ(in16.size(), 1u);
    EXPECT_TRUE(is_128x64_in_place(in16[0], 8));
    q = p;
    q["NMUL"] = 2;
    q["TSK"] = 16;
    q["SLICES"] = 4;
    const std::vector<LaunchConfig> inw = trial_inplace_points(LaunchConfig{*find_rung("splitk"), parse_size("985x8361x8908"), 64, q}, {});
    ASSERT_EQ(inw.size(), 1u);
    EXPECT_TRUE(is_128x64_in_place(inw[0], 4));
    // Aligned rows (no copies to save), a winner in place already, all timed already, another
    // rung, a run without padding: none.
    EXPECT_TRUE(trial_inplace_points(LaunchConfig{*find_rung("splitk"), parse_size("3286x572x7064"), 64, p}, {}).empty());
    EXPECT_TRUE(trial_inplace_points(in[0], {}).empty());
    EXPECT_TRUE(trial_inplace_points(w, in).empty());
    const std::vector<LaunchConfig> one_left = trial_inplace_points(w, {in[0]});
    ASSERT_EQ(one_left.size(), 1u);
    EXPECT_TRUE(is_128x64_in_place(one_left[0], 8));
    EXPECT_TRUE(trial_inplace_points(LaunchConfig{*find_rung("tiled"), w.size, 16, {}}, {}).empty());
    LaunchConfig unpadded = w;
    unpadded.pad = false;
    EXPECT_TRUE(trial_inplace_points(unpadded, {}).empty());

    // A warp_tile winner: at a short K (speed15: K at most kInPlaceShortK) the same point in place,
    // the whole K in one group as the winner has it; then 128 x 64 split in two.
    std::map<std::string, int64_t> whole = p;
    whole.erase("SLICES");
    for (const char* size : {"2248x1853x646", "2248x1853x1024"}) {
        SCOPED_TRACE(size);
        const std::vector<LaunchConfig> wt = trial_inplace_points(LaunchConfig{*find_rung("warp_tile"), parse_size(size), 64, whole}, {});
        ASSERT_EQ(wt.size(), 2u);
        EXPECT_EQ(wt[0].params.at("INPLACE"), 2);
        EXPECT_EQ(wt[0].kernel.name, "warp_tile");
        EXPECT_EQ(wt[0].params.count("SLICES"), 0u);
        EXPECT_TRUE(is_128x64_in_place(wt[1], 2));
    }
    // ... past it the same point split in two (session 47: in place unsplit measured 3-15 % slower
    // on the H100, speed14; split in two 4.6 % faster than on copies at 9847x1080x8179).
    for (const char* size : {"2248x1853x1025", "3286x571x7062"}) {
        SCOPED_TRACE(size);
        const std::vector<LaunchConfig> sp = trial_inplace_points(LaunchConfig{*find_rung("warp_tile"), parse_size(size), 64, whole}, {});
        ASSERT_EQ(sp.size(), 2u);
        EXPECT_EQ(sp[0].kernel.name, "splitk");
        std::map<std::string, int64_t> want_sp = whole;
        want_sp["INPLACE"] = 2;
        want_sp["SLICES"] = 2;
        EXPECT_EQ(sp[0].params, want_sp);
        EXPECT_EQ(sp[0].tile, 64);
        EXPECT_TRUE(is_128x64_in_place(sp[1], 2));
    }
    // The H100's 128 x 64 warp_tile winner at 9847x1080x8179: split in two in place, one point.
    std::map<std::string, int64_t> h = whole;
    h["NDIV"] = 2;
    const std::vector<LaunchConfig> sh = trial_inplace_points(LaunchConfig{*find_rung("warp_tile"), parse_size("9847x1080x8179"), 128, h}, {});
    ASSERT_EQ(sh.size(), 1u);
    EXPECT_TRUE(is_128x64_in_place(sh[0], 2));
    EXPECT_TRUE(trial_inplace_points(LaunchConfig{*find_rung("warp_tile"), parse_size("9847x1080x8179"), 128, h}, sh).empty());
    EXPECT_TRUE(trial_inplace_points(LaunchConfig{*find_rung("warp_tile"), parse_size("9847x1080x8180"), 128, h}, {}).empty());
    // The H200's 128 x 128 point of TSK 16 at 2015^3: only the 128 x 64 point.
    const std::map<std::string, int64_t> f{{"PAD", 4}, {"TM", 4}, {"TN", 4}, {"TSK", 16}, {"WM", 64}, {"WN", 64}, {"WNITER", 4}};
    const std::vector<LaunchConfig> sf = trial_inplace_points(LaunchConfig{*find_rung("warp_tile"), parse_size("2015"), 128, f}, {});
    ASSERT_EQ(sf.size(), 1u);
    EXPECT_TRUE(is_128x64_in_place(sf[0], 2));
}

// The second round's tile points (trial_tile_points, session 49): (1) a winner that walks all of K
// split into 2, 4 and 8 K-slices (splitk, its own tile and parameters) where its tiles of C are
// fewer than kSplitTilesPerUnit per compute unit; (2) 128 x 128 tiles whole (warp_tile, TSK 16)
// beside a winner of TS 64, keeping INPLACE 1 and dropping INPLACE 2 (it needs TSK 8).
namespace {
bool is_128x128_whole(const LaunchConfig& c, int64_t inplace) {
    const auto at = [&](const char* name, int64_t absent) { return c.params.count(name) ? c.params.at(name) : absent; };
    return c.kernel.name == "warp_tile" && c.tile == 128 && at("NDIV", 1) == 1 && at("NMUL", 1) == 1 && at("TSK", 0) == 16 &&
           at("WM", 0) == 64 && at("WN", 0) == 64 && at("WNITER", 0) == 4 && at("TM", 0) == 4 && at("TN", 0) == 4 &&
           c.params.count("SLICES") == 0 && at("INPLACE", 0) == inplace;
}
}  // namespace

TEST(FastestTrial, AWholeWinnerIsTimedSplitAndA64TileWinnerBeside128Tiles) {
    const std::map<std::string, int64_t> p{{"PAD", 4}, {"TM", 8}, {"TN", 4}, {"TSK", 8}, {"WM", 32}, {"WN", 64}, {"WNITER", 2}};
    // The H200's 1326x3685x3551 (session 48): warp_tile TS 64 whole won round one; 21 x 58 = 1,218
    // tiles for 132 units (fewer than 16 a unit): 2, 4 and 8 slices, then the 128 x 128 point.
    const LaunchConfig w{*find_rung("warp_tile"), parse_size("1326x3685x3551"), 64, p};
    std::vector<LaunchConfig> t = trial_tile_points(w, 132, {});
    ASSERT_EQ(t.size(), 4u);
    for (size_t i = 0; i < 3; ++i) {
        SCOPED_TRACE(i);
        std::map<std::string, int64_t> want = p;
        want["SLICES"] = int64_t{2} << i;
        EXPECT_EQ(t[i].kernel.name, "splitk");
        EXPECT_EQ(t[i].tile, 64);
        EXPECT_EQ(t[i].params, want);
        EXPECT_EQ(t[i].size, w.size);
        EXPECT_TRUE(t[i].pad);
    }
    EXPECT_TRUE(is_128x128_whole(t[3], 0));
    // With 76 units the 1,218 tiles are 16 a unit: no splits, the 128 x 128 point alone.
    t = trial_tile_points(w, 76, {});
    ASSERT_EQ(t.size(), 1u);
    EXPECT_TRUE(is_128x128_whole(t[0], 0));
    EXPECT_EQ(trial_tile_points(w, 77, {}).size(), 4u);
    // Points timed already are left out.
    t = trial_tile_points(w, 132, {trial_tile_points(w, 132, {})[1], trial_tile_points(w, 132, {})[3]});
    ASSERT_EQ(t.size(), 2u);
    EXPECT_EQ(t[0].params.at("SLICES"), 2);
    EXPECT_EQ(t[1].params.at("SLICES"), 8);
    // K 24 (3 phases of 8): 2 slices run 2, 4 run 3, 8 run 3 as 4 do: two splits.
    t = trial_tile_points(LaunchConfig{*find_rung("warp_tile"), parse_size("301x299x24"), 64, p}, 132, {});
    ASSERT_EQ(t.size(), 3u);
    EXPECT_EQ(t[0].params.at("SLICES"), 2);
    EXPECT_EQ(t[1].params.at("SLICES"), 4);
    EXPECT_TRUE(is_128x128_whole(t[2], 0));
    // A splitk winner of TS 64 (985x8361x8908, 8 slices): no splits, the 128 x 128 point whole,
    // reading in place as the winner does with INPLACE 1, on copies where it read with INPLACE 2.
    std::map<std::string, int64_t> q = p;
    q["SLICES"] = 8;
    for (const int64_t in : {0, 1, 2}) {
        SCOPED_TRACE(in);
        if (in) q["INPLACE"] = in;
        t = trial_tile_points(LaunchConfig{*find_rung("splitk"), parse_size("985x8361x8908"), 64, q}, 132, {});
        ASSERT_EQ(t.size(), 1u);
        EXPECT_TRUE(is_128x128_whole(t[0], in == 1 ? 1 : 0));
    }
    // The H200's 128 x 128 winner at 2015^3 (256 tiles): split in 2, 4 and 8, its own parameters; no
    // 128 x 128 point beside itself. Split already, it gets none.
    const std::map<std::string, int64_t> f{{"PAD", 4}, {"TM", 4}, {"TN", 4}, {"TSK", 16}, {"WM", 64}, {"WN", 64}, {"WNITER", 4}};
    t = trial_tile_points(LaunchConfig{*find_rung("warp_tile"), parse_size("2015"), 128, f}, 132, {});
    ASSERT_EQ(t.size(), 3u);
    for (const LaunchConfig& c : t) {
        EXPECT_EQ(c.kernel.name, "splitk");
        EXPECT_EQ(c.tile, 128);
        EXPECT_EQ(c.params.at("TSK"), 16);
    }
    EXPECT_TRUE(trial_tile_points(t[0], 132, {}).empty());
    // bench --help states the rule with the same count.
    const TuningSandbox sandbox("tile_points_help", true);
    ASSERT_EQ(run("bench --help", sandbox.dir), 0);
    EXPECT_NE(slurp(sandbox.dir / "out").find("fewer than " + std::to_string(kSplitTilesPerUnit) + " tiles a compute unit"), std::string::npos)
        << slurp(sandbox.dir / "out");
    // No compute units known, another rung: none.
    EXPECT_EQ(trial_tile_points(w, 0, {}).size(), 1u);
    EXPECT_TRUE(trial_tile_points(LaunchConfig{*find_rung("tiled"), w.size, 16, {}}, 132, {}).empty());
}

// On PoCL, at a shape between two splitk rows of 4 and 5 slices: the rows' two points are timed
// (round 1), then the winner again beside its neighbour not yet timed (round 2, same launches: 3
// slices beside 4, 6 beside 5), beside its wide point (64 x 128, the winner's slices) and, the
// drawn N and K being odd, beside itself reading in place (INPLACE 2, speed14); the fastest of
// round 2 runs, verified, is remembered, and the reason gives both rounds' figures.
TEST(FastestTrial, ASplitKWinnerIsTimedBesideItsSliceNeighbours) {
    const DeviceInfo& pocl = select_device("pocl");
    const TuningSandbox sandbox("slices", true);
    const fs::path& dir = sandbox.dir;
    const nlohmann::json p = {{"PAD", 4}, {"TM", 8}, {"TN", 4}, {"TSK", 8}, {"WM", 32}, {"WN", 64}, {"WNITER", 2}};
    nlohmann::json p4 = p, p5 = p;
    p4["SLICES"] = 4;
    p5["SLICES"] = 5;
    nlohmann::json doc = {{"device", pocl.label()}, {"kernels", nlohmann::json::object()}};
    doc["fastest"] = {entry("40x40x900", "splitk", 64, p4, 5), entry("90x90x1500", "splitk", 64, p5, 5)};
    write(dir / "tuning" / (device_slug(pocl) + ".json"), doc.dump());
    OddDraw odd;
    const unsigned seed = odd.seed;
    const std::string size = std::to_string(odd(45, 85)) + "x" + std::to_string(odd(45, 85)) + "x" + std::to_string(odd(1001, 1399));
    SCOPED_TRACE("seed " + std::to_string(seed) + ": size " + size);
    std::printf("FastestTrial slices seed %u: size %s\n", seed, size.c_str());
    ASSERT_EQ(run("bench --device pocl --kernel fastest --size " + size + " --reps 1 --warmup 0 --json " + (dir / "b.json").string(), dir), 0)
        << slurp(dir / "err");
    const nlohmann::json b = nlohmann::json::parse(slurp(dir / "b.json"))[0];
    ASSERT_TRUE(b.contains("pick_trials")) << b.dump();
    const nlohmann::json& trials = b["pick_trials"];
    ASSERT_EQ(trials.size(), 8u) << trials.dump();
    for (const auto& t : trials) EXPECT_EQ(t["verified"], true) << t.dump();
    for (size_t i = 0; i < trials.size(); ++i) EXPECT_EQ(trials[i]["round"], i < 2 ? 1 : 2) << trials.dump();
    const size_t w1 = trials[0]["gflops"].get<double>() >= trials[1]["gflops"].get<double>() ? 0 : 1;
    // Round 2: the winner first, then its neighbour that round 1 did not time, then its wide point.
    EXPECT_EQ(trials[2]["params"], trials[w1]["params"]);
    const int64_t s = trials[w1]["params"]["SLICES"];
    EXPECT_EQ(trials[3]["params"]["SLICES"], s == 4 ? 3 : 6) << trials.dump();
    EXPECT_EQ(trials[4]["tile"], 64);
    EXPECT_EQ(trials[4]["params"]["NMUL"], 2) << trials.dump();
    EXPECT_EQ(trials[4]["params"]["SLICES"], s) << trials.dump();
    nlohmann::json in_place = trials[w1]["params"];
    in_place["INPLACE"] = 2;
    EXPECT_EQ(trials[5]["params"], in_place) << trials.dump();
    // ... and 128 x 64 tiles in place with its slices (session 47).
    EXPECT_EQ(trials[6]["tile"], 128);
    EXPECT_EQ(trials[6]["params"]["NDIV"], 2) << trials.dump();
    EXPECT_EQ(trials[6]["params"]["INPLACE"], 2) << trials.dump();
    EXPECT_EQ(trials[6]["params"]["SLICES"], s) << trials.dump();
    // ... and 128 x 128 tiles whole beside the 64 x 64 winner (session 49).
    EXPECT_EQ(trials[7]["kernel"], "warp_tile");
    EXPECT_EQ(trials[7]["tile"], 128);
    EXPECT_EQ(trials[7]["params"]["TSK"], 16) << trials.dump();
    EXPECT_FALSE(trials[7]["params"].contains("SLICES")) << trials.dump();
    size_t w2 = 2;
    for (size_t i = 3; i < 8; ++i)
        if (trials[i]["gflops"].get<double>() > trials[w2]["gflops"].get<double>()) w2 = i;
    if (trials[w2]["gflops"].get<double>() < trials[2]["gflops"].get<double>() * (1 + kRoundTwoMargin)) w2 = 2;  // within the margin
    EXPECT_EQ(b["kernel"], trials[w2]["kernel"]) << b.dump();
    EXPECT_EQ(b["tile"], trials[w2]["tile"]) << b.dump();
    EXPECT_EQ(b["params"].value("SLICES", 0), trials[w2]["params"].value("SLICES", 0)) << b.dump();
    EXPECT_EQ(b["params"].value("NMUL", 1), trials[w2]["params"].value("NMUL", 1)) << b.dump();
    EXPECT_EQ(b["params"].value("INPLACE", 0), trials[w2]["params"].value("INPLACE", 0)) << b.dump();
    EXPECT_EQ(b.contains("padded_copies"), trials[w2]["params"].value("INPLACE", 0) == 0) << b.dump();
    EXPECT_EQ(b["verified"], true);
    const std::string reason = b["pick_reason"];
    EXPECT_NE(reason.find("; then its neighbours beside it ("), std::string::npos) << reason;
    EXPECT_NE(reason.find("splitk 64x128 SLICES=" + std::to_string(s) + " "), std::string::npos) << reason;
    EXPECT_NE(reason.find("splitk SLICES=" + std::to_string(s) + " in place "), std::string::npos) << reason;
    EXPECT_NE(reason.find("splitk 128x64 SLICES=" + std::to_string(s) + " in place "), std::string::npos) << reason;
    EXPECT_NE(reason.find("warp_tile 128x128 no split "), std::string::npos) << reason;
    EXPECT_EQ(reason.find(" runs; remembered") != std::string::npos, w2 != 2) << reason;
    const nlohmann::json kept = nlohmann::json::parse(slurp(dir / "xdg" / "tilescope" / "tuning" / timed_picks_file(pocl)));
    ASSERT_EQ(kept["fastest"].size(), 1u) << kept.dump();
    EXPECT_EQ(kept["fastest"][0]["params"], trials[w2]["params"]);
    fs::remove_all(dir);
}

// speed13: where round 1 has one point (a row of this very shape, or a shape whose nearest rows all
// name one point) round 2 still runs once, that point its winner: on PoCL, a warp_tile row at its
// own shape is timed beside its wide point; a shape between three splitk rows of one point beside
// its K-slice neighbours and its wide point. Each is verified, remembered, and the second run at
// that shape reads the remembered row and times nothing.
TEST(FastestTrial, ARowAndAOnePointShapeGetRoundTwoOnce) {
    const DeviceInfo& pocl = select_device("pocl");
    const TuningSandbox sandbox("single", true);
    const fs::path& dir = sandbox.dir;
    OddDraw odd;
    const unsigned seed = odd.seed;
    const std::string row = std::to_string(odd(37, 59)) + "x" + std::to_string(odd(37, 59)) + "x" + std::to_string(odd(37, 59));
    const std::string between = std::to_string(odd(105, 135)) + "x" + std::to_string(odd(105, 135)) + "x" + std::to_string(odd(1250, 1550));
    SCOPED_TRACE("seed " + std::to_string(seed) + ": sizes " + row + ", " + between);
    std::printf("FastestTrial single seed %u: sizes %s, %s\n", seed, row.c_str(), between.c_str());
    const nlohmann::json p = {{"PAD", 4}, {"TM", 8}, {"TN", 4}, {"TSK", 8}, {"WM", 32}, {"WN", 64}, {"WNITER", 2}};
    nlohmann::json p4 = p;
    p4["SLICES"] = 4;
    nlohmann::json doc = {{"device", pocl.label()}, {"kernels", nlohmann::json::object()}};
    doc["fastest"] = {entry(row, "warp_tile", 64, p, 5), entry("100x100x1200", "splitk", 64, p4, 5),
                      entry("140x140x1600", "splitk", 64, p4, 5), entry("120x120x2000", "splitk", 64, p4, 5)};
    write(dir / "tuning" / (device_slug(pocl) + ".json"), doc.dump());
    const fs::path timed = dir / "xdg" / "tilescope" / "tuning" / timed_picks_file(pocl);
    const auto bench = [&](const std::string& size, const std::string& name) {
        EXPECT_EQ(run("bench --device pocl --kernel fastest --size " + size + " --reps 1 --warmup 0 --json " + (dir / name).string(), dir), 0)
            << slurp(dir / "err");
        return nlohmann::json::parse(slurp(dir / name))[0];
    };
    // Round 2's fastest verified point: what runs and what is remembered.
    const auto won = [](const nlohmann::json& trials) {
        size_t w = 0;
        for (size_t i = 1; i < trials.size(); ++i)
            if (trials[i]["gflops"].get<double>() > trials[w]["gflops"].get<double>()) w = i;
        // a neighbour less than kRoundTwoMargin faster than the round's first point: that one stays
        return trials[w]["gflops"].get<double>() < trials[0]["gflops"].get<double>() * (1 + kRoundTwoMargin) ? trials[0] : trials[w];
    };
    // A record's parameters hold the trial's (it may add the rung's defaults).
    const auto holds = [](const nlohmann::json& record, const nlohmann::json& trial) {
        for (const auto& [k, v] : trial["params"].items())
            if (!record["params"].contains(k) || record["params"][k] != v) return false;
        return record["tile"] == trial["tile"];
    };
    const auto remembered = [&](const std::string& size) {
        const nlohmann::json kept = nlohmann::json::parse(slurp(timed));
        for (const auto& r : kept["fastest"])
            if (parse_size(r["size"].get<std::string>()) == parse_size(size)) return r;
        return nlohmann::json();
    };

    // The row: its point, then its wide point (no K-slices to vary) and, K being short and odd
    // (speed15), itself in place, then 128 x 64 tiles split in two in place (session 47), then
    // (session 49: one tile of C, fewer than 16 a compute unit) itself split in 2, 4 and 8 and
    // 128 x 128 tiles whole.
    const nlohmann::json a = bench(row, "a.json");
    ASSERT_TRUE(a.contains("pick_trials")) << a.dump();
    const nlohmann::json& ta = a["pick_trials"];
    ASSERT_EQ(ta.size(), 8u) << ta.dump();
    for (size_t i = 0; i < ta.size(); ++i) {
        EXPECT_EQ(ta[i]["round"], 2) << ta.dump();
        EXPECT_EQ(ta[i]["verified"], true) << ta[i].dump();
        EXPECT_EQ(ta[i]["kernel"], i < 3 || i == 7 ? "warp_tile" : "splitk");
    }
    for (size_t i = 4; i < 7; ++i) {
        nlohmann::json split = p;
        split["SLICES"] = 2 << (i - 4);
        EXPECT_EQ(ta[i]["params"], split) << ta.dump();
        EXPECT_EQ(ta[i]["tile"], 64);
    }
    EXPECT_EQ(ta[7]["tile"], 128);
    EXPECT_EQ(ta[7]["params"]["TSK"], 16) << ta.dump();
    EXPECT_EQ(ta[0]["params"], p);
    EXPECT_EQ(ta[1]["params"]["NMUL"], 2) << ta.dump();
    nlohmann::json in_place = p;
    in_place["INPLACE"] = 2;
    EXPECT_EQ(ta[2]["params"], in_place) << ta.dump();
    EXPECT_EQ(ta[3]["tile"], 128);
    EXPECT_EQ(ta[3]["params"]["NDIV"], 2) << ta.dump();
    EXPECT_EQ(ta[3]["params"]["SLICES"], 2) << ta.dump();
    EXPECT_EQ(ta[3]["params"]["INPLACE"], 2) << ta.dump();
    EXPECT_GT(a["pick_trial_s"].get<double>(), 0);
    EXPECT_TRUE(holds(a, won(ta))) << a.dump();
    EXPECT_EQ(a["verified"], true);
    const std::string ra = a["pick_reason"];
    EXPECT_EQ(ra.rfind(parse_size(row).label() + " is a row of the table; its point timed here beside its neighbours", 0), 0u) << ra;
    EXPECT_NE(ra.find("warp_tile 64x128 no split "), std::string::npos) << ra;
    EXPECT_NE(ra.find("warp_tile no split in place "), std::string::npos) << ra;
    EXPECT_NE(ra.find("splitk 128x64 SLICES=2 in place "), std::string::npos) << ra;
    EXPECT_NE(ra.find("splitk SLICES=8 "), std::string::npos) << ra;
    EXPECT_NE(ra.find("warp_tile 128x128 no split "), std::string::npos) << ra;
    EXPECT_NE(ra.find("remembered as the row for " + parse_size(row).label()), std::string::npos) << ra;
    EXPECT_EQ(remembered(row)["params"], won(ta)["params"]) << slurp(timed);
    EXPECT_NE(slurp(dir / "err").find("is a row of the table; timing its point beside its 7 neighbours"), std::string::npos)
        << slurp(dir / "err");

    // Between three splitk rows of one point: that point beside 3 and 5 slices, its wide point,
    // itself in place, 128 x 64 tiles in place and 128 x 128 tiles whole (no splits: it splits).
    const nlohmann::json b = bench(between, "b.json");
    ASSERT_TRUE(b.contains("pick_trials")) << b.dump();
    const nlohmann::json& tb = b["pick_trials"];
    ASSERT_EQ(tb.size(), 7u) << tb.dump();
    for (size_t i = 0; i < tb.size(); ++i) {
        EXPECT_EQ(tb[i]["round"], 2) << tb.dump();
        EXPECT_EQ(tb[i]["verified"], true) << tb[i].dump();
        EXPECT_EQ(tb[i]["kernel"], i < 6 ? "splitk" : "warp_tile");
    }
    EXPECT_EQ(tb[6]["tile"], 128);
    EXPECT_FALSE(tb[6]["params"].contains("SLICES")) << tb.dump();
    EXPECT_EQ(tb[0]["params"], p4);
    EXPECT_EQ(tb[1]["params"]["SLICES"], 3);
    EXPECT_EQ(tb[2]["params"]["SLICES"], 5);
    EXPECT_EQ(tb[3]["params"]["NMUL"], 2);
    EXPECT_EQ(tb[3]["params"]["SLICES"], 4);
    EXPECT_EQ(tb[4]["params"]["INPLACE"], 2);
    EXPECT_EQ(tb[4]["params"]["SLICES"], 4);
    EXPECT_EQ(tb[5]["tile"], 128);
    EXPECT_EQ(tb[5]["params"]["NDIV"], 2);
    EXPECT_EQ(tb[5]["params"]["INPLACE"], 2);
    EXPECT_EQ(tb[5]["params"]["SLICES"], 4);
    EXPECT_TRUE(holds(b, won(tb))) << b.dump();
    EXPECT_EQ(b["verified"], true);
    const std::string rb = b["pick_reason"];
    EXPECT_EQ(rb.rfind("its nearest rows name one point (", 0), 0u) << rb;
    EXPECT_NE(rb.find("remembered as the row for " + parse_size(between).label()), std::string::npos) << rb;
    EXPECT_EQ(remembered(between)["params"], won(tb)["params"]) << slurp(timed);

    // The second run at each shape reads the remembered row: nothing timed, the same point.
    for (const auto& [size, first] : {std::pair{row, a}, std::pair{between, b}}) {
        EXPECT_TRUE(pick_fastest(pocl, parse_size(size))->remembered);
        const nlohmann::json again = bench(size, "c.json");
        EXPECT_FALSE(again.contains("pick_trials")) << again.dump();
        EXPECT_EQ(again["params"], first["params"]) << again.dump();
        EXPECT_EQ(again["tile"], first["tile"]);
        EXPECT_NE(again["pick_reason"].get<std::string>().find("timed here at this shape"), std::string::npos) << again["pick_reason"];
        EXPECT_EQ(slurp(dir / "err").find("timing"), std::string::npos) << slurp(dir / "err");
    }
    fs::remove_all(dir);
}

// Past the short K, a warp_tile row's point on padded copies is timed in round 2 beside itself
// split in two and read in place (splitk SLICES 2, INPLACE 2; session 47) and beside 128 x 64 tiles
// split in two in place, then (session 49) itself split in 2, 4 and 8 on copies and 128 x 128 tiles
// whole, on PoCL at a drawn size whose N and K are odd: all eight points verify, the reason names
// the split points, and what runs is round 2's fastest (within the margin, the row's point).
TEST(FastestTrial, AWarpTileWinnerPastTheShortKIsTimedInPlaceSplitInTwo) {
    const DeviceInfo& pocl = select_device("pocl");
    const TuningSandbox sandbox("split_in_place", true);
    const fs::path& dir = sandbox.dir;
    OddDraw odd;
    const std::string row = std::to_string(odd(37, 59)) + "x" + std::to_string(odd(37, 59)) + "x" +
                            std::to_string(odd(static_cast<int>(kInPlaceShortK) + 1, static_cast<int>(kInPlaceShortK) + 200));
    SCOPED_TRACE("seed " + std::to_string(odd.seed) + ": size " + row);
    std::printf("FastestTrial split in place seed %u: size %s\n", odd.seed, row.c_str());
    const nlohmann::json p = {{"PAD", 4}, {"TM", 8}, {"TN", 4}, {"TSK", 8}, {"WM", 32}, {"WN", 64}, {"WNITER", 2}};
    nlohmann::json doc = {{"device", pocl.label()}, {"kernels", nlohmann::json::object()}};
    doc["fastest"] = {entry(row, "warp_tile", 64, p, 5)};
    write(dir / "tuning" / (device_slug(pocl) + ".json"), doc.dump());
    ASSERT_EQ(run("bench --device pocl --kernel fastest --size " + row + " --reps 1 --warmup 0 --json " + (dir / "a.json").string(), dir), 0)
        << slurp(dir / "err");
    const nlohmann::json a = nlohmann::json::parse(slurp(dir / "a.json"))[0];
    ASSERT_TRUE(a.contains("pick_trials")) << a.dump();
    const nlohmann::json& t = a["pick_trials"];
    ASSERT_EQ(t.size(), 8u) << t.dump();
    for (const auto& x : t) {
        EXPECT_EQ(x["round"], 2) << t.dump();
        EXPECT_EQ(x["verified"], true) << x.dump();
    }
    EXPECT_EQ(t[0]["kernel"], "warp_tile");
    EXPECT_EQ(t[0]["params"], p);
    EXPECT_EQ(t[1]["params"]["NMUL"], 2) << t.dump();
    nlohmann::json split = p;
    split["INPLACE"] = 2;
    split["SLICES"] = 2;
    EXPECT_EQ(t[2]["kernel"], "splitk") << t.dump();
    EXPECT_EQ(t[2]["params"], split) << t.dump();
    EXPECT_EQ(t[2]["tile"], 64);
    EXPECT_EQ(t[3]["kernel"], "splitk") << t.dump();
    EXPECT_EQ(t[3]["tile"], 128);
    EXPECT_EQ(t[3]["params"]["NDIV"], 2) << t.dump();
    EXPECT_EQ(t[3]["params"]["SLICES"], 2) << t.dump();
    for (size_t i = 4; i < 7; ++i) {
        nlohmann::json on_copies = p;
        on_copies["SLICES"] = 2 << (i - 4);
        EXPECT_EQ(t[i]["kernel"], "splitk") << t.dump();
        EXPECT_EQ(t[i]["params"], on_copies) << t.dump();
    }
    EXPECT_EQ(t[7]["kernel"], "warp_tile") << t.dump();
    EXPECT_EQ(t[7]["tile"], 128);
    const std::string r = a["pick_reason"];
    EXPECT_NE(r.find("splitk SLICES=2 in place "), std::string::npos) << r;
    EXPECT_NE(r.find("splitk SLICES=4 "), std::string::npos) << r;
    size_t w = 0;
    for (size_t i = 1; i < t.size(); ++i)
        if (t[i]["gflops"].get<double>() > t[w]["gflops"].get<double>()) w = i;
    if (t[w]["gflops"].get<double>() < t[0]["gflops"].get<double>() * (1 + kRoundTwoMargin)) w = 0;
    EXPECT_EQ(a["kernel"], t[w]["kernel"]) << a.dump();
    EXPECT_EQ(a["tile"], t[w]["tile"]) << a.dump();
    EXPECT_EQ(a["verified"], true);
    fs::remove_all(dir);
}

// A remembered row whose point does not build (INPLACE 2 needs TSK | NT: TSK 12 breaks it), as a
// file from someone else may hold: bench says once that it cannot be used, runs the rung's
// defaults, verified, exit 0, and the pick's line says that, not the slices and in-place reads
// of the point that did not run.
TEST(FastestTrial, ARememberedPointThatDoesNotBuildRunsTheDefaultsAndSaysSo) {
    const DeviceInfo& pocl = select_device("pocl");
    const TuningSandbox sandbox("no_build", true);
    const fs::path& dir = sandbox.dir;
    OddDraw odd;
    const std::string size = std::to_string(odd(37, 59)) + "x" + std::to_string(odd(37, 59)) + "x" + std::to_string(odd(301, 599));
    SCOPED_TRACE("seed " + std::to_string(odd.seed) + ": size " + size);
    std::printf("FastestTrial no build seed %u: size %s\n", odd.seed, size.c_str());
    const nlohmann::json bad = {{"PAD", 4}, {"TM", 8}, {"TN", 4}, {"TSK", 12}, {"WM", 32}, {"WN", 64}, {"WNITER", 2}, {"SLICES", 2}, {"INPLACE", 2}};
    const fs::path user = dir / "xdg" / "tilescope" / "tuning";
    fs::create_directories(user);
    write(user / timed_picks_file(pocl), nlohmann::json{{"device", pocl.label()}, {"fastest", {entry(size, "splitk", 64, bad, 9e5)}}}.dump());
    ASSERT_EQ(run("bench --device pocl --kernel fastest --size " + size + " --reps 1 --warmup 0 --json " + (dir / "a.json").string(), dir), 0)
        << slurp(dir / "err");
    const nlohmann::json a = nlohmann::json::parse(slurp(dir / "a.json"))[0];
    EXPECT_EQ(a["kernel"], "splitk");
    EXPECT_EQ(a["verified"], true);
    EXPECT_EQ(a["params"].value("INPLACE", 0), 0) << a.dump();
    EXPECT_EQ(a["params"]["TSK"], 8) << a.dump();
    const std::string r = a["pick_reason"];
    EXPECT_EQ(r.rfind("splitk with its defaults: the point picked for it (TS=64 ", 0), 0u) << r;
    EXPECT_NE(r.find("cannot be used on this device"), std::string::npos) << r;
    EXPECT_EQ(r.find("in place"), std::string::npos) << r;
    EXPECT_NE(slurp(dir / "err").find("cannot be used"), std::string::npos) << slurp(dir / "err");
}

// Each size is picked just before it is measured: the first size's row is printed before the
// second size's trial starts (stdout and stderr into one file, each line flushed), so a long
// list shows its rows as they come and one stopped midway keeps them.
TEST(FastestTrial, EachSizesRowIsPrintedBeforeTheNextSizesTrial) {
    const DeviceInfo& pocl = select_device("pocl");
    const TuningSandbox sandbox("row_by_row", true);
    const fs::path& dir = sandbox.dir;
    nlohmann::json doc = {{"device", pocl.label()}, {"kernels", nlohmann::json::object()}};
    doc["fastest"] = {entry("32", "tiled", 8, nlohmann::json::object(), 5), entry("64", "naive", 16, nlohmann::json::object(), 2)};
    write(dir / "tuning" / (device_slug(pocl) + ".json"), doc.dump());
    const std::string cmd = std::string(TILESCOPE_BIN) + " bench --device pocl --kernel fastest --size 45,50 --reps 1 --warmup 0 >" +
                            (dir / "both").string() + " 2>&1";
    const int raw = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(raw) && WEXITSTATUS(raw) == 0) << slurp(dir / "both");
    const std::string both = slurp(dir / "both");
    const size_t trial45 = both.find("45 is not a row of the table"), trial50 = both.find("50 is not a row of the table");
    // A measured row: the rung's name at the start of a line, then the size.
    const auto row_of = [&](const std::string& size) {
        std::smatch m;
        return std::regex_search(both, m, std::regex("\n(naive|tiled) +" + size + " ")) ? static_cast<size_t>(m.position(0))
                                                                                         : std::string::npos;
    };
    const size_t header = both.find("device: "), row45 = row_of("45"), row50 = row_of("50");
    ASSERT_NE(trial45, std::string::npos) << both;
    ASSERT_NE(trial50, std::string::npos) << both;
    ASSERT_NE(row45, std::string::npos) << both;
    ASSERT_NE(row50, std::string::npos) << both;
    EXPECT_LT(header, trial45) << both;
    EXPECT_LT(trial45, row45) << both;
    EXPECT_LT(row45, trial50) << both;
    EXPECT_LT(trial50, row50) << both;
    fs::remove_all(dir);
}
