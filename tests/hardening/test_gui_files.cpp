// Issue 23 in the GUI, under an Xvfb of its own:
//  - item 5, the GUI survives any file: a saved trace of a huge shape (C of 16 x 65,536,
//    the largest N the command line takes) whose texts are as long as a trace file may
//    hold them (a 256-character kernel name, 60,000-character title and lesson, a
//    200,000-character source line) opens and draws in every view; a lesson at the
//    limits (a 4,000-character script of one word) opens; one past them (25,000
//    characters) is one line and exit 2;
//  - item 7, the GUI's watchdog: a build past the build time limit (0.5 s here through
//    TILESCOPE_BUILD_TIMEOUT_S, 120 s by default) is said on screen, the window keeps
//    answering and closes at once; the worker leaves the call behind and runs the next job.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "core/base/errors.h"
#include "core/base/watchdog.h"
#include "core/io/trace_file.h"
#include "gui_test_support.h"
#include "ui/state/worker.h"

namespace fs = std::filesystem;
using namespace tilescope;
using Clock = std::chrono::steady_clock;

namespace {

const std::string kBin = TILESCOPE_BIN;
const std::string kData = TILESCOPE_HARDENING_DATA;

fs::path scratch() {
    static const fs::path dir = [] {
        const fs::path d = fs::temp_directory_path() / ("tilescope-gui-files-" + std::to_string(getpid()));
        fs::remove_all(d);
        fs::create_directories(d);
        return d;
    }();
    return dir;
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

struct Result {
    int status = -1;  // exit status; -1 when killed or not run
    std::string err;
    double seconds = 0;
};

// Runs `tilescope ARGS` (a shell line) with stdout discarded, stderr kept; at most 180 s.
Result run_tilescope(const std::string& args) {
    const fs::path err = scratch() / "stderr";
    const auto t0 = Clock::now();
    const int raw = std::system(("timeout -s KILL 180 " + kBin + " " + args + " >/dev/null 2>" + err.string()).c_str());
    return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(err),
            std::chrono::duration<double>(Clock::now() - t0).count()};
}

int lines(const std::string& s) { return int(std::count(s.begin(), s.end(), '\n')); }

size_t colours(const fs::path& png) {
    const tilescope::testing::Image img = tilescope::testing::load_png(png.string());
    std::set<uint32_t> seen;
    for (size_t i = 0; i + 2 < img.px.size() && seen.size() < 64; i += 3 * 7)
        seen.insert(uint32_t(img.px[i]) << 16 | uint32_t(img.px[i + 1]) << 8 | img.px[i + 2]);
    return seen.size();
}

std::string words(size_t chars) {
    std::string s;
    while (s.size() < chars) s += "tiles of A and B in local memory ";
    s.resize(chars);
    return s;
}

}  // namespace

TEST(GuiFiles, AHugeShapeWithHugeTextsOpensAndDrawsInEveryView) {
    ASSERT_FALSE(tilescope::testing::XvfbEnvironment::display().empty()) << "no Xvfb: the GUI cannot be tested";
    const fs::path base = scratch() / "base.tstrace";
    const Result traced = run_tilescope("trace --kernel naive --size 16x65536x1 --no-checks --save " + base.string());
    ASSERT_EQ(traced.status, 0) << traced.err;

    TraceFile f = load_trace_file(base.string());
    ASSERT_EQ(f.trace.size.N, 65536);
    const std::string name = "naive_" + std::string(250, 'n');  // the longest name a trace file holds
    f.launch.kernel.name = f.trace.kernel = name;
    // The longest entry name: the function renamed in the source too (the trace's entry must be the launch's).
    const std::string entry(256, 'e');
    const size_t at = f.launch.kernel.source.find(f.launch.kernel.entry + "(");
    ASSERT_NE(at, std::string::npos) << "no '" << f.launch.kernel.entry << "(' in naive.cl";
    f.launch.kernel.source.replace(at, f.launch.kernel.entry.size(), entry);
    f.launch.kernel.entry = f.trace.entry = entry;
    f.launch.kernel.title = std::string(60000, 'T');  // one word: nothing to wrap at
    f.launch.kernel.lesson = words(60000);
    f.launch.kernel.tile_meaning = std::string(60000, 'M');
    ASSERT_EQ(f.launch.kernel.source.rfind("//", 0), 0u) << "naive.cl no longer opens with a comment";
    // Its first line (a comment) made 200,000 characters longer: every traced line stays put.
    f.launch.kernel.source.insert(f.launch.kernel.source.find('\n'), " " + std::string(200000, 'x'));
    const fs::path hostile = scratch() / "huge.tstrace";
    save_trace_file(hostile.string(), f);
    try {
        load_trace_file(hostile.string());  // accepted, so the GUI really has to draw it
    } catch (const InputError& e) {
        FAIL() << "the edited trace is refused, so the GUI would never see it: " << e.what();
    }

    for (const std::string view : {"emulation", "heatmap", "source", "ladder"}) {
        const fs::path png = scratch() / (view + ".png"), text = scratch() / (view + ".txt");
        const Result r = run_tilescope("gui --open " + hostile.string() + " --view " + view + " --screenshot " + png.string() +
                                   " --text " + text.string());
        EXPECT_EQ(r.status, 0) << view << ": " << r.err;
        EXPECT_TRUE(fs::exists(png)) << view;
        EXPECT_GT(colours(png), 8u) << view << ": a blank window";
        const std::string drawn = slurp(text);
        EXPECT_LT(drawn.size(), 400000u) << view << ": more text drawn than fits a screen";
        // The long first line is painted (its start), cut at the window's edge.
        if (view == "source") EXPECT_NE(drawn.find("1 // Rung 1, naive"), std::string::npos) << "the long source line is not shown";
    }
}

TEST(GuiFiles, ALessonScriptAtTheLimitOpensAndOnePastItIsOneLine) {
    ASSERT_FALSE(tilescope::testing::XvfbEnvironment::display().empty()) << "no Xvfb: the GUI cannot be tested";
    auto lesson = [](const std::string& script) {
        return R"({"title": ")" + std::string(200, 'L') + R"(", "steps": [{"title": ")" + std::string(200, 'S') +
               R"(", "state": {"kernel": "tiled", "size": "16", "tile": 4}, "script": ")" + script + "\"}]}";
    };
    const fs::path at_limit = scratch() / "at-limit.json", past = scratch() / "past.json";
    std::ofstream(at_limit) << lesson(std::string(4000, 'w'));  // one 4,000-character word
    std::ofstream(past) << lesson(words(25000));
    const fs::path png = scratch() / "lesson.png";
    const Result opened = run_tilescope("gui --lesson " + at_limit.string() + " --step 1 --screenshot " + png.string());
    EXPECT_EQ(opened.status, 0) << opened.err;
    EXPECT_GT(colours(png), 8u);
    const Result refused = run_tilescope("gui --lesson " + past.string() + " --step 1 --screenshot " + png.string() + ".2");
    EXPECT_EQ(refused.status, 2) << refused.err;
    EXPECT_EQ(lines(refused.err), 1) << refused.err;
    EXPECT_NE(refused.err.find("'script' of 25000 characters"), std::string::npos) << refused.err;
    EXPECT_FALSE(fs::exists(png.string() + ".2"));
}

// The worker alone: a job blocked past its Deadline is ended with the watchdog's line and
// left behind; the next job runs on a fresh thread at once.
TEST(GuiWatchdog, AJobPastItsDeadlineIsLeftBehindAndTheNextJobRuns) {
    watchdog::enable_reporting();
    ui::Worker worker;
    std::atomic<bool> release{false};
    auto released = std::make_shared<std::atomic<bool>>(false);
    const ui::JobHandle stuck = worker.submit("stuck", [&release, released](ui::JobStatus&) -> std::any {
        const watchdog::Deadline limit("building kernel 'stuck'", 0.2, "accepted: a quicker build");
        while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(5));  // a build that does not return
        *released = true;
        return 1;
    });
    const auto t0 = Clock::now();
    while (!stuck->done && Clock::now() - t0 < std::chrono::seconds(10)) {
        worker.abandon_overdue();  // what the GUI does every frame
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    const double took = std::chrono::duration<double>(Clock::now() - t0).count();
    ASSERT_TRUE(stuck->done) << "the job was never ended";
    EXPECT_LT(took, 2.0);
    EXPECT_NE(stuck->error().find("building kernel 'stuck' took more than 0.2 s"), std::string::npos) << stuck->error();
    EXPECT_EQ(worker.abandoned(), 1);
    EXPECT_FALSE(*released);  // it really was still inside the call

    const ui::JobHandle next = worker.submit("next", [](ui::JobStatus&) -> std::any { return 42; });
    for (int i = 0; i < 500 && !next->done; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_TRUE(next->done) << "the queue is stuck behind the abandoned job";
    ASSERT_NE(next->result<int>(), nullptr) << next->error();
    EXPECT_EQ(*next->result<int>(), 42);
    EXPECT_FALSE(worker.abandon_overdue());  // nothing else is overdue
    release = true;  // the old thread returns, sees it was replaced, and leaves its job alone
    for (int i = 0; i < 200 && !*released; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(stuck->result<int>(), nullptr);
    EXPECT_NE(stuck->error().find("took more than"), std::string::npos);
}

// The live window: slow_build.cl takes seconds to build on the emulator; at a 0.5 s limit
// the build is left behind, the set-up panel says why, and the window still answers.
TEST(GuiWatchdog, ABuildPastTheLimitIsSaidAndTheWindowStaysLive) {
    ASSERT_FALSE(tilescope::testing::XvfbEnvironment::display().empty()) << "no Xvfb: the GUI cannot be tested";
    const fs::path dir = scratch() / "live";
    fs::create_directories(dir);
    setenv("TILESCOPE_BUILD_TIMEOUT_S", "0.5", 1);
    setenv("XDG_CONFIG_HOME", (dir / "config").c_str(), 1);  // no settings from an earlier session (presenter mode)
    tilescope::testing::LiveGui gui(kBin, dir,
                         " --window 1900x1060 --size 16 --source " + kData + "/slow_build.cl --entry slow_build --global 1"
                         " --local 1 --arg C=matrix:1x2:out --arg n=int:1");
    unsetenv("TILESCOPE_BUILD_TIMEOUT_S");
    const fs::path text = dir / "screen.txt";
    std::string shown_text;
    const auto t0 = Clock::now();
    while (Clock::now() - t0 < std::chrono::seconds(60) && gui.alive()) {
        fs::remove(text);
        std::ofstream(dir / "control.tmp") << "text " << text.string() << "\n";
        fs::rename(dir / "control.tmp", dir / "control");
        for (int i = 0; i < 50 && !fs::exists(text); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
        shown_text = slurp(text);
        std::replace(shown_text.begin(), shown_text.end(), '\n', ' ');
        if (shown_text.find("took more than 0.5 s") != std::string::npos) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
    const double took = std::chrono::duration<double>(Clock::now() - t0).count();
    ASSERT_TRUE(gui.alive()) << gui.log();
    EXPECT_NE(shown_text.find("building kernel 'slow_build'"), std::string::npos) << shown_text;
    EXPECT_NE(shown_text.find("took more than 0.5 s"), std::string::npos) << shown_text;
    EXPECT_LT(took, 30.0);
    EXPECT_TRUE(gui.screenshot(dir / "after.png", 30)) << "the window stopped answering: " << gui.log();
    const auto q0 = Clock::now();
    EXPECT_TRUE(gui.quit(10)) << gui.log();
    EXPECT_LT(std::chrono::duration<double>(Clock::now() - q0).count(), 5.0) << "closing waited for the build";
}

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new tilescope::testing::XvfbEnvironment);
    return RUN_ALL_TESTS();
}
