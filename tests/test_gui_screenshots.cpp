// GUI screenshot tests: run `tilescope gui` in scripted mode under an Xvfb the test
// starts itself, and check from the PNG that the cells highlighted as "loaded this
// phase" are exactly those the trace says, for several configurations. The GUI writes
// where it drew each matrix (--layout); the test traces the same launch itself.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/kernel/catalog.h"
#include "core/emulator/trace_runner.h"
#include "core/trace/phases.h"
#include "core/trace/view_model.h"
#include "gui_test_support.h"

namespace fs = std::filesystem;
using namespace tilescope;
using tilescope::testing::Image;
using tilescope::testing::load_png;
using tilescope::testing::run;
using tilescope::testing::XvfbEnvironment;

namespace {

bool near(const std::array<int, 3>& a, const nlohmann::json& rgb) {
    for (int c = 0; c < 3; ++c)
        if (std::abs(a[c] - rgb[c].get<int>()) > 10) return false;
    return true;
}

struct Case {
    const char* kernel;
    int size, tile;
    GroupId group;
    int phase;         // the slides' phase
    const char* part;  // "" = the phase's first part
};
// gtest prints a parameter in test listings: the configuration, not its bytes.
void PrintTo(const Case& c, std::ostream* os) {
    *os << c.kernel << " " << c.size << " TS " << c.tile << " group " << c.group[0] << "," << c.group[1] << " phase " << c.phase
        << (*c.part ? std::string(" ") + c.part : std::string());
}

class GuiScreenshot : public ::testing::TestWithParam<Case> {};

}  // namespace

TEST_P(GuiScreenshot, LoadedCellsAreWhereTheTraceSays) {
    ASSERT_FALSE(XvfbEnvironment::display().empty()) << "could not start Xvfb";
    const Case c = GetParam();
    const fs::path dir = fs::temp_directory_path() / ("tilescope_gui_test_" + std::to_string(getpid()));
    fs::create_directories(dir);
    const std::string tag = std::string(c.kernel) + "_" + std::to_string(c.size) + "_" + std::to_string(c.tile) + "_" +
                            std::to_string(c.group[0]) + std::to_string(c.group[1]) + "_" + std::to_string(c.phase);
    const std::string png = (dir / (tag + ".png")).string(), layout = (dir / (tag + ".json")).string();
    const std::string group = std::to_string(c.group[0]) + "," + std::to_string(c.group[1]);
    const std::string cmd = std::string(TILESCOPE_BIN) + " gui --kernel " + c.kernel + " --size " + std::to_string(c.size) +
                            " --tile " + std::to_string(c.tile) + " --group " + group + " --phase " + std::to_string(c.phase) +
                            (*c.part ? std::string(" --part '") + c.part + "'" : std::string()) + " --frames 3 --screenshot " + png + " --layout " + layout;
    ASSERT_EQ(run(cmd), 0) << cmd;
    const Image img = load_png(png);
    ASSERT_GT(img.w, 0);
    nlohmann::json lay;
    std::ifstream(layout) >> lay;

    // the same launch, traced here
    TraceOptions o;
    o.groups = {c.group};
    const Trace t = run_trace(LaunchConfig{*find_rung(c.kernel), ProblemSize{c.size, c.size, c.size}, c.tile}, o);
    const int interval = phase_plan(t, c.group).interval_of(c.phase, c.part);
    ASSERT_GE(interval, 0);
    const GroupPhaseView v = group_phase_view(t, matrix_roles(t), c.group, interval);
    ASSERT_TRUE(v.has_detail);
    EXPECT_EQ(lay["interval"], interval);

    int loaded_cells = 0;
    for (const auto& m : lay["matrices"]) {
        const std::string role = m["role"];
        if (role != "A" && role != "B") continue;
        const auto& rects = role == "A" ? v.a_loaded : v.b_loaded;
        const nlohmann::json& colour = lay["colours"][role == "A" ? "a_loaded" : "b_loaded"];
        const int rows = m["rows"], cols = m["cols"];
        const float x0 = m["x0"], y0 = m["y0"], x1 = m["x1"], y1 = m["y1"];
        const float cw = (x1 - x0) / cols, ch = (y1 - y0) / rows;
        ASSERT_GE(cw, 3.f) << "cells too small to sample";
        for (int r = 0; r < rows; ++r)
            for (int col = 0; col < cols; ++col) {
                bool expected = false;
                for (const Rect& rc : rects) expected |= r >= rc.r0 && r <= rc.r1 && col >= rc.c0 && col <= rc.c1;
                const auto px = img.at(x0 + (col + 0.5f) * cw, y0 + (r + 0.5f) * ch);
                const bool seen = near(px, colour);
                EXPECT_EQ(seen, expected) << role << "(" << r << "," << col << ") pixel " << px[0] << "," << px[1] << "," << px[2];
                loaded_cells += seen;
            }
    }
    uint64_t traced = 0;
    for (const Rect& r : v.a_loaded) traced += uint64_t(r.area());
    for (const Rect& r : v.b_loaded) traced += uint64_t(r.area());
    EXPECT_EQ(uint64_t(loaded_cells), traced);
    fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Configs, GuiScreenshot,
                         ::testing::Values(Case{"tiled", 32, 8, {1, 2, 0}, 0, ""},      // the Done-means picture
                                           Case{"tiled", 32, 8, {2, 1, 0}, 1, "load"},  // another group, next tiles along K
                                           Case{"tiled", 32, 8, {1, 2, 0}, 0, "use"},   // a use part: nothing loaded
                                           Case{"tiled", 48, 16, {2, 0, 0}, 2, ""},     // TS=16, last phase's loads
                                           Case{"naive", 16, 4, {1, 3, 0}, 0, ""}),     // naive: whole rows and columns
                         [](const auto& info) {
                             const Case& c = info.param;
                             return std::string(c.kernel) + "_" + std::to_string(c.size) + "_TS" + std::to_string(c.tile) + "_g" +
                                    std::to_string(c.group[0]) + std::to_string(c.group[1]) + "_p" + std::to_string(c.phase) +
                                    (*c.part ? std::string("_") + c.part : std::string());
                         });

// Frames repaint only what changed (gfx/damage_renderer); the picture must be the one a
// full repaint gives.
TEST(GuiCli, PartialRepaintGivesTheSamePictureAsAFullOne) {
    ASSERT_FALSE(XvfbEnvironment::display().empty());
    const fs::path dir = fs::temp_directory_path() / ("tilescope_gui_damage_" + std::to_string(getpid()));
    fs::create_directories(dir);
    const std::string args = " gui --kernel tiled --size 32 --tile 8 --group 1,2 --phase 2 --frames 20 --screenshot ";
    ASSERT_EQ(run(std::string(TILESCOPE_BIN) + args + (dir / "partial.png").string()), 0);
    ASSERT_EQ(run("TILESCOPE_FULL_REDRAW=1 " + std::string(TILESCOPE_BIN) + args + (dir / "full.png").string()), 0);
    const Image a = load_png((dir / "partial.png").string()), b = load_png((dir / "full.png").string());
    ASSERT_GT(a.w, 0);
    EXPECT_EQ(a.w, b.w);
    EXPECT_EQ(a.h, b.h);
    EXPECT_TRUE(a.px == b.px);
    fs::remove_all(dir);
}

TEST(GuiCli, NoDisplayIsOneLineAndExitTwo) {
    const std::string out = (fs::temp_directory_path() / "tilescope_gui_nodisplay.txt").string();
    EXPECT_EQ(run("env -u DISPLAY -u WAYLAND_DISPLAY " + std::string(TILESCOPE_BIN) + " gui --frames 1 2>" + out), 2);
    std::ifstream in(out);
    std::string line, extra;
    std::getline(in, line);
    EXPECT_NE(line.find("display"), std::string::npos) << line;
    EXPECT_FALSE(std::getline(in, extra)) << "more than one line";
}

TEST(GuiCli, BadInputIsOneLineAndExitTwo) {
    const std::string out = (fs::temp_directory_path() / "tilescope_gui_bad.txt").string();
    for (const std::string args :
         {"--view nope", "--group 9,9 --size 32 --tile 8", "--phase -1", "--size 0", "--frames x", "--naming greek",
          "--part nope", "--phase 0 --interval 1",
          // values the launch does not have: P is 3x3; tiled 4x4 TS 2 has 2 phases, its use parts 2
          // iterations, its groups 2x2 work-items, and phase 0 no store part
          "--kernel tiled --size 3 --tile 2 --hover 3,2 --frames 1",
          "--kernel tiled --size 4 --tile 2 --phase 2 --frames 1",
          "--kernel tiled --size 4 --tile 2 --phase 0 --part store --frames 1",
          "--kernel tiled --size 4 --tile 2 --phase 0 --part use --iteration 2 --frames 1",
          "--kernel tiled --size 4 --tile 2 --item 2,0 --frames 1",
          "--kernel tiled --size 4 --tile 2 --item 0,0,5 --frames 1"}) {  // a Z outside (session 51: accepted)
        EXPECT_EQ(run(std::string(TILESCOPE_BIN) + " gui " + args + " 2>" + out), 2) << args;
        std::ifstream in(out);
        std::string line, extra;
        std::getline(in, line);
        EXPECT_FALSE(line.empty()) << args;
        EXPECT_FALSE(std::getline(in, extra)) << args << ": more than one line";
    }
}

TEST(GuiCli, FrameStatsLineHasTheContractFormat) {
    ASSERT_FALSE(XvfbEnvironment::display().empty());
    const std::string out = (fs::temp_directory_path() / "tilescope_gui_stats.txt").string();
    ASSERT_EQ(run(std::string(TILESCOPE_BIN) + " gui --kernel tiled --size 16 --tile 8 --play --frames 10 --frame-stats >" + out), 0);
    std::ifstream in(out);
    std::string line;
    std::getline(in, line);
    int n = 0;
    double a = 0, b = 0, m = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "frames=%d p50_ms=%lf p95_ms=%lf max_ms=%lf", &n, &a, &b, &m), 4) << line;
    EXPECT_EQ(n, 10);
    EXPECT_LE(a, b);
    EXPECT_LE(b, m);
}

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new XvfbEnvironment);
    const int status = RUN_ALL_TESTS();
    // no static destructors: CLBlast aborts in its own at exit once PoCL is loaded
    std::fflush(nullptr);
    std::_Exit(status);
}
