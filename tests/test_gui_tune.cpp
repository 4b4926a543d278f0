// "Tune this device" in the live GUI under an Xvfb the test starts itself: on a device
// with no tuning of its own (the tuning folders pointed at empty temporary ones), the
// performance view offers tune --quick for a named rung; clicking the button (xdotool)
// runs it on the worker and ends with the rung's row saying "tuned here" and a tuning file
// in the temporary folder; a second run cancelled from its Cancel button saves nothing.
// The window reports what it shows through `--control FILE`'s `state PATH`.
#include <fcntl.h>

#include <chrono>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "gui_test_support.h"

namespace fs = std::filesystem;
using namespace tilescope::testing;
using nlohmann::json;

namespace {

fs::path temp_dir(const std::string& name) {
    const fs::path d = fs::temp_directory_path() / ("tilescope_tune_" + name + "_" + std::to_string(getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

std::vector<fs::path> json_files(const fs::path& dir) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".json") out.push_back(it->path());
    return out;
}

// The shared LiveGui (gui_test_support.h) with any control command, `state` reports, and
// a wait for a state.
class TuneGui {
public:
    TuneGui(const fs::path& dir, const std::string& options) : dir_(dir), gui_(TILESCOPE_BIN, dir, options) {}
    bool alive() { return gui_.alive(); }
    std::string log() const { return gui_.log(); }
    // One command; a command the GUI has not taken yet is not overwritten (it reads the file within a frame).
    void command(const std::string& line) {
        for (int i = 0; i < 600 && alive() && fs::exists(dir_ / "control"); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        { std::ofstream(dir_ / "control.tmp") << line << "\n"; }
        fs::rename(dir_ / "control.tmp", dir_ / "control");
    }
    // One `state` report (null when the GUI died or did not answer).
    json state() {
        const fs::path out = dir_ / ("state_" + std::to_string(++n_) + ".json");
        command("state " + out.string());
        for (int i = 0; i < 600 && alive(); ++i) {  // answered within a frame; a minute for a loaded machine
            if (fs::exists(out)) {
                std::ifstream in(out);
                return json::parse(in, nullptr, false);
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return json();
    }
    // Reports until `done(state)`, at most `limit_s` (a guard against a hang, not a timing claim).
    json until(const std::function<bool(const json&)>& done, double limit_s) {
        const auto start = std::chrono::steady_clock::now();
        json s;
        while (alive() && std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < limit_s) {
            s = state();
            if (s.is_object() && done(s)) return s;
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
        return s;
    }
    bool screenshot(const fs::path& png) {
        command("screenshot " + png.string());
        for (int i = 0; i < 600 && alive(); ++i) {
            if (fs::exists(png)) return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return false;
    }

private:
    fs::path dir_;
    LiveGui gui_;
    int n_ = 0;
};

// Clicks the middle of a rectangle [x0, y0, x1, y1] of the window.
void click(const std::string& window, const json& rect) {
    const int x = int((float(rect[0]) + float(rect[2])) / 2), y = int((float(rect[1]) + float(rect[3])) / 2);
    run("xdotool mousemove --window " + window + " " + std::to_string(x) + " " + std::to_string(y));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // lets a frame see the hover before the press
    run("xdotool click 1");
}

const json* row_of(const json& state, const std::string& kernel) {
    for (const json& r : state["rows"])
        if (r["kernel"] == kernel) return &r;
    return nullptr;
}

}  // namespace

TEST(GuiTune, OfferOnAnUntunedDeviceThenTunedHereThenACancelSavesNothing) {
    ASSERT_FALSE(XvfbEnvironment::display().empty()) << "no Xvfb";
    ASSERT_EQ(run("command -v xdotool >/dev/null"), 0) << "xdotool is missing (scripts/packages.txt)";
    const fs::path dir = temp_dir("offer");
    const fs::path tuning = dir / "tuning";
    fs::create_directories(tuning);
    setenv("XDG_CONFIG_HOME", (dir / "config").c_str(), 1);  // no settings from earlier sessions
    setenv("XDG_DATA_HOME", (dir / "data").c_str(), 1);      // nor the user's own tuning
    setenv("TILESCOPE_TUNING_DIR", tuning.c_str(), 1);       // where the run must write
    setenv("POCL_CACHE_DIR", (dir / "pocl").c_str(), 1);     // every point built afresh, as on a first run
    TuneGui gui(dir, " --kernel tiled --size 32 --tile 8 --window 1280x720");
    const std::string window = output_of("timeout 30 xdotool search --sync --name '^tilescope$' | head -1");
    ASSERT_FALSE(window.empty()) << gui.log();

    // Every rung measured at 64: the offer names the rung, where its tuning comes from, and a time.
    gui.command("measure 64");
    json s = gui.until([](const json& j) { return !j["measuring"].get<bool>() && !j["rows"].empty(); }, 900);
    ASSERT_TRUE(s.is_object() && !s["rows"].empty()) << gui.log();
    EXPECT_EQ(s["view"], "performance");
    ASSERT_TRUE(s.contains("offer")) << s.dump(2);
    const std::string first = s["offer"]["kernel"];
    const json* row = row_of(s, first);
    ASSERT_NE(row, nullptr);
    EXPECT_NE((*row)["tuning"], "tuned here") << "the offer is for a rung this device has not tuned";
    EXPECT_EQ(s["offer"]["source"], (*row)["tuning"]);
    EXPECT_EQ(s["offer"]["size"], 64);
    EXPECT_GT(s["offer"]["about_s"].get<double>(), 0.0);
    EXPECT_GT(s["offer"]["points"].get<int>(), 1);
    ASSERT_TRUE(s["offer"]["button"].is_array()) << "the button was not drawn: " << s.dump(2);
    EXPECT_TRUE(json_files(tuning).empty()) << "measuring alone wrote a tuning file";
    EXPECT_TRUE(gui.screenshot(dir / "offer.png")) << gui.log();

    // Tune: the worker runs it; the rung's row then says "tuned here" and the file is in the folder.
    click(window, s["offer"]["button"]);
    s = gui.until([](const json& j) { return !j["tuning"]["running"].get<bool>() && !j["tuning"]["outcome"].get<std::string>().empty(); }, 600);
    ASSERT_TRUE(s.is_object()) << gui.log();
    EXPECT_EQ(s["tuning"]["kernel"], first);
    EXPECT_TRUE(s["tuning"]["saved"].get<bool>()) << s.dump(2);
    EXPECT_GT(s["tuning"]["done"].get<int>(), 1);
    EXPECT_GT(s["tuning"]["best_gflops"].get<double>(), 0.0);
    row = row_of(s, first);
    ASSERT_NE(row, nullptr);
    EXPECT_EQ((*row)["tuning"], "tuned here") << s.dump(2);
    const auto files = json_files(tuning);
    ASSERT_EQ(files.size(), 1u) << "no tuning file in " << tuning;
    std::string before;
    {
        std::ifstream in(files[0]);
        before.assign(std::istreambuf_iterator<char>(in), {});
        const json doc = json::parse(before, nullptr, false);
        ASSERT_TRUE(doc.is_object());
        EXPECT_TRUE(doc["kernels"].contains(first)) << before;
    }
    EXPECT_TRUE(json_files(dir / "data").empty());  // TILESCOPE_TUNING_DIR wins: nothing in the user's folder

    // A second offer (the next rung not tuned here), started and cancelled: nothing saved.
    s = gui.until([](const json& j) { return j.contains("offer") && j["offer"]["button"].is_array(); }, 120);
    ASSERT_TRUE(s.is_object() && s.contains("offer")) << "no second rung to offer: " << s.dump(2);
    const std::string second = s["offer"]["kernel"];
    EXPECT_NE(second, first);
    click(window, s["offer"]["button"]);
    s = gui.until([](const json& j) { return j["tuning"]["running"].get<bool>() && j["tuning"]["cancel_button"].is_array(); }, 120);
    ASSERT_TRUE(s.is_object() && s["tuning"]["running"].get<bool>()) << "the second run did not start: " << s.dump(2);
    EXPECT_EQ(s["tuning"]["kernel"], second);
    EXPECT_TRUE(gui.screenshot(dir / "running.png")) << gui.log();
    click(window, s["tuning"]["cancel_button"]);
    s = gui.until([](const json& j) { return !j["tuning"]["running"].get<bool>(); }, 120);
    ASSERT_TRUE(s.is_object()) << gui.log();
    EXPECT_EQ(s["tuning"]["outcome"], "Tuning cancelled; nothing saved") << s.dump(2);
    EXPECT_FALSE(s["tuning"]["saved"].get<bool>());
    row = row_of(s, second);
    ASSERT_NE(row, nullptr);
    EXPECT_NE((*row)["tuning"], "tuned here");
    ASSERT_EQ(json_files(tuning).size(), 1u);
    {
        std::ifstream in(files[0]);
        const std::string after(std::istreambuf_iterator<char>(in), {});
        EXPECT_EQ(after, before) << "the cancelled run changed the tuning file";
    }
    for (const auto& e : fs::directory_iterator(tuning))
        EXPECT_EQ(e.path().extension(), ".json") << "left behind: " << e.path();
    EXPECT_TRUE(gui.screenshot(dir / "cancelled.png")) << gui.log();
    gui.command("quit");
    EXPECT_EQ(gui.log().find("X Error"), std::string::npos) << gui.log();
}

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new XvfbEnvironment);
    return RUN_ALL_TESTS();
}
