// The set-up panel's validation (ui/state/setup_form.h): every bad input becomes one message
// for the panel, never an exception or a crash; good input implies the right NDRange.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "ui/state/setup_form.h"
#include "ui/state/settings.h"
#include "ui/shell/gui_options.h"

using namespace tilescope;
using namespace tilescope::ui;

namespace {

DeviceInfo small_device() {
    DeviceInfo d;
    d.name = "test device";
    d.max_work_group = 256;
    d.local_mem = 16 * 1024;
    return d;
}

}  // namespace

TEST(SetupForm, GoodInputImpliesTheLaunch) {
    SetupForm f;
    f.kernel = "tiled";
    f.size = "32";
    f.tile = 8;
    const DeviceInfo d = small_device();
    const SetupCheck c = check_setup(f, &d);
    ASSERT_TRUE(c.ok()) << c.problem;
    ASSERT_GE(c.implied.size(), 3u);
    EXPECT_EQ(c.implied[0], "NDRange 32x32, work-group 8x8");
    EXPECT_EQ(c.implied[1], "16 work-groups of 64 work-items");
    // 32/8 = 4 trips round the tile loop, 2 barriers each (as the slides count phases)
    EXPECT_EQ(c.implied[2], "4 phases per work-group (trips round the tile loop; 8 barriers per work-group)");
}

// The slides' quiz 1 (1,000 blocks of 512 threads) needs work-groups that are not TSxTS:
// tiled_wpt's are TS x TS/WPT. The form keeps the launch's parameters, so what it implies is
// that launch's (it showed the rung's default WPT=4, work-groups of 32x8, beside a WPT=2 trace).
TEST(SetupForm, ParametersOfTheLaunchShapeItsWorkGroups) {
    DeviceInfo d = small_device();
    d.max_work_group = 1024;
    SetupForm f;
    f.kernel = "tiled_wpt";
    f.size = "64";
    f.tile = 32;
    f.params = {{"WPT", 2}};
    SetupCheck c = check_setup(f, &d);
    ASSERT_TRUE(c.ok()) << c.problem;
    EXPECT_EQ(c.implied[0], "NDRange 64x32, work-group 32x16");
    EXPECT_EQ(c.implied[1], "4 work-groups of 512 work-items");
    ASSERT_TRUE(c.config);
    EXPECT_EQ(c.config->params.at("WPT"), 2);
    f.size = "800x1280x32";  // M x N x K: 1280/32 = 40 groups across, 800/32 = 25 down
    c = check_setup(f, &d);
    ASSERT_TRUE(c.ok()) << c.problem;
    EXPECT_EQ(c.implied[1], "1000 work-groups of 512 work-items");
    f.params.clear();  // the rung's default (WPT 4): 32x8
    EXPECT_EQ(check_setup(f, &d).implied[1], "1000 work-groups of 256 work-items");
    f.kernel = "tiled";  // another rung's parameter is left behind, not refused
    f.params = {{"WPT", 2}};
    c = check_setup(f, &d);
    ASSERT_TRUE(c.ok()) << c.problem;
    EXPECT_TRUE(c.config->params.empty());
}

TEST(SetupForm, BadInputIsAMessageNeverAThrow) {
    const DeviceInfo d = small_device();
    struct Bad {
        std::string kernel, size;
        int tile;
        std::string expect;  // a word the message must contain
    };
    const Bad cases[] = {
        // the field as the form labels it, never a command-line flag
        {"tiled", "0", 8, "Size"},          {"tiled", "abc", 8, "Size"},       {"tiled", "12x", 8, "Size"},
        {"tiled", "-4", 8, "Size"},         {"tiled", "", 8, "Size"},          {"tiled", "32", 0, "Tile size"},
        {"tiled", "32", -3, "Tile size"},   {"tiled", "32", 5000, "Tile size 5000 is too large"},
        {"nope", "32", 8, "Kernel"},
        {"tiled", "32", 32, "32x32 = 1024 work-items"},  // > 256
        {"tiled", "99999999999999999999", 8, "Size"},
    };
    for (const Bad& b : cases) {
        SetupForm f;
        f.kernel = b.kernel;
        f.size = b.size;
        f.tile = b.tile;
        SetupCheck c;
        EXPECT_NO_THROW(c = check_setup(f, &d)) << b.kernel << " " << b.size << " " << b.tile;
        EXPECT_FALSE(c.ok()) << b.kernel << " " << b.size << " " << b.tile;
        EXPECT_NE(c.problem.find(b.expect), std::string::npos) << c.problem;
        EXPECT_EQ(c.problem.find('\n'), std::string::npos) << "one line: " << c.problem;
        EXPECT_EQ(c.problem.find("--"), std::string::npos) << "no flags in the GUI: " << c.problem;
    }
}

// Traces run on the emulator: a tile it cannot run is flagged in the form, with its limit,
// even where the measuring device could run it (then only measuring is allowed).
TEST(SetupForm, TheEmulatorsLimitIsFlaggedBeforeTrace) {
    DeviceInfo emulator = small_device();
    emulator.is_emulator = true;
    emulator.max_work_group = 1024;
    DeviceInfo big = small_device();
    big.max_work_group = 4096;
    SetupForm f;
    f.kernel = "tiled";
    f.size = "64";
    f.tile = 64;
    const SetupCheck c = check_setup(f, &big, &emulator);
    EXPECT_FALSE(c.ok());
    EXPECT_NE(c.problem.find("Tile size 64 is too large"), std::string::npos) << c.problem;
    EXPECT_NE(c.problem.find("64x64 = 4096"), std::string::npos) << c.problem;
    EXPECT_NE(c.problem.find("emulator"), std::string::npos) << c.problem;
    EXPECT_NE(c.problem.find("1024"), std::string::npos) << c.problem;
    EXPECT_TRUE(c.device_problem.empty()) << c.device_problem;
    f.tile = 32;
    EXPECT_TRUE(check_setup(f, &big, &emulator).ok());
}

TEST(SetupForm, BadCustomKernelsAreMessages) {
    SetupForm f;
    f.kernel = "";  // custom
    EXPECT_FALSE(check_setup(f, nullptr).ok());
    f.source = "/nonexistent/kernel.cl";
    f.entry = "k";
    f.global = "M,N";
    f.local = "TS,TS";
    f.args = "A=matrix:MxK:in";
    const SetupCheck c = check_setup(f, nullptr);
    EXPECT_FALSE(c.ok());
    EXPECT_FALSE(c.problem.empty());
    f.source = std::string(TILESCOPE_KERNELS) + "/tiled.cl";
    f.entry = "mm_tiled";
    f.global = "N,M";
    f.local = "TS,TS";
    f.args = "M=int:M N=int:N K=int:K A=matrix:MxK:in B=matrix:KxN:in C=matrix:MxN:out";
    f.defines = "TS=TS";
    f.args += " X=bogus:1";
    EXPECT_FALSE(check_setup(f, nullptr).ok());
}

TEST(SetupForm, TheMenuHoldsTheLadderAndTheExercises) {
    bool tiled = false, exercise = false;
    for (const KernelSpec& k : kernel_menu()) {
        tiled |= k.name == "tiled";
        exercise |= k.name == "tiled_missing_barrier";
    }
    EXPECT_TRUE(tiled);
    EXPECT_TRUE(exercise);
}

// The slides' shared-memory table: TILE_WIDTH 16 -> 2 x 16 x 16 x 4 B = 2 KB per block.
// What the device reports is a cap per work-group, not a compute unit's pool (issue 33:
// "room for 512 work-groups" on PoCL, which runs one per core): the line says so and
// points at `tilescope occupancy` for groups per compute unit.
TEST(SetupForm, LocalMemoryLineGivesBytesPerGroupAndTheDevicesCap) {
    Trace t;
    t.local_buffers = {{"atile", 1024, 16, 16}, {"btile", 1024, 16, 16}};
    DeviceInfo d = small_device();
    d.name = "Test GPU";
    d.local_mem = 48 * 1024;
    EXPECT_EQ(local_memory_line(t, &d), "local memory per work-group: 2,048 B (atile 1,024 B + btile 1,024 B, traced); "
                                        "Test GPU lets a work-group use up to 48 KB (groups per compute unit: tilescope occupancy)");
    t.local_buffers = {{"atile", 4096, 32, 32}, {"btile", 4096, 32, 32}};  // TILE_WIDTH 32: 8 KB
    EXPECT_NE(local_memory_line(t, &d).find("8,192 B"), std::string::npos);
    EXPECT_EQ(local_memory_line(t, &d).find("room for"), std::string::npos);
    EXPECT_EQ(local_memory_line(Trace{}, &d), "");  // no local memory: no line
}

// Session 51: settings.json may come from anyone (a copied home folder). A speed of -5 froze Play
// and was saved again; a width of 1e30 was kept; reg2d at tile 3 stopped every start of
// `tilescope gui`, naming no file. Each value is taken only when the window could have saved
// it; a configuration that does not resolve falls back to the first lesson's.
TEST(SettingsFile, ValuesTheWindowCouldNotHaveSavedFallBackOneByOne) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("ts_settings_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir / "tilescope");
    setenv("XDG_CONFIG_HOME", dir.c_str(), 1);
    const auto load = [&](const std::string& text) {
        std::ofstream(dir / "tilescope" / "settings.json") << text;
        return ui::load_settings();
    };
    const ui::Settings d;
    ui::Settings s = load(R"({"speed": -5, "sidebar_width": 1e30, "tile": 4294967300, "view": "<script>", "presenter": true})");
    EXPECT_EQ(s.speed, d.speed);
    EXPECT_EQ(s.sidebar_width, d.sidebar_width);
    EXPECT_EQ(s.tile, d.tile);  // 2^32 + 4 is not read as 4
    EXPECT_EQ(s.view, d.view);
    EXPECT_TRUE(s.presenter);   // the good value beside them stays
    s = load(R"({"speed": 2.5, "sidebar_width": 600, "tile": 16, "view": "heatmap", "device": "\u001b[31m"})");
    EXPECT_EQ(s.speed, 2.5f);
    EXPECT_EQ(s.sidebar_width, 600.f);
    EXPECT_EQ(s.tile, 16);
    EXPECT_EQ(s.view, "heatmap");
    EXPECT_EQ(s.device, d.device);
    // A rung at a tile it cannot take: the GUI starts, on the default set-up.
    s = load(R"({"kernel": "reg2d", "size": "32", "tile": 3})");
    ASSERT_EQ(s.kernel, "reg2d");
    ui::GuiOptions g;
    ASSERT_NO_THROW(g = ui::parse_gui_options({}, s));
    ASSERT_TRUE(g.config.has_value());
    EXPECT_EQ(g.config->kernel.name, "tiled");
    EXPECT_EQ(g.config->tile, 8);
    std::filesystem::remove_all(dir);
}

// Presenter mode that a lesson's first step asks for is the lesson's, not the instructor's
// setting: the window does not save it for the next start (it did: every later start came
// back in presenter mode). Typed on the command line, it is the instructor's.
TEST(SettingsFile, PresenterFromALessonStepIsNotTheInstructorsSetting) {
    std::ifstream in(std::string(TILESCOPE_KERNELS) + "/../assets/lessons/2_tiling_4x4.json");
    nlohmann::json lesson = nlohmann::json::parse(in);
    lesson["steps"][0]["state"]["presenter"] = true;
    const std::string path = (std::filesystem::temp_directory_path() / ("ts_pres_" + std::to_string(::getpid()) + ".json")).string();
    std::ofstream(path) << lesson.dump();
    ui::GuiOptions g = ui::parse_gui_options({"--lesson", path}, ui::Settings{});
    EXPECT_TRUE(g.presenter);
    EXPECT_TRUE(g.presenter_by_lesson);
    g = ui::parse_gui_options({"--lesson", path, "--presenter"}, ui::Settings{});
    EXPECT_TRUE(g.presenter);
    EXPECT_FALSE(g.presenter_by_lesson);
    lesson["steps"][0]["state"].erase("presenter");
    std::ofstream(path) << lesson.dump();
    g = ui::parse_gui_options({"--lesson", path}, ui::Settings{});
    EXPECT_FALSE(g.presenter);
    EXPECT_FALSE(g.presenter_by_lesson);
    std::filesystem::remove(path);
}
