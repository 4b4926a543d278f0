// Fast everywhere (issue 12): tuning that finds its device (exact, similar, type defaults,
// per size bucket) and the CPU rung verified on PoCL.
#include <gtest/gtest.h>
#include <cstdio>
#include <random>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "core/kernel/catalog.h"
#include "test_support.h"
#include "core/base/errors.h"
#include "core/device/runner.h"
#include "core/io/measurement_export.h"
#include "core/tuning/tuning.h"

namespace fs = std::filesystem;
using namespace tilescope;

namespace {

fs::path temp_dir(const std::string& name) { return test_support::fresh_temp_dir("speed", name); }

using test_support::ScopedEnv;

// A CPU device no file was made for; its label decides its family.
DeviceInfo fake_cpu(const std::string& name) {
    DeviceInfo d;
    d.platform = "Portable Computing Language";
    d.name = name;
    d.type = "CPU";
    d.is_cpu = true;
    return d;
}

TuneResult ok(int tile, std::map<std::string, int64_t> params, double gflops) {
    return TuneResult{tile, std::move(params), "ok", gflops, 0.01, "", "", ""};
}

void write(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

// One timed launch and no warm-up: enough to verify a point against the CPU reference.
RunOptions one_launch() {
    RunOptions o;
    o.reps = 1;
    o.warmup = 0;
    return o;
}

// Sizes drawn at random on every run from a seed that is printed (TILESCOPE_TEST_SEED=N
// repeats it): draw(lo, hi) is a uniform integer in [lo, hi].
struct RandomDraws {
    uint64_t seed;
    std::mt19937_64 rng;
    explicit RandomDraws(const char* test) : seed(pick()), rng(seed) {
        std::printf("%s seed %llu (TILESCOPE_TEST_SEED=%llu repeats it)\n", test, static_cast<unsigned long long>(seed),
                    static_cast<unsigned long long>(seed));
    }
    int64_t operator()(int lo, int hi) { return static_cast<int64_t>(std::uniform_int_distribution<int>(lo, hi)(rng)); }
    static uint64_t pick() {
        if (const char* s = std::getenv("TILESCOPE_TEST_SEED")) return std::strtoull(s, nullptr, 10);
        return static_cast<uint64_t>(std::random_device{}());
    }
};
}  // namespace

TEST(TuningLookup, SizeBuckets) {
    EXPECT_EQ(size_bucket(parse_size("1024")), "small");
    EXPECT_EQ(size_bucket(parse_size("37x29x45")), "small");
    EXPECT_EQ(size_bucket(parse_size("1025x16x16")), "large");
    EXPECT_EQ(size_bucket(parse_size("4096")), "large");
    EXPECT_EQ(size_bucket(std::string_view("8192")), "large");
    EXPECT_EQ(size_bucket(std::string_view("nonsense")), "");
}

TEST(TuningLookup, FamiliesJoinVendorAndArchitecture) {
    const std::string xeon = "Portable Computing Language / pthread-skylake-avx512-Intel(R) Xeon(R) Processor";
    const std::string xeon2 = "Portable Computing Language / pthread-skylake-avx512-Intel(R) Xeon(R) Gold 6338";
    const std::string epyc = "Portable Computing Language / pthread-skylake-avx512-AMD EPYC";
    const std::string zen = "Portable Computing Language / cpu-znver4-AMD Ryzen 7 7840U";
    EXPECT_EQ(device_family(xeon), "pocl:skylake-avx512:intel");
    EXPECT_EQ(device_family(xeon), device_family(xeon2));
    EXPECT_EQ(device_family(epyc), "pocl:skylake-avx512:amd");  // same code, other vendor's cores: not similar
    EXPECT_NE(device_family(epyc), device_family(xeon));
    EXPECT_EQ(device_family(zen), "pocl:znver4:amd");
    EXPECT_EQ(device_family("NVIDIA CUDA / NVIDIA H200"), "nvidia:hopper");
    EXPECT_EQ(device_family("NVIDIA CUDA / NVIDIA H100 80GB HBM3"), "nvidia:hopper");
    EXPECT_EQ(device_family("NVIDIA CUDA / NVIDIA A100-SXM4-40GB"), "nvidia:ampere");
    EXPECT_EQ(device_family("NVIDIA CUDA / Some Future Card"), "");
    EXPECT_EQ(device_family("Oclgrind / Oclgrind Simulator"), "");
}

TEST(TuningLookup, UserFolderFollowsXdg) {
    {
        ScopedEnv xdg("XDG_DATA_HOME", "/tmp/xdg-test");
        EXPECT_EQ(user_tuning_dir(), "/tmp/xdg-test/tilescope/tuning");
        unsetenv("TILESCOPE_TUNING_DIR");
        EXPECT_EQ(default_tuning_dir(), "/tmp/xdg-test/tilescope/tuning");
        const auto dirs = tuning_search_dirs();
        ASSERT_FALSE(dirs.empty());
        EXPECT_EQ(dirs.front(), "/tmp/xdg-test/tilescope/tuning");
    }
    ScopedEnv xdg("XDG_DATA_HOME", "");
    ScopedEnv home("HOME", "/home/someone");
    EXPECT_EQ(user_tuning_dir(), "/home/someone/.local/share/tilescope/tuning");
}

// The fallback chain, one step at a time: type defaults, a similar device, this device at
// another size, this device at this size.
TEST(TuningLookup, ExactThenSimilarThenTypeDefaults) {
    const fs::path dir = temp_dir("chain");
    ScopedEnv env("TILESCOPE_TUNING_DIR", dir.string());
    ScopedEnv xdg("XDG_DATA_HOME", (dir / "xdg").string());
    const DeviceInfo me = fake_cpu("pthread-haswell-Intel(R) Core(TM) Test CPU 1");
    const ProblemSize small = parse_size("512"), large = parse_size("2048");

    // Nothing for this device or its family: the CPU defaults, per bucket.
    auto l = lookup_tuning(me, "reg2d_vec", small);
    ASSERT_TRUE(l);
    EXPECT_EQ(l->match, TuningMatch::type_defaults);
    EXPECT_EQ(l->note, "defaults for CPUs");
    EXPECT_EQ(l->choice.bucket, "small");
    EXPECT_FALSE(lookup_tuning(me, "naive", small)) << "no rung without an entry gets one";

    // A similar device (same vendor, same PoCL target, another model) was tuned.
    const DeviceInfo cousin = fake_cpu("pthread-haswell-Intel(R) Core(TM) Test CPU 2");
    write(dir / (device_slug(cousin) + ".json"),
          merge_tuning("", cousin.label(), "reg2d_vec", small, {ok(64, {{"TSK", 8}, {"VW", 4}, {"WPTM", 4}, {"WPTN", 8}}, 7)}, ""));
    l = lookup_tuning(me, "reg2d_vec", small);
    ASSERT_TRUE(l);
    EXPECT_EQ(l->match, TuningMatch::similar);
    EXPECT_EQ(l->note, "tuned for a similar device: " + cousin.label());
    EXPECT_EQ(l->choice.tile, 64);
    // A device of another vendor is not similar: it keeps the defaults.
    const DeviceInfo stranger = fake_cpu("pthread-haswell-AMD EPYC Test");
    EXPECT_EQ(lookup_tuning(stranger, "reg2d_vec", small)->match, TuningMatch::type_defaults);

    // This device tuned at a large size only: its own tuning wins over the cousin's, said so.
    const std::string mine = (dir / (device_slug(me) + ".json")).string();
    write(mine, merge_tuning("", me.label(), "reg2d_vec", large, {ok(128, {{"TSK", 16}, {"VW", 4}, {"WPTM", 8}, {"WPTN", 8}}, 9)}, ""));
    l = lookup_tuning(me, "reg2d_vec", small);
    ASSERT_TRUE(l);
    EXPECT_EQ(l->match, TuningMatch::exact);
    EXPECT_EQ(l->note, "tuned here at 2048");
    EXPECT_EQ(l->choice.tile, 128);

    // Then tuned at the small size too: each bucket gets its own choice, both kept.
    std::ifstream in(mine);
    std::stringstream text;
    text << in.rdbuf();
    in.close();
    write(mine, merge_tuning(text.str(), me.label(), "reg2d_vec", small, {ok(32, {{"TSK", 8}, {"VW", 4}, {"WPTM", 4}, {"WPTN", 4}}, 5)}, ""));
    l = lookup_tuning(me, "reg2d_vec", small);
    EXPECT_EQ(l->note, "tuned here");
    EXPECT_EQ(l->choice.tile, 32);
    l = lookup_tuning(me, "reg2d_vec", large);
    EXPECT_EQ(l->note, "tuned here");
    EXPECT_EQ(l->choice.tile, 128);

    // apply_tuning carries the source into the launch, and from there into a table row.
    LaunchConfig c{*find_rung("reg2d_vec"), large, 64};
    ASSERT_TRUE(apply_tuning(c, me));
    EXPECT_EQ(c.params_source, "tuned");
    EXPECT_EQ(c.tuning_note, "tuned here");
    EXPECT_EQ(c.tile, 128);
    LaunchConfig s{*find_rung("reg2d_vec"), small, 64};
    ASSERT_TRUE(apply_tuning(s, stranger));
    EXPECT_EQ(s.params_source, "type-defaults");
    EXPECT_EQ(s.tuning_note, "defaults for CPUs");
    fs::remove_all(dir);
}

// Every rung named in the type defaults resolves with the values given there, at both
// buckets (a stale or impossible default would silently fall back to the GPU defaults), and
// so does every point they name for tune --quick to look at ("also_try").
TEST(TuningLookup, TypeDefaultsResolve) {
    for (const bool gpu : {false, true}) {
        DeviceInfo d = fake_cpu("no such device");
        d.is_cpu = !gpu;
        d.is_gpu = gpu;
        for (const KernelSpec& k : ladder()) {
            for (const char* size : {"1024", "4096"}) {
                const auto l = lookup_tuning(d, k.name, parse_size(size));
                if (!l) continue;
                LaunchConfig c{k, parse_size(size), l->choice.tile, l->choice.params, "type-defaults"};
                EXPECT_NO_THROW(resolve(c)) << k.name << " at " << size << (gpu ? " (GPU)" : " (CPU)");
                // and every point they name for tune --quick to look at ("also_try")
                for (const TunePoint& t : quick_tune_also_try(d, k, parse_size(size)))
                    EXPECT_NO_THROW(resolve(LaunchConfig{k, parse_size(size), t.tile, t.params, "given"}))
                        << k.name << " also_try TS=" << t.tile << " at " << size << (gpu ? " (GPU)" : " (CPU)");
            }
        }
    }
}

// The CPU rung verifies on PoCL where every guard matters and at a size its fast path runs:
// on the matrices as they are (its edge paths: rows past M, the vector crossing N), and on
// copies padded to rows of 16 floats (ladder.json "pad": issue 30 item 4, rows of B and C on
// 64-byte lines) at sizes drawn at random on every run (the seed is printed).
TEST(CpuPanel, VerifiesOnPocl) {
    const KernelSpec* k = find_rung("cpu_panel");
    ASSERT_NE(k, nullptr);
    Runner r(select_device("pocl"));
    const RunOptions o = one_launch();
    const std::vector<std::map<std::string, int64_t>> points = {
        {}, {{"WPTM", 4}, {"VW", 8}, {"WGN", 2}, {"WGM", 2}}, {{"WPTM", 12}, {"WGN", 4}}, {{"VW", 8}}};
    for (const std::string size : {"37x29x45", "64", "130x67x33", "5x3x7", "21x40x9"})
        for (const auto& p : points) {
            LaunchConfig c{*k, parse_size(size), k->default_tile, p, "given"};
            c.pad = false;
            const Measurement m = r.measure(c, o);
            EXPECT_TRUE(m.verification.verified) << size << ": " << m.verification.summary();
            EXPECT_EQ(m.ran_at, m.size) << size;
        }
    RandomDraws draw("CpuPanel");
    const uint64_t seed = draw.seed;
    for (const auto& p : points) {
        const ProblemSize size{draw(1, 90), draw(0, 6) * 16 + draw(1, 15), draw(1, 70)};  // N never a multiple of 16
        const Measurement m = r.measure(LaunchConfig{*k, size, k->default_tile, p, "given"}, o);
        EXPECT_TRUE(m.verification.verified) << size.label() << " seed " << seed << ": " << m.verification.summary();
        EXPECT_EQ(m.verification.checked_elements, size.M * size.N);
        EXPECT_EQ(m.ran_at, (ProblemSize{size.M, (size.N + 15) / 16 * 16, size.K})) << size.label();
        EXPECT_EQ(m.launch.flops, 2.0 * size.M * size.N * size.K);  // the user's product, not the padded one
    }
}

// Issue 20: warp_tile's groups inside C run the loop without checks when the rows are
// float4-aligned, whatever the tiles divide; the groups on the edges load zeros past them and
// the K loop starts early so only its first phase is partial. It verifies on PoCL at the sizes
// the issue names (37x29x45: rows not aligned, every load checked; 1000; a skinny shape; one
// with interior and edge groups and a K remainder), at the defaults and at the H200's tuned
// points (large: 128 work-items of 8x16 results, TSK 16; small: TS 64).
TEST(WarpTileEdges, VerifiesOnPoclAtAnySize) {
    const KernelSpec* k = find_rung("warp_tile");
    ASSERT_NE(k, nullptr);
    Runner r(select_device("pocl"));
    const RunOptions o = one_launch();
    struct Point {
        int tile;
        std::map<std::string, int64_t> params;
    };
    const std::vector<Point> points = {
        {128, {}},
        {128, {{"TSK", 16}, {"WM", 64}, {"WN", 64}, {"WNITER", 4}, {"TM", 4}, {"TN", 4}, {"PAD", 4}}},
        {64, {{"TSK", 8}, {"WM", 32}, {"WN", 64}, {"WNITER", 2}, {"TM", 8}, {"TN", 4}, {"PAD", 4}}}};
    for (const std::string size : {"37x29x45", "1000", "1000x64x2000", "200x136x44", "64x8x36", "130x68x20"})
        for (const Point& p : points) {
            LaunchConfig c{*k, parse_size(size), p.tile, p.params, "given"};
            c.pad = false;  // the kernel's own paths at these sizes, checked loads included
            const Measurement m = r.measure(c, o);
            EXPECT_TRUE(m.verification.verified) << size << " TS=" << p.tile << ": " << m.verification.summary();
            EXPECT_EQ(m.verification.checked_elements, m.size.M * m.size.N) << size;
            EXPECT_EQ(m.ran_at, m.size) << size;
        }
}

// Issue 20: a large problem whose large-bucket tiles fall unevenly on the compute units (the
// last round leaves many idle) takes the same file's small-bucket choice, when that one falls
// more evenly; otherwise the large bucket's choice stands. The H200's warp_tile points.
TEST(TuningLookup, UnevenLargeTilesGiveWayToTheSmallBucketsChoice) {
    const fs::path dir = temp_dir("balance");
    ScopedEnv env("TILESCOPE_TUNING_DIR", dir.string());
    ScopedEnv xdg("XDG_DATA_HOME", (dir / "xdg").string());
    DeviceInfo gpu;
    gpu.platform = "Some GPU platform";
    gpu.name = "Test GPU with 132 units";
    gpu.type = "GPU";
    gpu.is_gpu = true;
    gpu.compute_units = 132;
    const std::map<std::string, int64_t> large_point = {{"TSK", 16}, {"WM", 64}, {"WN", 64}, {"WNITER", 4},
                                                        {"TM", 4},   {"TN", 4},  {"PAD", 4}};
    const std::map<std::string, int64_t> small_point = {{"TSK", 8}, {"WM", 32}, {"WN", 64}, {"WNITER", 2},
                                                        {"TM", 8},  {"TN", 4},  {"PAD", 4}};
    std::string text = merge_tuning("", gpu.label(), "warp_tile", parse_size("4096"), {ok(128, large_point, 49000)}, "");
    text = merge_tuning(text, gpu.label(), "warp_tile", parse_size("1024"), {ok(64, small_point, 33000)}, "");
    write(dir / (device_slug(gpu) + ".json"), text);

    // 2000: 16x16 = 256 groups of 128, 1.94 per unit (97% even, 97% full): the large tiles.
    // 4096: 1024 groups, 7.76 per unit (97%); 8000: 3969, 30.07 (97%); a deep K changes nothing.
    for (const char* size : {"2000", "4096", "8000", "6000", "2048x2048x32768"}) {
        const auto l = lookup_tuning(gpu, "warp_tile", parse_size(size));
        ASSERT_TRUE(l) << size;
        EXPECT_EQ(l->choice.tile, 128) << size;
        EXPECT_EQ(l->choice.bucket, "large") << size;
        EXPECT_EQ(l->note, "tuned here") << size;
    }
    // 3000 and 3072: 24x24 = 576 groups, 4.36 per unit (87%); TS 64 gives 2209 and 2304 (98%, 97%).
    // 1500: 144 groups, 1.09 per unit (55% even, 55% full); TS 64: 576 (87%).
    // 256x8192x8192: 2x64 = 128 groups, one per unit at most (97% even, 48% full); TS 64: 512.
    for (const char* size : {"3000", "3072", "1500", "256x8192x8192", "8192x256x8192"}) {
        const auto l = lookup_tuning(gpu, "warp_tile", parse_size(size));
        ASSERT_TRUE(l) << size;
        EXPECT_EQ(l->choice.tile, 64) << size;
        EXPECT_EQ(l->choice.bucket, "small") << size;
        EXPECT_EQ(l->choice.params.at("TM"), 8) << size;
        EXPECT_NE(l->note.find("132 compute units"), std::string::npos) << l->note;
    }
    // Without a unit count nothing is judged: the bucket's choice stands.
    gpu.compute_units = 0;
    EXPECT_EQ(lookup_tuning(gpu, "warp_tile", parse_size("3000"))->choice.tile, 128);
}

// Issue 30: warp_tile and splitk run on zero-padded copies (ladder.json "pad") when N or K is
// not a multiple of 4: the copies in (A's and B's in one launch when both change), the kernel
// at the padded size storing C where it lies in the user's M x N matrix (pad "C": the define
// CN; no copy of C back), all queued behind one user event, verified
// against the CPU reference at sizes drawn at random on every run (the seed is printed; set
// TILESCOPE_TEST_SEED to repeat one), small enough to take seconds on PoCL.
TEST(PaddedRungs, VerifyOnPoclAtRandomSizes) {
    RandomDraws draw("PaddedRungs");
    const uint64_t seed = draw.seed;
    Runner r(select_device("pocl"));
    const RunOptions o = one_launch();
    for (const char* name : {"warp_tile", "splitk"})
        for (int i = 0; i < 2; ++i) {
            // N never a multiple of 4 here, so the copies always run; M anything; K not a multiple
            // of 4 either in the first (A and B copied in one launch), a multiple in the second (B
            // alone copied, in the same float4 copy kernel, its second copy empty; A bound as it is).
            // A K that is not a multiple of 4 pads B's rows as well as A's: A is never copied alone.
            const int64_t k4 = draw(1, 22) * 4;
            const ProblemSize size{draw(1, 90), draw(1, 22) * 4 + draw(1, 3), i == 0 ? k4 + draw(1, 3) : k4};
            const KernelSpec& k = *find_rung(name);
            const Measurement m = r.measure(LaunchConfig{k, size, 64}, o);
            EXPECT_TRUE(m.verification.verified) << name << " " << size.label() << " seed " << seed << ": " << m.verification.summary();
            EXPECT_EQ(m.verification.checked_elements, size.M * size.N);
            EXPECT_EQ(m.ran_at, (ProblemSize{size.M, (size.N + 3) / 4 * 4, (size.K + 3) / 4 * 4})) << size.label();
            EXPECT_EQ(m.launch.flops, 2.0 * size.M * size.N * size.K);  // the user's product, not the padded one
            // A and B copied in (B alone when K is a multiple of 4); C is the user's, never copied back.
            EXPECT_EQ(m.padded_copies, (i == 0 ? std::vector<std::string>{"A", "B"} : std::vector<std::string>{"B"}))
                << name << " " << size.label();
            const ResolvedArg* c_arg = m.launch.find("C");
            ASSERT_NE(c_arg, nullptr);
            EXPECT_EQ(c_arg->cols, size.N) << "C keeps the user's shape";
            EXPECT_NE(m.launch.build_options.find("-D CN=" + std::to_string(size.N) + " "), std::string::npos)
                << m.launch.build_options;
            const nlohmann::json j = nlohmann::json::parse(measurements_to_json({m}));
            EXPECT_EQ(j[0]["padded_copies"], nlohmann::json(m.padded_copies)) << j.dump();
            // The emulator would trace it as written: no padding there.
            LaunchConfig c{k, size, 64};
            DeviceInfo emu;
            emu.is_emulator = true;
            EXPECT_FALSE(padded_config(c, emu).has_value());
            c.pad = false;
            EXPECT_FALSE(padded_config(c, r.device()).has_value());
        }
}

// Issue 30: INPLACE=1 runs warp_tile and splitk on the user's matrices as they are (no padded
// copies; rows that are not float4-aligned read with vload4, B's float4s across its right edge
// element by element) and verifies against the CPU reference on PoCL at sizes drawn at random on
// every run (seed printed; TILESCOPE_TEST_SEED repeats one): K and N not multiples of 4, then N
// alone, splitk with many slices and half-wide tiles too. INPLACE=2 (speed14: a float per work-item
// and load) the same, at TS 64 and at the wide point too.
TEST(InPlaceRungs, VerifyOnPoclAtRandomSizes) {
    RandomDraws draw("InPlaceRungs");
    const uint64_t seed = draw.seed;
    Runner r(select_device("pocl"));
    const RunOptions o = one_launch();
    for (const int64_t inplace : {1, 2})
    for (const char* name : {"warp_tile", "splitk"})
        for (int i = 0; i < 3; ++i) {
            const int64_t k4 = draw(1, 40) * 4;
            const ProblemSize size{draw(1, 150), draw(1, 40) * 4 + draw(1, 3), i == 1 ? k4 : k4 + draw(1, 3)};
            std::map<std::string, int64_t> params = {{"INPLACE", inplace}};
            if (inplace == 2 && i == 1) params.insert({{"NMUL", 2}, {"TSK", 16}, {"TM", 8}});
            if (i == 2) params.insert({{"NDIV", 2}, {"WN", 32}, {"WNITER", 1}});
            if (std::string(name) == "splitk") params["SLICES"] = i == 0 ? 3 : 16;
            const Measurement m = r.measure(LaunchConfig{*find_rung(name), size, 64, params, "given"}, o);
            EXPECT_TRUE(m.verification.verified) << name << " INPLACE=" << inplace << " " << size.label() << " seed " << seed << ": "
                                                 << m.verification.summary();
            EXPECT_EQ(m.verification.checked_elements, size.M * size.N);
            EXPECT_EQ(m.ran_at, size) << name << " " << size.label() << ": no padded copies";
        }
}

// Issue 30: warp_tile's half-wide tiles (NDIV 2: TS x TS/2 of C per group, for shapes whose
// square tiles leave the last round of groups on the compute units part-empty) verify against
// the CPU reference on PoCL at sizes drawn at random on every run (the seed is printed; set
// TILESCOPE_TEST_SEED to repeat one): the kernel's own load paths (no padding: checked loads
// when rows are not float4-aligned) and on padded copies, at the H200's two measured points
// (TS 128: 128 x 64; TS 64: 64 x 32), and splitk with them.
TEST(WarpTileHalfWide, VerifiesOnPoclAtRandomSizes) {
    RandomDraws draw("WarpTileHalfWide");
    const uint64_t seed = draw.seed;
    Runner r(select_device("pocl"));
    const RunOptions o = one_launch();
    struct Point {
        int tile;
        std::map<std::string, int64_t> params;
    };
    const std::vector<Point> points = {
        {128, {{"NDIV", 2}, {"TSK", 16}, {"WM", 64}, {"WN", 32}, {"WNITER", 2}, {"TM", 4}, {"TN", 4}, {"PAD", 4}}},
        {64, {{"NDIV", 2}, {"TSK", 8}, {"WM", 32}, {"WN", 32}, {"WNITER", 1}, {"TM", 4}, {"TN", 4}, {"PAD", 4}}}};
    for (const char* name : {"warp_tile", "splitk"})
        for (const Point& p : points)
            for (const bool pad : {false, true}) {
                // M, N, K anything up to a few tiles; N and K may or may not be multiples of 4.
                const ProblemSize size{draw(1, 160), draw(1, 140), draw(1, 100)};
                LaunchConfig c{*find_rung(name), size, p.tile, p.params, "given"};
                if (std::string(name) == "splitk") c.params["SLICES"] = draw(2, 6);
                c.pad = pad;
                const Measurement m = r.measure(c, o);
                EXPECT_TRUE(m.verification.verified) << name << " TS=" << p.tile << " " << size.label() << " pad " << pad
                                                     << " seed " << seed << ": " << m.verification.summary();
                EXPECT_EQ(m.verification.checked_elements, size.M * size.N) << size.label();
                // The groups along N are TS/2 wide.
                EXPECT_EQ(m.launch.groups[0], uint64_t((m.ran_at.N + p.tile / 2 - 1) / (p.tile / 2))) << size.label();
            }
}

// speed12: warp_tile's wide tiles (NMUL 2: TS x 2*TS of C per group; 64 x 128 at TS 64, the point
// the trial's second round times) verify against the CPU reference on PoCL at sizes drawn at
// random on every run (seed printed; TILESCOPE_TEST_SEED repeats one): the kernel's own load paths
// and on padded copies, splitk too. B's tile is twice A's here, so a work-item loads more of B
// than of A (LOADS is the larger count, A's extra slots skipped).
TEST(WarpTileWide, VerifiesOnPoclAtRandomSizes) {
    RandomDraws draw("WarpTileWide");
    const uint64_t seed = draw.seed;
    Runner r(select_device("pocl"));
    const RunOptions o = one_launch();
    const std::map<std::string, int64_t> wide = {{"NMUL", 2}, {"TSK", 16}, {"WM", 32}, {"WN", 64}, {"WNITER", 2},
                                                 {"TM", 8},   {"TN", 4},   {"PAD", 4}};
    for (const char* name : {"warp_tile", "splitk"})
        for (const bool pad : {false, true}) {
            // M, N, K anything up to a few tiles; N and K may or may not be multiples of 4.
            const ProblemSize size{draw(1, 200), draw(1, 300), draw(1, 120)};
            LaunchConfig c{*find_rung(name), size, 64, wide, "given"};
            if (std::string(name) == "splitk") c.params["SLICES"] = draw(2, 6);
            c.pad = pad;
            const Measurement m = r.measure(c, o);
            EXPECT_TRUE(m.verification.verified) << name << " " << size.label() << " pad " << pad << " seed " << seed << ": "
                                                 << m.verification.summary();
            EXPECT_EQ(m.verification.checked_elements, size.M * size.N) << size.label();
            // The groups along N are 128 wide, along M 64 tall.
            EXPECT_EQ(m.launch.groups[0], uint64_t((m.ran_at.N + 127) / 128)) << size.label();
            EXPECT_EQ(m.launch.groups[1], uint64_t((m.ran_at.M + 63) / 64)) << size.label();
        }
}
