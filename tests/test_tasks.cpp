// The core tasks the CLI and the GUI share (core/tasks, issue 22): what the performance
// plan holds for a set-up, that `tilescope bench --plan performance` prints a record for
// exactly those points, and that a cancel stops the plan and tune --quick (nothing saved).
// Headless: PoCL for the measurements, the emulator for the plan's traces.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

#include "core/base/errors.h"
#include "core/kernel/catalog.h"
#include "core/tasks/performance.h"
#include "core/tasks/quick_tune.h"
#include "test_support.h"

namespace fs = std::filesystem;
using namespace tilescope;
using namespace tilescope::tasks;

namespace {

fs::path temp_dir(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("tilescope-tasks-" + std::to_string(getpid()) + "-" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

using test_support::slurp;

struct CliRun {
    int status = -1;
    std::string out, err;
};

CliRun run_cli(const std::string& args, const fs::path& dir) {
    const std::string cmd = std::string(TILESCOPE_BIN) + " " + args + " >" + (dir / "out").string() + " 2>" + (dir / "err").string();
    const int raw = std::system(cmd.c_str());
    return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(dir / "out"), slurp(dir / "err")};
}

int lines(const std::string& s) { return int(std::count(s.begin(), s.end(), '\n')); }

}  // namespace

TEST(PerformancePlan, HoldsWhatThePerformanceViewMeasures) {
    const PerformancePlan plan = performance_plan("pocl", 128);
    EXPECT_EQ(plan.device, "pocl");
    EXPECT_EQ(plan.size, 128);
    EXPECT_EQ(plan.reps, 3);
    EXPECT_EQ(plan.warmup, 1);
    EXPECT_TRUE(plan.ceilings);
    const auto& rungs = ladder();
    ASSERT_EQ(plan.points.size(), rungs.size() + 8 + 4);
    size_t i = 0;
    for (const KernelSpec& k : rungs) {  // every rung at 128, the device's tuning applied when it runs
        const PlanPoint& p = plan.points[i++];
        EXPECT_EQ(p.part, PlanPart::rungs);
        EXPECT_EQ(p.config.kernel.name, k.name);
        EXPECT_EQ(p.config.size, (ProblemSize{128, 128, 128}));
        EXPECT_EQ(p.config.tile, k.default_tile);
        EXPECT_TRUE(p.device_tuning);
    }
    for (const char* name : {"naive", "tiled"})  // against size, the device's tuning as the rungs have it
        for (int n : {64, 128, 256, 512}) {
            const PlanPoint& p = plan.points[i++];
            EXPECT_EQ(p.part, PlanPart::sizes);
            EXPECT_EQ(p.config.kernel.name, name);
            EXPECT_EQ(p.config.size, (ProblemSize{n, n, n}));
            EXPECT_EQ(p.config.tile, find_rung(name)->default_tile);
            EXPECT_TRUE(p.device_tuning);
        }
    for (int t : {4, 8, 16, 32}) {  // the tile sweep at the view's size
        const PlanPoint& p = plan.points[i++];
        EXPECT_EQ(p.part, PlanPart::tiles);
        EXPECT_EQ(p.config.kernel.name, "tiled");
        EXPECT_EQ(p.config.size, (ProblemSize{128, 128, 128}));
        EXPECT_EQ(p.config.tile, t);
    }
    // every rung but the library one traced at 64 for its intensity
    size_t traced = 0;
    for (const KernelSpec& k : rungs) {
        if (!k.library.empty()) continue;
        ASSERT_LT(traced, plan.intensity.size());
        EXPECT_EQ(plan.intensity[traced].kernel.name, k.name);
        EXPECT_EQ(plan.intensity[traced].size, (ProblemSize{64, 64, 64}));
        ++traced;
    }
    EXPECT_EQ(traced, plan.intensity.size());
}

// A size that is not one of the sweep's is added to it, so the line has a point beside the bars.
TEST(PerformancePlan, TheSizeSweepHasThePlansSize) {
    const PerformancePlan plan = performance_plan("pocl", 96);
    std::vector<int64_t> naive_sizes;
    for (const PlanPoint& p : plan.points)
        if (p.part == PlanPart::sizes && p.config.kernel.name == "naive") naive_sizes.push_back(p.config.size.M);
    EXPECT_EQ(naive_sizes, (std::vector<int64_t>{64, 96, 128, 256, 512}));
}

// One figure, one value (issue 21): the bars' naive and tiled and the size line's points at
// the same size are one Measurement (the same runs), not two sets of runs.
TEST(PerformancePlan, TheBarsAndTheSizeLineShareTheirRuns) {
    const fs::path dir = temp_dir("share");
    setenv("TILESCOPE_TUNING_DIR", (dir / "tuning").c_str(), 1);
    PerformancePlan plan = performance_plan("pocl", 64);
    std::vector<PlanPoint> kept;  // naive and tiled only, as bars and as the line (no ceilings, no traces: quick)
    for (const PlanPoint& p : plan.points)
        if ((p.config.kernel.name == "naive" || p.config.kernel.name == "tiled") && p.part != PlanPart::tiles &&
            p.config.size.M <= 128)
            kept.push_back(p);
    plan.points = kept;
    plan.ceilings = false;
    plan.intensity.clear();
    int shared = 0;
    const PerformanceResult r = run_performance_plan(plan, TaskProgress{}, [&](const PlanPointDone& d) { shared += d.shared; });
    EXPECT_EQ(shared, 2);  // naive and tiled at 64 ran once each
    for (const char* name : {"naive", "tiled"}) {
        const Measurement *bar = nullptr, *point = nullptr;
        for (const Measurement& m : r.rungs)
            if (m.kernel == name) bar = &m;
        for (const Measurement& m : r.sweep_sizes)
            if (m.kernel == name && m.size.M == 64) point = &m;
        ASSERT_TRUE(bar && point) << name;
        EXPECT_EQ(bar->times_s, point->times_s) << name;
        EXPECT_EQ(bar->gflops, point->gflops) << name;
        EXPECT_EQ(bar->tile, point->tile) << name;
    }
    // a CPU device: naive against tiled explained from these very runs
    ASSERT_TRUE(r.cpu_explained) << "PoCL is a CPU device";
    EXPECT_NE(r.cpu_explained->text().find("Measured on this CPU"), std::string::npos);
    fs::remove_all(dir);
}

// The CLI's one command for the GUI's Measure prints a record for every point of the same
// plan, in order; a point the device refuses is named on standard error instead.
TEST(PerformancePlan, BenchPlanPerformancePrintsARecordForEachPoint) {
    const fs::path dir = temp_dir("cli");
    setenv("TILESCOPE_TUNING_DIR", (dir / "tuning").c_str(), 1);  // no tuning from earlier runs
    setenv("XDG_DATA_HOME", (dir / "data").c_str(), 1);
    const CliRun r = run_cli("bench --plan performance --device pocl --size 64 --json " + (dir / "plan.json").string(), dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const PerformancePlan plan = performance_plan("pocl", 64);
    const nlohmann::json records = nlohmann::json::parse(slurp(dir / "plan.json"));
    ASSERT_TRUE(records.is_array());
    size_t refused = 0, at = 0;
    for (size_t i = 0; i < plan.points.size(); ++i) {
        const PlanPoint& p = plan.points[i];
        const std::string what = p.config.kernel.name + " " + p.config.size.label() + " refused";
        if (r.err.find(what) != std::string::npos && (at >= records.size() || records[at]["kernel"] != p.config.kernel.name ||
                                                      records[at]["part"] != to_string(p.part))) {
            ++refused;
            continue;
        }
        ASSERT_LT(at, records.size()) << "no record for point " << i << ": " << p.config.kernel.name;
        const nlohmann::json& rec = records[at++];
        EXPECT_EQ(rec["plan"], "performance");
        EXPECT_EQ(rec["part"], to_string(p.part)) << i;
        EXPECT_EQ(rec["kernel"], p.config.kernel.name) << i;
        EXPECT_EQ(rec["M"], p.config.size.M) << i;
        EXPECT_EQ(rec["N"], p.config.size.N) << i;
        EXPECT_EQ(rec["K"], p.config.size.K) << i;
        if (!p.device_tuning) {
            EXPECT_EQ(rec["tile"], p.config.tile) << i;
        }
        EXPECT_EQ(rec["reps"], plan.reps) << i;
    }
    EXPECT_EQ(at, records.size()) << "records beyond the plan";
    EXPECT_LE(refused, size_t(2)) << r.err;  // PoCL runs the ladder; a refusal or two at most (a library absent)
    // the table names the ceilings and every traced rung's intensity
    EXPECT_NE(r.out.find("ceilings"), std::string::npos) << r.out;
    for (const LaunchConfig& c : plan.intensity) EXPECT_NE(r.out.find("  " + c.kernel.name + " "), std::string::npos) << c.kernel.name;
}

// Issue 19: a kernel loaded from a file is measured beside the ladder (the GUI's Measure with
// a custom kernel on show, and bench --plan performance --source ...).
TEST(PerformancePlan, ACustomKernelIsMeasuredBesideTheRungs) {
    const std::string custom_args = std::string("--source ") + TILESCOPE_TEST_DATA + "/custom_cab.cl --entry matmul_cab"
        " --global '((N+15)/16)*16,((M+15)/16)*16' --local 16,16 --define BLOCK=16"
        " --arg C=matrix:MxN:out --arg A=matrix:MxK --arg B=matrix:KxN --arg wA=int:K --arg wB=int:N --arg hA=int:M"
        " --check C=A*B";
    const fs::path dir = temp_dir("custom");
    setenv("TILESCOPE_TUNING_DIR", (dir / "tuning").c_str(), 1);
    setenv("XDG_DATA_HOME", (dir / "data").c_str(), 1);
    const CliRun r = run_cli("bench --plan performance --device pocl --size 32 " + custom_args + " --json " +
                                 (dir / "plan.json").string(), dir);
    ASSERT_EQ(r.status, 0) << r.err;
    const nlohmann::json records = nlohmann::json::parse(slurp(dir / "plan.json"));
    int custom_rungs = 0, ladder_rungs = 0;
    for (const auto& rec : records) {
        if (rec["part"] != "rungs") continue;
        if (rec["kernel"] == "custom_cab") {
            ++custom_rungs;
            EXPECT_EQ(rec["M"], 32);
            EXPECT_EQ(rec["K"], 32);
            EXPECT_EQ(rec["verified"], true) << rec.dump();
            EXPECT_TRUE(rec["gflops"].is_number()) << rec.dump();
        } else {
            ++ladder_rungs;
        }
    }
    EXPECT_EQ(custom_rungs, 1) << r.out;
    EXPECT_GE(ladder_rungs, int(ladder().size()) - 2) << r.out;  // the ladder is still there beside it
    EXPECT_NE(r.out.find("  custom_cab "), std::string::npos) << r.out;  // and traced for its intensity
}

TEST(PerformancePlan, BadValuesExit2WithOneLine) {
    const fs::path dir = temp_dir("bad");
    for (const auto& [args, option, accepted] : std::vector<std::tuple<std::string, std::string, std::string>>{
             {"bench --plan fastest", "--plan fastest", "accepted: performance"},
             {"bench --plan performance --kernel naive", "--kernel", "accepted"},
             {"bench --plan performance --reps 5", "--reps", "accepted"},
             {"bench --plan performance --size 37x29x45", "--size 37x29x45", "accepted: N from 16 to 4096"},
             {"bench --plan performance --size 8", "--size 8", "accepted: N from 16 to 4096"},
             {"bench --plan performance --device emulator", "--device emulator", "pick a real device"}}) {
        const CliRun r = run_cli(args, dir);
        EXPECT_EQ(r.status, 2) << args << ": " << r.err;
        EXPECT_EQ(lines(r.err), 1) << args << ": " << r.err;
        EXPECT_NE(r.err.find(option), std::string::npos) << args << ": " << r.err;
        EXPECT_NE(r.err.find(accepted), std::string::npos) << args << ": " << r.err;
    }
    const CliRun help = run_cli("bench --help", dir);
    EXPECT_EQ(help.status, 0);
    EXPECT_NE(help.out.find("--plan performance"), std::string::npos);
}

// Cancel between points: the plan stops with Cancelled after the point in hand.
TEST(PerformancePlanCancel, StopsAfterThePointInHand) {
    std::atomic<bool> cancel{false};
    TaskProgress progress;
    progress.cancelled = [&] { return cancel.load(); };
    uint64_t units_total = 0;
    progress.units = [&](uint64_t, uint64_t total) { units_total = total; };
    int points = 0;
    const PerformancePlan plan = performance_plan("pocl", 64);
    EXPECT_THROW(run_performance_plan(plan, progress,
                                      [&](const PlanPointDone&) {
                                          ++points;
                                          cancel = true;  // the user's Cancel while the first point ran
                                      }),
                 Cancelled);
    EXPECT_EQ(points, 1);
    EXPECT_EQ(units_total, plan.points.size() + 2 + plan.intensity.size());
}

TEST(PerformancePlanCancel, ACancelBeforeTheStartMeasuresNothing) {
    TaskProgress progress;
    progress.cancelled = [] { return true; };
    int points = 0;
    EXPECT_THROW(run_performance_plan(performance_plan("pocl", 64), progress, [&](const PlanPointDone&) { ++points; }), Cancelled);
    EXPECT_EQ(points, 0);
}

// tune --quick, the task both the CLI and the GUI run: cancelled, it writes nothing.
TEST(QuickTuneTaskCancel, WritesNothing) {
    const fs::path dir = temp_dir("tune");
    QuickTuneJob job;
    job.device = "pocl";
    job.kernel = "reg2d_vec";
    job.size = ProblemSize{64, 64, 64};
    job.out_dir = (dir / "tuning").string();
    job.command = "test";
    std::atomic<int> seen{0};
    TaskProgress progress;
    progress.cancelled = [&] { return seen.load() >= 1; };
    QuickTuneHooks hooks;
    bool started = false;
    hooks.started = [&](const QuickTuneOutcome& so_far) {
        started = true;
        EXPECT_NE(so_far.path.find((dir / "tuning").string()), std::string::npos);
    };
    hooks.point = [&](int, int, const TuneResult&) { ++seen; };
    EXPECT_THROW(run_quick_tune(job, progress, hooks), Cancelled);
    EXPECT_TRUE(started);
    EXPECT_EQ(seen.load(), 1);
    size_t files = 0;
    for (const auto& e : fs::directory_iterator(dir / "tuning")) files += e.is_regular_file() ? 1 : 0;
    EXPECT_EQ(files, 0u) << "a cancelled run wrote a tuning file";
}

TEST(QuickTuneTask, EstimateKeepsToTheBudget) {
    const QuickTuneEstimate e = estimate_quick_tune("reg2d_vec", 100.0);
    EXPECT_TRUE(e.tunable);
    EXPECT_GT(e.points, 1);
    EXPECT_DOUBLE_EQ(e.seconds, kQuickTuneBudgetS);
    EXPECT_FALSE(estimate_quick_tune("clblast", 1.0).tunable);
    EXPECT_FALSE(estimate_quick_tune("no_such_rung", 1.0).tunable);
}
