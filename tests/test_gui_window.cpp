// The GUI's window under an Xvfb the test starts itself: a live window survives being
// resized up and down (maximised included) with the partial repaint on, and after each
// change shows exactly what a fresh start at that size shows.
#include <fcntl.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "gui_test_support.h"

namespace fs = std::filesystem;
using namespace tilescope::testing;

namespace {

const std::string kSetup = " --kernel tiled --size 32 --tile 8";

fs::path temp_dir(const std::string& name) {
    const fs::path d = fs::temp_directory_path() / ("tilescope_window_" + name + "_" + std::to_string(getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

// Number of pixels that differ between two PNGs of the same size (-1: sizes differ).
long differing_pixels(const Image& a, const Image& b) {
    if (a.w != b.w || a.h != b.h || a.px.empty()) return -1;
    long n = 0;
    for (size_t i = 0; i < a.px.size(); i += 3)
        if (a.px[i] != b.px[i] || a.px[i + 1] != b.px[i + 1] || a.px[i + 2] != b.px[i + 2]) ++n;
    return n;
}

}  // namespace

TEST(GuiWindow, ResizedLiveWindowStaysAliveAndMatchesAFreshStart) {
    ASSERT_FALSE(XvfbEnvironment::display().empty()) << "no Xvfb";
    ASSERT_EQ(run("command -v xdotool >/dev/null"), 0) << "xdotool is missing (scripts/packages.txt)";
    const fs::path dir = temp_dir("resize");
    setenv("XDG_CONFIG_HOME", (dir / "config").c_str(), 1);  // no settings from earlier sessions
    unsetenv("TILESCOPE_FULL_REDRAW");                        // the partial repaint is what is under test
    LiveGui gui(TILESCOPE_BIN, dir, kSetup + " --window 1280x800");
    const std::string window = output_of("timeout 30 xdotool search --sync --name '^tilescope$' | head -1");
    ASSERT_FALSE(window.empty()) << gui.log();
    ASSERT_TRUE(gui.screenshot(dir / "first.png")) << gui.log();
    // Up and down, the last two the whole screen (Xvfb has no window manager to maximise).
    const std::pair<int, int> sizes[] = {{1400, 900}, {1920, 1080}, {900, 600}, {1600, 1000}, {800, 600}, {1281, 801},
                                         {1024, 768}, {1920, 1080}, {700, 500}, {1280, 720}, {1920, 1080}};
    int n = 0;
    for (const auto& [w, h] : sizes) {
        SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
        // the pointer where nothing reacts to it (the status line's corner, or off the window)
        run("xdotool mousemove 1919 1079");
        ASSERT_EQ(run("xdotool windowsize --sync " + window + " " + std::to_string(w) + " " + std::to_string(h)), 0);
        const fs::path live = dir / ("live_" + std::to_string(n) + ".png");
        const fs::path fresh = dir / ("fresh_" + std::to_string(n) + ".png");
        ASSERT_TRUE(gui.screenshot(live)) << "the live GUI died or did not answer:\n" << gui.log();
        ASSERT_EQ(run(std::string(TILESCOPE_BIN) + " gui" + kSetup + " --window " + std::to_string(w) + "x" + std::to_string(h) +
                      " --frames 3 --screenshot " + fresh.string() + " 2>/dev/null"),
                  0);
        const Image a = load_png(live.string()), b = load_png(fresh.string());
        EXPECT_EQ(a.w, w);
        EXPECT_EQ(a.h, h);
        EXPECT_EQ(differing_pixels(a, b), 0) << live << " differs from " << fresh;
        ++n;
    }
    EXPECT_TRUE(gui.alive()) << gui.log();
    EXPECT_EQ(gui.log().find("X Error"), std::string::npos) << gui.log();
}

namespace {

struct Layout {
    nlohmann::json j;
    const nlohmann::json* matrix(const std::string& role) const {
        for (const auto& m : j["matrices"])
            if (m["role"] == role) return &m;
        return nullptr;
    }
};

Layout layout_of(const std::string& options, const std::string& name) {
    const fs::path dir = temp_dir(name);
    const fs::path json = dir / "layout.json";
    const int rc = run(std::string(TILESCOPE_BIN) + " gui" + kSetup + options + " --frames 3 --layout " + json.string() +
                       " --screenshot " + (dir / "shot.png").string() + " 2>/dev/null");
    EXPECT_EQ(rc, 0) << options;
    std::ifstream in(json);
    Layout l;
    if (in) l.j = nlohmann::json::parse(in);
    return l;
}

float width_of(const nlohmann::json* m) { return m ? float((*m)["x1"]) - float((*m)["x0"]) : 0.f; }

}  // namespace

// A projector at 1280x720: C takes most of the height, every matrix inside the window,
// body text at least 28 px.
TEST(GuiWindow, PresenterModeAt1280x720GivesTheMatricesTheWindow) {
    const Layout l = layout_of(" --presenter --window 1280x720", "presenter720");
    ASSERT_TRUE(l.j.contains("matrices")) << "no layout file";
    const nlohmann::json* c = l.matrix("C");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(int((*c)["cols"]), 32);
    EXPECT_GE(width_of(c), 300.f);
    for (const auto& m : l.j["matrices"]) {
        SCOPED_TRACE(std::string(m["name"]));
        EXPECT_GE(float(m["x0"]), 0.f);
        EXPECT_GE(float(m["y0"]), 0.f);
        EXPECT_LE(float(m["x1"]), 1280.f);
        EXPECT_LE(float(m["y1"]), 720.f);
    }
    EXPECT_GE(float(l.j["font_px"]), 28.f);
}

TEST(GuiWindow, PresenterMatricesAreLargerThanNormalAt1920x1080) {
    const Layout presenter = layout_of(" --presenter --window 1920x1080", "presenter1080");
    const Layout normal = layout_of(" --window 1920x1080", "normal1080");
    const float p = width_of(presenter.matrix("C")), n = width_of(normal.matrix("C"));
    EXPECT_GT(n, 0.f);
    EXPECT_GT(p, n * 1.1f) << "presenter C " << p << " px, normal C " << n << " px";
}

// Filling the window, the matrices leave a column free on the right; the legend goes
// there, so that a projected view still says what its colours mean: the heatmap's colour
// scale (a ramp of many colours) and the emulation view's keys (A's colour among them).
TEST(GuiWindow, PresenterModeKeepsTheLegendBesideTheMatrices) {
    for (const char* view : {"emulation", "heatmap"})
        for (const auto& [w, h] : {std::pair{1280, 720}, std::pair{1920, 1080}}) {
            const std::string size = std::to_string(w) + "x" + std::to_string(h);
            SCOPED_TRACE(std::string(view) + " " + size);
            const std::string name = std::string("legend_") + view + "_" + size;
            const Layout l = layout_of(" --presenter --view " + std::string(view) + " --window " + size, name);
            ASSERT_TRUE(l.j.contains("legend")) << "no legend in presenter mode: " << l.j.dump();
            const auto& box = l.j["legend"];
            const float x0 = box["x0"], y0 = box["y0"], x1 = box["x1"], y1 = box["y1"], font = l.j["font_px"];
            for (const auto& m : l.j["matrices"]) EXPECT_GE(x0, float(m["x1"])) << "the legend covers " << m["name"];
            EXPECT_GE(y0, 0.f);
            EXPECT_LE(x1, float(w));
            EXPECT_LE(y1, float(h));
            EXPECT_GE(y1 - y0, font * 3) << "a legend of less than three lines";
            const Image shot = load_png((fs::temp_directory_path() / ("tilescope_window_" + name + "_" + std::to_string(getpid())) /
                                         "shot.png").string());
            ASSERT_EQ(shot.w, w);
            std::set<std::array<int, 3>> colours;
            bool a_key = false;
            const auto& a = l.j["colours"]["a_loaded"];
            for (int y = int(y0); y < int(y1); ++y)
                for (int x = int(x0); x < int(x1); ++x) {
                    const std::array<int, 3> c = shot.at(float(x), float(y));
                    colours.insert(c);
                    if (c[0] == int(a[0]) && c[1] == int(a[1]) && c[2] == int(a[2])) a_key = true;
                }
            if (std::string(view) == "heatmap") EXPECT_GE(colours.size(), 40u) << "no colour ramp in the legend";
            else EXPECT_TRUE(a_key) << "no key in A's colour in the legend";
        }
}

// Names on small cells leave the cells' colours showing (issue 33: at 8x8 the labels' white
// plates hid the fill that is the point of the picture). 8x8 matrices in a 1280x720 window
// name their cells on two lines ("M" over "0,4"); phase 1 loads A's tile of columns 4..7 in
// A's colour: at least half of each such cell's pixels are that colour, not a plate's.
TEST(GuiWindow, CellNamesLeaveTheFillColoursShowingAt8x8) {
    const fs::path dir = temp_dir("names8");
    const int rc = run(std::string(TILESCOPE_BIN) + " gui --kernel tiled --size 8 --tile 4 --phase 1 --window 1280x720 --frames 3 --layout " +
                       (dir / "layout.json").string() + " --text " + (dir / "text.txt").string() + " --screenshot " +
                       (dir / "shot.png").string() + " 2>/dev/null");
    ASSERT_EQ(rc, 0);
    std::ifstream in(dir / "layout.json");
    const nlohmann::json j = nlohmann::json::parse(in);
    const Image shot = load_png((dir / "shot.png").string());
    ASSERT_EQ(shot.w, 1280);
    std::ifstream text_in(dir / "text.txt");
    const std::string text((std::istreambuf_iterator<char>(text_in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("0,4"), std::string::npos) << "the cells are not named at all:\n" << text;
    const auto& a = j["colours"]["a_loaded"];
    const std::array<int, 3> colour{int(a[0]), int(a[1]), int(a[2])};
    for (const auto& m : j["matrices"]) {
        if (m["role"] != "A") continue;
        ASSERT_EQ(m["cols"], 8);
        const float x0 = m["x0"], y0 = m["y0"], cell = (float(m["x1"]) - x0) / 8.f;
        ASSERT_LT(cell, 40.f) << "not small cells: the test no longer tests small cells";
        for (int r = 0; r < 4; ++r)
            for (int c = 4; c < 8; ++c) {
                int same = 0, all = 0;
                for (float y = y0 + r * cell + 2; y < y0 + (r + 1) * cell - 2; ++y)
                    for (float x = x0 + c * cell + 2; x < x0 + (c + 1) * cell - 2; ++x, ++all) same += shot.at(x, y) == colour;
                EXPECT_GE(same * 2, all) << "cell (" << r << "," << c << "): " << same << " of " << all << " pixels in A's colour";
            }
    }
}

// Closing the window ends the process within seconds, whatever the background work is
// doing. A kernel that never ends (tests/kernels/endless.cl) traced on the emulator: the
// trace is cancelled (the plugin checks at every memory access) and the GUI ends as usual.
// A long launch on a device (naive at 4096^3 on PoCL, about a minute): OpenCL cannot
// interrupt it, so the GUI says so in one line and leaves without waiting for it.
TEST(GuiWindow, ClosesPromptlyWhateverTheWorkerIsDoing) {
    const std::string endless = std::string(" --device pocl --source ") + TILESCOPE_KERNEL_TESTS +
                                "/endless.cl --entry mm --global N,M --local 8,8 --arg M=int:M --arg N=int:N --arg K=int:K"
                                " --arg A=matrix:MxK:in --arg B=matrix:KxN:in --arg C=matrix:MxN:out --check C=A*B --size 16";
    for (const bool on_device : {false, true}) {
        SCOPED_TRACE(on_device ? "a long launch on the device" : "an endless kernel on the emulator");
        const fs::path dir = temp_dir(on_device ? "long_launch" : "endless");
        setenv("XDG_CONFIG_HOME", (dir / "config").c_str(), 1);
        LiveGui gui(TILESCOPE_BIN, dir, on_device ? " --device pocl" + kSetup : endless);
        if (on_device) {
            std::this_thread::sleep_for(std::chrono::seconds(2));
            std::ofstream(dir / "control.tmp") << "measure 4096\n";
            fs::rename(dir / "control.tmp", dir / "control");
        }
        std::this_thread::sleep_for(std::chrono::seconds(5));  // the trace, or the first launch, under way
        ASSERT_TRUE(gui.alive()) << gui.log();
        const auto asked = std::chrono::steady_clock::now();
        EXPECT_TRUE(gui.quit(15)) << "the window did not close within 15 s of quit:\n" << gui.log();
        const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - asked).count();
        const bool left_running = gui.log().find("OpenCL cannot interrupt it") != std::string::npos;
        if (on_device) EXPECT_TRUE(left_running) << "the launch should have been left running, and said so (" << took << " s):\n" << gui.log();
        else EXPECT_FALSE(left_running) << "the emulator's trace was not cancelled (" << took << " s):\n" << gui.log();
    }
}

// The window has no switch for Oclgrind's race check (the CLI's --no-checks): a trace past the
// limits with it and within them without it is traced without it, and the source view says
// that races were not looked for, and why. A kernel of 256 stores with a 2048x2048 matrix: the
// race check's shadow (about 180 bytes a byte, 2.9 GB) is past the 1 GiB limit; the rest fits.
TEST(GuiWindow, ATraceThatFitsOnlyWithoutTheRaceCheckIsTracedWithoutItAndSaysSo) {
    const fs::path dir = temp_dir("race_check");
    setenv("XDG_CONFIG_HOME", (dir / "config").c_str(), 1);
    const std::string setup = std::string(" --source ") + TILESCOPE_KERNEL_TESTS +
                              "/../hardening/data/one_store.cl --entry one_store --global 16,16 --local 1,1"
                              " --arg C=matrix:2048x2048:out --size 16";
    const int rc = run(std::string(TILESCOPE_BIN) + " gui" + setup + " --view source --window 1280x720 --frames 3 --text " +
                       (dir / "text.txt").string() + " 2>" + (dir / "err.txt").string());
    std::ifstream err_in(dir / "err.txt");
    const std::string err((std::istreambuf_iterator<char>(err_in)), std::istreambuf_iterator<char>());
    ASSERT_EQ(rc, 0) << err;
    std::ifstream text_in(dir / "text.txt");
    std::string text((std::istreambuf_iterator<char>(text_in)), std::istreambuf_iterator<char>());
    std::replace(text.begin(), text.end(), '\n', ' ');  // read back line by line as wrapped
    EXPECT_NE(text.find("races were not looked for (its race check was off: with Oclgrind's race check this trace needs about"),
              std::string::npos) << text;
    EXPECT_NE(text.find("past the limits of 15.0 min, 1.0 GB)"), std::string::npos) << text;
    EXPECT_EQ(text.find("Oclgrind's checks: no races"), std::string::npos) << text;
}

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new XvfbEnvironment);
    return RUN_ALL_TESTS();
}
