// Issue 10 in the GUI, under an Xvfb of its own: every step of every lesson opens with
// `gui --lesson FILE --step N` and renders; a saved trace opens with no OpenCL driver
// registered; --record writes one GIF frame per interval.
#include <gtest/gtest.h>
#include <gif_lib.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>
#include <stb/stb_image.h>

#include "core/teach/lesson.h"
#include "gui_test_support.h"

namespace fs = std::filesystem;
using namespace tilescope;

namespace {

fs::path scratch() {
    static const fs::path dir = [] {
        const fs::path d = fs::temp_directory_path() / ("tilescope-lessons-gui-" + std::to_string(getpid()));
        fs::create_directories(d);
        return d;
    }();
    return dir;
}

struct Result {
    int status = -1;
    std::string err;
};

Result shell(const std::string& command) {
    const fs::path err = scratch() / "stderr";
    const int raw = std::system((command + " >/dev/null 2>" + err.string()).c_str());
    std::ifstream in(err);
    std::stringstream s;
    s << in.rdbuf();
    return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, s.str()};
}

// Distinct colours of a PNG: a rendered window has many, a blank one one or two.
size_t colours(const fs::path& png) {
    int w = 0, h = 0, n = 0;
    unsigned char* px = stbi_load(png.c_str(), &w, &h, &n, 3);
    if (!px) return 0;
    std::set<uint32_t> seen;
    for (int i = 0; i < w * h && seen.size() < 64; i += 7) seen.insert(uint32_t(px[3 * i]) << 16 | uint32_t(px[3 * i + 1]) << 8 | px[3 * i + 2]);
    stbi_image_free(px);
    return seen.size();
}

struct StepCase {
    std::string file;
    int step = 0;  // 1-based, as --step takes it
};

std::vector<StepCase> every_step() {
    std::vector<StepCase> out;
    for (const auto& entry : fs::directory_iterator(TILESCOPE_LESSONS)) {
        if (entry.path().extension() != ".json") continue;
        const Lesson l = load_lesson(entry.path().string());
        for (size_t i = 0; i < l.steps.size(); ++i) out.push_back({entry.path().string(), int(i + 1)});
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return std::tie(a.file, a.step) < std::tie(b.file, b.step); });
    return out;
}

}  // namespace

class LessonStepOpens : public ::testing::TestWithParam<StepCase> {};

TEST_P(LessonStepOpens, OpensAndRenders) {
    const StepCase& c = GetParam();
    const fs::path png = scratch() / (fs::path(c.file).stem().string() + "-" + std::to_string(c.step) + ".png");
    const Result r = shell(std::string(TILESCOPE_BIN) + " gui --lesson " + c.file + " --step " + std::to_string(c.step) +
                           " --frames 3 --screenshot " + png.string());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_GE(colours(png), 6u) << png;
}

INSTANTIATE_TEST_SUITE_P(Lessons, LessonStepOpens, ::testing::ValuesIn(every_step()), [](const auto& info) {
    std::string name = fs::path(info.param.file).stem().string() + "_step" + std::to_string(info.param.step);
    for (char& ch : name)
        if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
    return name;
});

TEST(LessonCli, BadStepsAndFilesAreOneLineAndExitTwo) {
    const std::string lesson = std::string(TILESCOPE_LESSONS) + "/1_naive.json";
    const std::vector<std::string> cases = {"--lesson " + lesson + " --step 0", "--lesson " + lesson + " --step 99", "--step 2",
                                            "--lesson /nonexistent.json"};
    for (const std::string& args : cases) {
        const Result r = shell(std::string(TILESCOPE_BIN) + " gui " + args + " --frames 1");
        EXPECT_EQ(r.status, 2) << args;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
}

TEST(OpenSavedTrace, RendersWithNoOpenClDriverRegistered) {
    const fs::path saved = scratch() / "race.tstrace", empty = scratch() / "no-icds", png = scratch() / "open.png";
    ASSERT_EQ(shell(std::string(TILESCOPE_BIN) + " trace --kernel tiled_missing_barrier --size 32 --tile 8 --save " + saved.string()).status, 0);
    fs::create_directories(empty);
    const Result r = shell("OCL_ICD_VENDORS=" + empty.string() + " " + TILESCOPE_BIN + " gui --open " + saved.string() +
                           " --group 1,1 --frames 3 --screenshot " + png.string());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_GE(colours(png), 6u);
    EXPECT_EQ(shell(std::string(TILESCOPE_BIN) + " gui --open " + saved.string() + " --kernel naive --frames 1").status, 2);
}

TEST(Record, OneGifFramePerInterval) {
    const fs::path gif = scratch() / "phases.gif", js = scratch() / "phases.json";
    ASSERT_EQ(shell(std::string(TILESCOPE_BIN) + " trace --kernel tiled --size 32 --tile 8 --groups 1,2 --json " + js.string()).status, 0);
    std::ifstream in(js);
    const nlohmann::json j = nlohmann::json::parse(in);
    size_t intervals = 0;
    for (const auto& g : j["per_group"])
        if (g["group"][0] == 1 && g["group"][1] == 2) intervals = g["intervals"].size();
    ASSERT_GT(intervals, 1u);
    const Result r = shell(std::string(TILESCOPE_BIN) + " gui --kernel tiled --size 32 --tile 8 --group 1,2 --record " + gif.string());
    ASSERT_EQ(r.status, 0) << r.err;
    int err = 0;
    GifFileType* f = DGifOpenFileName(gif.c_str(), &err);
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(DGifSlurp(f), GIF_OK);
    EXPECT_EQ(size_t(f->ImageCount), intervals);
    // Consecutive frames differ: the tiles move.
    ASSERT_GE(f->ImageCount, 3);
    const size_t n = size_t(f->SWidth) * size_t(f->SHeight);
    EXPECT_NE(std::vector<GifByteType>(f->SavedImages[0].RasterBits, f->SavedImages[0].RasterBits + n),
              std::vector<GifByteType>(f->SavedImages[2].RasterBits, f->SavedImages[2].RasterBits + n));
    DGifCloseFile(f, &err);
}

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new tilescope::testing::XvfbEnvironment);
    const int status = RUN_ALL_TESTS();
    std::fflush(nullptr);
    std::_Exit(status);
}
