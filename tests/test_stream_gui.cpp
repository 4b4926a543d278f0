// The first picture at once, in the live GUI (issue 12): `gui --kernel tiled --size 256
// --tile 16` draws work-group (0,0)'s phase 0 while the emulator still runs the other
// work-groups, and says on screen that the totals are partial. The time it takes is a
// benchmark's business (scripts/bench_first_picture.sh); here: that it happens before
// the launch ends, and what the window shows meanwhile.
#include <chrono>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <thread>

#include "gui_test_support.h"

namespace fs = std::filesystem;
using namespace tilescope::testing;

namespace {

fs::path temp_dir(const std::string& name) {
    const fs::path d = fs::temp_directory_path() / ("tilescope_stream_" + name + "_" + std::to_string(getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

// Waits until `gui`'s log holds a line matching `pattern`; the first match.
std::smatch wait_for_line(LiveGui& gui, const std::regex& pattern, double timeout_s, std::string& log) {
    std::smatch m;
    for (double t = 0; t < timeout_s && gui.alive(); t += 0.1) {
        log = gui.log();
        if (std::regex_search(log, m, pattern)) return m;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    log = gui.log();
    std::regex_search(log, m, pattern);
    return m;
}

// Files in the working folder whose names are not printable text.
std::set<std::string> garbage_names() {
    std::set<std::string> out;
    for (const auto& e : fs::directory_iterator(fs::current_path())) {
        const std::string name = e.path().filename().string();
        for (const char c : name)
            if (c < 0x20 || c >= 0x7f) {
                out.insert(name);
                break;
            }
    }
    return out;
}

}  // namespace

TEST(FirstPicture, GroupPhaseIsDrawnWhileTheLaunchGoesOn) {
    ASSERT_FALSE(XvfbEnvironment::display().empty()) << "no Xvfb";
    const fs::path dir = temp_dir("first");
    setenv("XDG_CONFIG_HOME", (dir / "config").c_str(), 1);  // no settings from earlier sessions
    const std::set<std::string> garbage_before = garbage_names();
    // A stranger's imgui.ini that crashed ImGui's own reader on every start (a table of -2 columns).
    const fs::path ini = dir / "config" / "tilescope" / "imgui.ini";
    fs::create_directories(ini.parent_path());
    const std::string planted = "[Table][0x00000001,-2]\n";
    std::ofstream(ini) << planted;
    LiveGui gui(TILESCOPE_BIN, dir, " --kernel tiled --size 256 --tile 16 --window 1280x720 --timings");
    std::string log;
    const std::regex first(R"(timing: first picture: work-group 0,0 phase 0 drawn ([0-9.]+) s after start \((partial, the launch goes on|complete): ([0-9]+) of ([0-9]+) work-groups traced\))");
    const std::smatch m = wait_for_line(gui, first, 300, log);
    ASSERT_FALSE(m.empty()) << log;
    EXPECT_EQ(m[2].str(), "partial, the launch goes on") << log;
    EXPECT_LT(std::stoul(m[3].str()), std::stoul(m[4].str())) << log;
    EXPECT_EQ(std::stoul(m[4].str()), 256u);
    EXPECT_TRUE(gui.alive()) << log;
    EXPECT_TRUE(gui.quit()) << "the window did not close while tracing:\n" << gui.log();
    EXPECT_EQ(gui.log().find("timing: complete trace"), std::string::npos)
        << "quit came after the trace ended; the test shows nothing about the first picture";
    // Closing wrote the settings where they belong, and nothing into the working folder
    // (a dangling settings path once wrote files of garbage names there); ImGui's imgui.ini is
    // neither read nor written (its reader trusted the file: session 51).
    EXPECT_TRUE(fs::exists(dir / "config" / "tilescope" / "settings.json"));
    std::ifstream in(ini);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), planted) << "imgui.ini was written";
    EXPECT_EQ(garbage_names(), garbage_before) << "files of garbage names appeared in " << fs::current_path();
}

// Resizing while the trace streams in: frames come fast then (the picture and the bar
// change), so a resize lands mid-frame, and Mesa once presented a region of a back buffer
// of the old size; the X server's BadValue ended the process.
TEST(FirstPicture, SurvivesResizesWhileTheLaunchGoesOn) {
    ASSERT_FALSE(XvfbEnvironment::display().empty()) << "no Xvfb";
    ASSERT_EQ(run("command -v xdotool >/dev/null"), 0) << "xdotool is missing (scripts/packages.txt)";
    const fs::path dir = temp_dir("resize");
    setenv("XDG_CONFIG_HOME", (dir / "config").c_str(), 1);
    unsetenv("TILESCOPE_FULL_REDRAW");  // the partial repaint is what is under test
    LiveGui gui(TILESCOPE_BIN, dir, " --kernel tiled --size 256 --tile 16 --window 1280x720 --timings");
    std::string log;
    ASSERT_FALSE(wait_for_line(gui, std::regex("timing: first picture"), 300, log).empty()) << log;
    const std::string window = output_of("timeout 30 xdotool search --sync --pid " + std::to_string(gui.pid()) + " --name '^tilescope$' | head -1");
    ASSERT_FALSE(window.empty()) << gui.log();
    const char* sizes[] = {"1920 1080", "900 600", "1600 1000", "800 600", "1920 1080", "1280 720", "1000 700", "1920 1080",
                           "700 500", "1280 720"};
    for (const char* size : sizes) {
        run("xdotool windowsize " + window + " " + size);
        std::this_thread::sleep_for(std::chrono::milliseconds(150));
        ASSERT_TRUE(gui.alive()) << "died after a resize to " << size << ":\n" << gui.log();
    }
    EXPECT_TRUE(gui.quit()) << gui.log();
}

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new XvfbEnvironment);
    return RUN_ALL_TESTS();
}
