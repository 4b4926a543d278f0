// Beyond the lesson (issue 5): the rungs after `tiled` verified on PoCL, tunable
// parameters in expressions, tuning files (read, write, fallback), and `tilescope tune`.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "catalog_params.h"
#include "core/kernel/catalog.h"
#include "test_support.h"
#include "core/base/errors.h"
#include "core/base/expr.h"
#include "core/device/runner.h"
#include "core/tuning/tuning.h"

namespace fs = std::filesystem;
using namespace tilescope;

namespace {

const DeviceInfo& pocl() { return select_device("pocl"); }

Measurement measure(const LaunchConfig& c) {
    Runner r(pocl());
    RunOptions o;
    o.reps = 1;
    o.warmup = 0;
    return r.measure(c, o);
}

fs::path temp_dir(const std::string& name) { return test_support::fresh_temp_dir("rungs", name); }

using test_support::slurp;

// Sets an environment variable for one scope.
using test_support::ScopedEnv;

}  // namespace

// ---- tunable parameters in expressions ----

TEST(TunableParams, UsableInExpressions) {
    SizeVars v{100, 60, 30, 64};
    v.params["WPTM"] = 8;
    v.params["TSK"] = 16;
    EXPECT_EQ(eval_expr("((M+TS-1)/TS)*(TS/WPTM)", v), 2 * 8);
    EXPECT_EQ(eval_expr("TSK*2", v), 32);
    EXPECT_THROW(eval_expr("WPTN", v), InputError);
    EXPECT_NO_THROW(check_expr("TS/WPTN", {"WPTN"}));
    EXPECT_THROW(check_expr("TS/WPTN"), InputError);
}

TEST(TunableParams, CatalogRungsDeclareThem) {
    const KernelSpec* k = find_rung("reg2d_dbuf");
    ASSERT_NE(k, nullptr);
    EXPECT_EQ(k->param_names(), (std::vector<std::string>{"TSK", "WPTM", "WPTN", "VW", "PAD"}));  // catalog order
    const TunableParam* p = k->find_param("WPTM");
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->default_value, 8);
    EXPECT_NE(std::find(p->values.begin(), p->values.end(), p->default_value), p->values.end());
    // Where a rung sits is the catalog's business (its order rules are checked when it is
    // read: Catalog.OrderRulesAreStatedByTheData in test_kernel_spec.cpp).
    // Rungs without parameters are unchanged.
    EXPECT_TRUE(find_rung("tiled")->params.empty());
}

TEST(TunableParams, ResolveUsesDefaultsAndOverrides) {
    LaunchConfig c{*find_rung("reg2d"), parse_size("100x60x30"), 64};
    ResolvedLaunch r = resolve(c);
    EXPECT_EQ(r.params.at("WPTM"), 4);
    EXPECT_EQ(r.local_text(), "16x16");
    EXPECT_EQ(r.global_text(), "16x32");
    EXPECT_NE(r.build_options.find("-D WPTM=4 "), std::string::npos) << r.build_options;
    c.params = {{"WPTM", 8}, {"WPTN", 2}};
    r = resolve(c);
    EXPECT_EQ(r.local_text(), "32x8");
    EXPECT_NE(r.build_options.find("-D WPTM=8 "), std::string::npos) << r.build_options;
    EXPECT_NE(r.build_options.find("-D WPTN=2 "), std::string::npos) << r.build_options;
    c.params = {{"NOPE", 1}};
    EXPECT_THROW(resolve(c), InputError);
    c.params = {{"WPTM", -1}};
    EXPECT_THROW(resolve(c), InputError);
    c = LaunchConfig{*find_rung("tiled"), parse_size("64"), 16, {{"WPT", 2}}};
    EXPECT_THROW(resolve(c), InputError);  // tiled has no parameters
}

TEST(TunableParams, ParseParam) {
    const KernelSpec& k = *find_rung("reg2d_vec");
    EXPECT_EQ(parse_param(k, "VW=8"), (std::pair<std::string, int64_t>{"VW", 8}));
    EXPECT_EQ(parse_param(*find_rung("reg2d_tpad"), "PAD=0").second, 0);  // 0 is a value (no padding)
    for (const char* bad : {"VW", "VW=", "VW=x", "VW=-4", "VW=1.5", "Q=4", "=4"}) {
        try {
            parse_param(k, bad);
            ADD_FAILURE() << bad << " was accepted";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("--param"), std::string::npos) << e.what();
        }
    }
    EXPECT_EQ(params_text(k, {{"VW", 8}}), "TSK=16 WPTM=8 WPTN=8 VW=8");
}

// The compare view's headers: a parameter the two sides set differently is named on both,
// the default side too (lesson 6 step 3: PAD=0 against PAD=4, the default).
TEST(TunableParams, ComparedParamsNameWhatDiffers) {
    const KernelSpec& k = *find_rung("reg2d_tpad");
    const int64_t pad = k.find_param("PAD")->default_value;
    EXPECT_EQ(changed_params_text(k, {{"PAD", pad}}), "");
    EXPECT_EQ(compared_params_text(k, {{"PAD", pad}}, {{"PAD", 0}}), "PAD=" + std::to_string(pad));
    EXPECT_EQ(compared_params_text(k, {{"PAD", 0}}, {{"PAD", pad}}), "PAD=0");
    EXPECT_EQ(compared_params_text(k, {{"PAD", pad}}, {{"PAD", pad}}), "");  // the same on both: nothing to tell apart
    EXPECT_EQ(compared_params_text(k, {}, {{"PAD", 0}}), "PAD=" + std::to_string(pad));  // unset: the default in effect
}

// ---- every rung with tunable parameters verified on PoCL away from its defaults ----
// (Ladder/EveryRung in test_runner.cpp verifies every rung at its defaults.)

class TunableRung : public ::testing::TestWithParam<std::string> {};

// Whether the kernel builds at `c`: a rung's #error refuses an impossible combination of
// parameters (tune records it as refused).
bool builds(const LaunchConfig& c) {
    try {
        Runner(pocl()).validate(c);
        return true;
    } catch (const InputError&) {
        return false;
    }
}

TEST_P(TunableRung, VerifiesAtOtherParameters) {
    const KernelSpec& k = *find_rung(GetParam());
    // The smallest tile with the first candidate of every parameter, and the largest tile
    // with the last: two corners of the tuning space, at a rectangular size. Where a corner
    // is an impossible combination (warp_tile's sub-group tile must split evenly), the
    // defaults with the first parameter that can take that corner's candidate alone.
    for (const bool first : {true, false}) {
        LaunchConfig c{k, parse_size("70x52x41"), first ? k.tiles.front() : k.tiles.back()};
        for (const TunableParam& p : k.params) c.params[p.name] = first ? p.values.front() : p.values.back();
        if (!builds(c)) {
            std::optional<LaunchConfig> one;
            for (const TunableParam& p : k.params) {
                const int64_t v = first ? p.values.front() : p.values.back();
                if (v == p.default_value) continue;
                LaunchConfig d{k, c.size, k.default_tile, {{p.name, v}}};
                if (builds(d)) {
                    one = d;
                    break;
                }
            }
            ASSERT_TRUE(one) << GetParam() << ": no parameter builds at its " << (first ? "first" : "last")
                             << " candidate with the others at their defaults";
            c = *one;
        }
        const Measurement m = measure(c);
        EXPECT_TRUE(m.verification.verified) << GetParam() << " TS=" << c.tile << " " << params_text(k, c.params)
                                             << ": " << m.verification.summary();
    }
}

INSTANTIATE_TEST_SUITE_P(BeyondTheLesson, TunableRung,
                         ::testing::ValuesIn(test::rungs_where([](const KernelSpec& k) { return !k.params.empty(); })),
                         test::RungName());

TEST(NewRungs, BuildFailureForImpossibleParametersIsARefusal) {
    // WPTM must divide TS: the kernel's #error turns it into a build failure, which tune
    // records as refused.
    Runner r(pocl());
    LaunchConfig c{*find_rung("reg2d"), parse_size("64"), 64, {{"WPTM", 3}}};
    EXPECT_THROW(r.validate(c), InputError);
}

// ---- tuning files ----

TEST(Tuning, DeviceSlug) {
    EXPECT_EQ(device_slug("NVIDIA CUDA / NVIDIA H200"), "nvidia-cuda-nvidia-h200");
    EXPECT_EQ(device_slug("Portable Computing Language / pthread-skylake-avx512-Intel(R) Xeon(R) Processor"),
              "portable-computing-language-pthread-skylake-avx512-intel-r-xeon-r-processor");
    EXPECT_EQ(device_slug("///"), "device");
}

TEST(Tuning, SweepPointsStartAtTheDefaults) {
    const KernelSpec& k = *find_rung("reg2d");
    const auto all = sweep_points(k, {64, 32}, {});
    EXPECT_EQ(all.size(), 2u * 3 * 3 * 3);
    EXPECT_EQ(all.front().first, 64);
    EXPECT_EQ(all.front().second, (std::map<std::string, int64_t>{{"TSK", 16}, {"WPTM", 4}, {"WPTN", 4}}));
    const auto some = sweep_points(k, {64}, {{"WPTM", {2, 8}}, {"TSK", {8}}});
    EXPECT_EQ(some.size(), 2u * 3);
    for (const auto& [t, p] : some) EXPECT_EQ(p.at("TSK"), 8);
    EXPECT_EQ(sweep_points(*find_rung("tiled"), {4, 8, 16}, {}).size(), 3u);
}

TEST(Tuning, WriteThenReadBack) {
    std::vector<TuneResult> results(3);
    results[0] = {64, {{"TSK", 16}, {"WPTM", 4}, {"WPTN", 4}}, "ok", 10.0, 0.2, "16x16", "16x16", ""};
    results[1] = {32, {{"TSK", 8}, {"WPTM", 8}, {"WPTN", 8}}, "ok", 25.0, 0.08, "4x4", "4x4", ""};
    results[2] = {128, {{"TSK", 32}, {"WPTM", 2}, {"WPTN", 2}}, "refused", 0, 0, "64x64", "64x64", "too big"};
    EXPECT_EQ(best_result(results), 1);
    const std::string text = merge_tuning("", "Some / Device", "reg2d", parse_size("512"), results, "tilescope tune ...");
    const auto c = tuned_choice_in(text, "reg2d");
    ASSERT_TRUE(c);
    EXPECT_EQ(c->tile, 32);
    EXPECT_EQ(c->params, results[1].params);
    EXPECT_DOUBLE_EQ(c->gflops, 25.0);
    EXPECT_EQ(c->size, "512");
    EXPECT_FALSE(tuned_choice_in(text, "tiled"));
    const nlohmann::json doc = nlohmann::json::parse(text);
    EXPECT_EQ(doc["slug"], "some-device");
    EXPECT_EQ(doc["kernels"]["reg2d"]["results"].size(), 3u);  // every result is kept
    EXPECT_EQ(doc["kernels"]["reg2d"]["results"][2]["status"], "refused");
    // A second kernel is merged in; the first stays.
    std::vector<TuneResult> tiled = {{16, {}, "ok", 3.0, 0.1, "64x64", "16x16", ""}};
    const std::string both = merge_tuning(text, "Some / Device", "tiled", parse_size("512"), tiled, "");
    EXPECT_TRUE(tuned_choice_in(both, "reg2d"));
    EXPECT_EQ(tuned_choice_in(both, "tiled")->tile, 16);
    // No verified result: nothing to store.
    results[1].status = "wrong";
    results[0].status = "wrong";
    EXPECT_THROW(merge_tuning("", "d", "reg2d", parse_size("512"), results, ""), InputError);
    // Garbage is no choice, not a crash.
    EXPECT_FALSE(tuned_choice_in("{not json", "reg2d"));
    EXPECT_FALSE(tuned_choice_in("[]", "reg2d"));
    // A claimed figure past kMaxClaimedGflops (a forged file) is no choice either.
    nlohmann::json forged = nlohmann::json::parse(text);
    const auto claim = [&](double g) {  // the entry and each of its size buckets
        forged["kernels"]["reg2d"]["gflops"] = g;
        for (auto& [bucket, entry] : forged["kernels"]["reg2d"]["sizes"].items()) entry["gflops"] = g;
    };
    ASSERT_TRUE(forged["kernels"]["reg2d"].contains("sizes")) << forged.dump();
    claim(1e9);
    EXPECT_FALSE(tuned_choice_in(forged.dump(), "reg2d")) << forged.dump();
    claim(25.0);
    EXPECT_TRUE(tuned_choice_in(forged.dump(), "reg2d"));
}

TEST(Tuning, ApplyFromTheRunTimeDirectoryElseDefaults) {
    const fs::path dir = temp_dir("apply");
    ScopedEnv env("TILESCOPE_TUNING_DIR", dir.string());
    ScopedEnv xdg("XDG_DATA_HOME", (dir / "xdg").string());  // the user's own tuning plays no part either
    // A device of its own, so tuning data committed for this machine's PoCL plays no part: not its
    // exact name, nor a similar device's (a name with no LLVM target and no CPU maker has no family;
    // "<this CPU's name> for a tuning test" was found similar to the Xeon's file committed in
    // assets/tuning on a Xeon machine, session 52).
    DeviceInfo device = pocl();
    device.name = "a tuning test's own device";
    ASSERT_EQ(device_family(device.label()), "");
    LaunchConfig c{*find_rung("reg2d"), parse_size("96"), 64};
    EXPECT_TRUE(apply_tuning(c, device));  // no file: the parameters kept for CPUs (assets/tuning/defaults-cpu.json)
    EXPECT_EQ(c.params_source, "type-defaults");
    EXPECT_EQ(c.tuning_note, "defaults for CPUs");
    c = LaunchConfig{*find_rung("reg2d"), parse_size("96"), 64};

    std::vector<TuneResult> results = {{32, {{"TSK", 8}, {"WPTM", 2}, {"WPTN", 8}}, "ok", 5.0, 0.1, "", "", ""}};
    std::ofstream(dir / (device_slug(device) + ".json"))
        << merge_tuning("", device.label(), "reg2d", parse_size("96"), results, "");
    EXPECT_EQ(find_tuned(device_slug(device), "reg2d")->origin, (dir / (device_slug(device) + ".json")).string());
    EXPECT_TRUE(apply_tuning(c, device));
    EXPECT_EQ(c.params_source, "tuned");
    EXPECT_EQ(c.tile, 32);
    EXPECT_EQ(c.params.at("WPTN"), 8);
    const Measurement m = measure(c);
    EXPECT_TRUE(m.verification.verified) << m.verification.summary();
    EXPECT_EQ(m.params_source, "tuned");
    EXPECT_EQ(m.launch.params.at("WPTM"), 2);

    // Another rung: not this file's; the CPU defaults. A tuned parameter the rung no longer has: defaults.
    LaunchConfig other{*find_rung("reg2d_vec"), parse_size("96"), 64};
    EXPECT_TRUE(apply_tuning(other, device));
    EXPECT_EQ(other.params_source, "type-defaults");
    results[0].params["GONE"] = 3;
    std::ofstream(dir / (device_slug(device) + ".json"))
        << merge_tuning("", device.label(), "reg2d", parse_size("96"), results, "");
    LaunchConfig stale{*find_rung("reg2d"), parse_size("96"), 64};
    EXPECT_FALSE(apply_tuning(stale, device));
    EXPECT_EQ(stale.params_source, "default");
    fs::remove_all(dir);
}

// ---- tilescope tune and bench, end to end ----

#ifdef TILESCOPE_BIN
namespace {
int run(const std::string& args, std::string* out) {
    const fs::path dir = temp_dir("cli-out");
    const std::string cmd = std::string(TILESCOPE_BIN) + " " + args + " >" + (dir / "out").string() + " 2>" +
                            (dir / "err").string();
    const int raw = std::system(cmd.c_str());
    if (out) *out = slurp(dir / "out") + slurp(dir / "err");
    return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}
}  // namespace

TEST(TuneCommand, StoresTheBestAndBenchUsesIt) {
    const fs::path dir = temp_dir("tune");
    std::string out;
    ASSERT_EQ(run("tune --device pocl --kernel tiled_wpt --size 48x40x36 --tile 8,16 --param WPT=2,4 --reps 1 "
                  "--warmup 0 --out " + dir.string() + " --json " + (dir / "all.json").string(), &out), 0) << out;
    const fs::path file = dir / (device_slug(pocl()) + ".json");
    ASSERT_TRUE(fs::exists(file)) << out;
    const nlohmann::json doc = nlohmann::json::parse(slurp(file));
    EXPECT_EQ(doc["kernels"]["tiled_wpt"]["results"].size(), 4u) << doc.dump(1);
    EXPECT_EQ(nlohmann::json::parse(slurp(dir / "all.json")).size(), 4u);

    // bench picks the tuned tile and parameters up from the directory and says so.
    const std::string env = "TILESCOPE_TUNING_DIR=" + dir.string() + " ";
    ASSERT_EQ(std::system((env + TILESCOPE_BIN + " bench --device pocl --kernel tiled_wpt,tiled --size 48 --reps 1 "
                                                 "--json " + (dir / "t.json").string() + " >/dev/null 2>&1").c_str()),
              0);
    const nlohmann::json tuned = nlohmann::json::parse(slurp(dir / "t.json"));
    EXPECT_EQ(tuned[0]["params_source"], "tuned");
    EXPECT_EQ(tuned[0]["tile"], doc["kernels"]["tiled_wpt"]["tile"]);
    EXPECT_EQ(tuned[0]["params"], doc["kernels"]["tiled_wpt"]["params"]);
    // --tile or --param override tuning.
    ASSERT_EQ(std::system((env + TILESCOPE_BIN + " bench --device pocl --kernel tiled_wpt --size 48 --reps 1 --param "
                                                 "WPT=8 --json " + (dir / "g.json").string() + " >/dev/null 2>&1").c_str()),
              0);
    const nlohmann::json given = nlohmann::json::parse(slurp(dir / "g.json"));
    EXPECT_EQ(given[0]["params_source"], "given");
    EXPECT_EQ(given[0]["params"]["WPT"], 8);
    fs::remove_all(dir);
}

TEST(TuneCommand, BadInput) {
    std::string out;
    EXPECT_EQ(run("tune --device pocl --kernel clblast --dry-run", &out), 2) << out;
    EXPECT_EQ(run("tune --device pocl --kernel reg2d --param NOPE=1 --dry-run", &out), 2) << out;
    EXPECT_NE(out.find("--param"), std::string::npos) << out;
    EXPECT_EQ(run("tune --device emulator --kernel reg2d", &out), 2) << out;
    EXPECT_EQ(run("bench --device pocl --kernel tiled --param WPT=2", &out), 2) << out;
    EXPECT_EQ(run("tune --device pocl --kernel reg2d --tile 64 --param WPTM=2,4 --dry-run", &out), 0) << out;
    // Several sizes are for --quick (searched at the first, judged at each on a CPU), not a sweep.
    EXPECT_EQ(run("tune --device pocl --kernel reg2d --size 64,65 --dry-run", &out), 2) << out;
    EXPECT_NE(out.find("--size: a full sweep takes one size; accepted: one size, or --quick with several"), std::string::npos) << out;
    EXPECT_EQ(run("tune --device pocl --kernel reg2d --size 64,0 --quick --dry-run", &out), 2) << out;
    EXPECT_NE(out.find("--size"), std::string::npos) << out;
}
#endif
