// Issue 10 in the GUI, under an Xvfb of its own: every step of every lesson opens with
// `gui --lesson FILE --step N` and renders; a saved trace opens with no OpenCL driver
// registered; --record writes one GIF frame per interval.
#include <gtest/gtest.h>
#include <gif_lib.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <array>
#include <filesystem>
#include <iterator>
#include <map>
#include <optional>
#include <tuple>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>
#include <stb/stb_image.h>

#include "core/teach/lesson.h"
#include "core/teach/palette.h"
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
// gtest prints a parameter in test listings: the lesson and step, not their bytes.
void PrintTo(const StepCase& c, std::ostream* os) { *os << fs::path(c.file).filename().string() << " step " << c.step; }

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

// Issue 24, item 4: a trace saved with --caches opens with its memory hierarchy, the saved
// report's figures, with no OpenCL driver at all (nothing to replay: no requests are saved).
TEST(OpenSavedTrace, ShowsTheSavedCacheReportWithNoOpenCl) {
    const fs::path saved = scratch() / "caches.tstrace", js = scratch() / "caches.json", text = scratch() / "caches.txt";
    const fs::path empty = scratch() / "no-icds-caches";
    ASSERT_EQ(shell(std::string(TILESCOPE_BIN) + " trace --kernel tiled --size 16 --tile 8 --no-checks --caches h200 --json " +
                    js.string() + " --save " + saved.string()).status, 0);
    std::ifstream in(js);
    const nlohmann::json totals = nlohmann::json::parse(in)["caches"]["totals"];
    const uint64_t l1 = totals["l1_sectors"].get<uint64_t>();
    ASSERT_GT(l1, 0u);
    ASSERT_LT(l1, 1000u);  // written out in full, not as "1.2k"
    fs::create_directories(empty);
    const Result r = shell("OCL_ICD_VENDORS=" + empty.string() + " " + TILESCOPE_BIN + " gui --open " + saved.string() +
                           " --window 1600x3000 --frames 3 --text " + text.string());
    ASSERT_EQ(r.status, 0) << r.err;
    std::ifstream tin(text);
    const std::string drawn((std::istreambuf_iterator<char>(tin)), std::istreambuf_iterator<char>());
    EXPECT_NE(drawn.find("Memory hierarchy"), std::string::npos);
    EXPECT_NE(drawn.find(std::to_string(l1) + " load sectors"), std::string::npos) << drawn;
    // (the L2 and DRAM boxes lie beyond the side panel's width at this window: not in the text)
    char hit[32];
    std::snprintf(hit, sizeof hit, "%.1f%% hit", 100.0 * totals["l1_hit_sectors"].get<double>() / double(l1));
    EXPECT_NE(drawn.find(hit), std::string::npos) << drawn;
    EXPECT_EQ(drawn.find("trace the kernel again"), std::string::npos) << drawn;
}

// The frames a GIF of tiled at tile TS must have: one per part, but TS for a use part (one
// per iteration: the tiled kernel reads each tile TS times, once per k).
size_t tiled_gif_frames(const fs::path& json, int gx, int gy, size_t ts) {
    std::ifstream in(json);
    const nlohmann::json j = nlohmann::json::parse(in);
    size_t frames = 0;
    for (const auto& g : j["per_group"])
        if (g["group"][0] == gx && g["group"][1] == gy)
            for (const auto& ph : g["phase_list"])
                for (const auto& part : ph["parts"]) frames += part["part"] == "use" ? ts : 1;
    return frames;
}

TEST(Record, OneGifFramePerPartAndIterationReadableByAll) {
    const fs::path gif = scratch() / "phases.gif", js = scratch() / "phases.json";
    ASSERT_EQ(shell(std::string(TILESCOPE_BIN) + " trace --kernel tiled --size 32 --tile 8 --groups 1,2 --json " + js.string()).status, 0);
    const size_t frames = tiled_gif_frames(js, 1, 2, 8);
    ASSERT_EQ(frames, 4u * (1 + 8) + 1);  // 4 phases of load and 8 iterations of use, then the store
    std::filesystem::remove(gif);
    const Result r = shell("umask 022; " + std::string(TILESCOPE_BIN) + " gui --kernel tiled --size 32 --tile 8 --group 1,2 --record " + gif.string());
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(std::filesystem::status(gif).permissions() & std::filesystem::perms::all,
              std::filesystem::perms::owner_read | std::filesystem::perms::owner_write | std::filesystem::perms::group_read |
                  std::filesystem::perms::others_read);  // 0644, as docs/guide's images are kept
    int err = 0;
    GifFileType* f = DGifOpenFileName(gif.c_str(), &err);
    ASSERT_NE(f, nullptr);
    ASSERT_EQ(DGifSlurp(f), GIF_OK);
    EXPECT_EQ(size_t(f->ImageCount), frames);
    // Consecutive frames differ: the tiles move.
    ASSERT_GE(f->ImageCount, 3);
    const size_t n = size_t(f->SWidth) * size_t(f->SHeight);
    EXPECT_NE(std::vector<GifByteType>(f->SavedImages[0].RasterBits, f->SavedImages[0].RasterBits + n),
              std::vector<GifByteType>(f->SavedImages[2].RasterBits, f->SavedImages[2].RasterBits + n));
    DGifCloseFile(f, &err);
}

// Issue 21: lesson 6 compares one rung at two parameter values; gui takes --param and
// --compare-param and refuses bad ones with exit 2 and one line.
TEST(CompareParams, GuiTakesThemAndRefusesBadOnes) {
    const std::string bin = TILESCOPE_BIN;
    for (const char* bad : {" gui --kernel tiled --compare-param PAD=0 --frames 1",
                            " gui --kernel reg2d_tpad --compare reg2d_tpad --compare-param PADX=0 --frames 1",
                            " gui --kernel tiled --param PAD=0 --frames 1",
                            " gui --kernel reg2d_tpad --param PAD=x --frames 1"}) {
        const Result r = shell(bin + bad);
        EXPECT_EQ(r.status, 2) << bad;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << bad << ": " << r.err;
    }
    const fs::path png = scratch() / "compare_params.png";
    const Result ok = shell(bin + " gui --lesson " + TILESCOPE_LESSONS + "/6_coalescing_banks.json --step 3 --frames 3 --screenshot " + png.string());
    EXPECT_EQ(ok.status, 0) << ok.err;
    EXPECT_GE(colours(png), 6u);
}

// Issue 21: the GIF's caption fits (wrapped, never cut), the group's local arrays stand right
// of C in the palette's local colours, a frame per part.
struct GifFrames {
    int w = 0, h = 0;
    std::vector<std::vector<palette::Rgb>> frames;
};

GifFrames decode(const fs::path& path) {
    GifFrames out;
    int err = 0;
    GifFileType* f = DGifOpenFileName(path.c_str(), &err);
    if (!f || DGifSlurp(f) != GIF_OK) return out;
    out.w = f->SWidth, out.h = f->SHeight;
    for (int i = 0; i < f->ImageCount; ++i) {
        const SavedImage& im = f->SavedImages[i];
        const ColorMapObject* m = im.ImageDesc.ColorMap ? im.ImageDesc.ColorMap : f->SColorMap;
        std::vector<palette::Rgb> px(size_t(out.w) * size_t(out.h));
        for (size_t k = 0; k < px.size(); ++k) {
            const GifColorType c = m->Colors[im.RasterBits[k]];
            px[k] = {c.Red, c.Green, c.Blue, 255};
        }
        out.frames.push_back(std::move(px));
    }
    DGifCloseFile(f, &err);
    return out;
}

TEST(Record, CaptionFitsLocalArraysShowOneFramePerPartAndIteration) {
    const palette::Colours& pal = palette::light();
    const palette::Rgb white{255, 255, 255, 255};
    struct Case {
        std::string setup;
        int gx, gy;
        size_t min_caption_lines;
        int ts;
    };
    // 4x4 makes the narrowest picture (its caption must wrap); 32x32 TS 8 cut "line 33; 8" before.
    for (const Case& c : {Case{"--kernel tiled --size 4 --tile 2", 1, 1, 4, 2}, Case{"--kernel tiled --size 32 --tile 8", 1, 2, 3, 8}}) {
        SCOPED_TRACE(c.setup);
        const fs::path gif = scratch() / "caption.gif", js = scratch() / "caption.json";
        const std::string g = std::to_string(c.gx) + "," + std::to_string(c.gy);
        ASSERT_EQ(shell(std::string(TILESCOPE_BIN) + " trace " + c.setup + " --groups " + g + " --json " + js.string()).status, 0);
        const size_t parts = tiled_gif_frames(js, c.gx, c.gy, size_t(c.ts));
        ASSERT_GT(parts, 1u);
        const Result r = shell(std::string(TILESCOPE_BIN) + " gui " + c.setup + " --group " + g + " --record " + gif.string());
        ASSERT_EQ(r.status, 0) << r.err;
        const GifFrames f = decode(gif);
        ASSERT_EQ(f.frames.size(), parts);
        bool saw_read = false, saw_filled = false;
        for (size_t i = 0; i < f.frames.size(); ++i) {
            SCOPED_TRACE("frame " + std::to_string(i));
            const auto& px = f.frames[i];
            auto at = [&](int x, int y) { return px[size_t(y) * size_t(f.w) + size_t(x)]; };
            // Nothing touches the right edge (the old caption ran off it, cut mid-word).
            for (int y = 0; y < f.h; ++y)
                for (int x = f.w - 3; x < f.w; ++x) ASSERT_EQ(at(x, y), white) << "ink at the right edge, row " << y;
            // The caption band: the rows above the first matrix outline; its text rows.
            int band = 0;
            while (band < f.h && [&] { for (int x = 0; x < f.w; ++x) if (at(x, band) == pal.outline) return false; return true; }()) ++band;
            ASSERT_LT(band, f.h);
            size_t text_rows = 0;
            bool in_text = false;
            for (int y = 0; y < band; ++y) {
                bool ink = false;
                for (int x = 0; x < f.w && !ink; ++x) ink = at(x, y) == pal.text;
                if (ink && !in_text) ++text_rows;
                in_text = ink;
            }
            EXPECT_GE(text_rows, c.min_caption_lines) << "caption lines (and the matrices' names)";
            // The body ends at the lowest long outline (the bottom of A and C; the key's swatches are short).
            int body_bottom = 0, c_right = 0, longest = 0;
            for (int y = 0; y < f.h; ++y) {
                int run = 0;
                for (int x = 0; x < f.w; ++x) {
                    run = at(x, y) == pal.outline ? run + 1 : 0;
                    if (run >= 30) body_bottom = y;
                    if (run > longest) longest = run, c_right = x;  // B's and C's borders are the longest
                }
            }
            size_t locals = 0, locals_inside = 0;
            for (int y = band; y < body_bottom; ++y)
                for (int x = 0; x < f.w; ++x) {
                    const palette::Rgb p = at(x, y);
                    const bool local = p == pal.local_filled || p == pal.local_held || p == pal.local_read;
                    if (!local) continue;
                    (x > c_right ? locals : locals_inside) += 1;
                    saw_read |= p == pal.local_read, saw_filled |= p == pal.local_filled;
                }
            EXPECT_EQ(locals_inside, 0u);
            if (i > 0) EXPECT_GT(locals, 20u) << "the local arrays right of C";  // part 0 of tiled loads: filled from then on
        }
        EXPECT_TRUE(saw_read) << "a use part reads the local arrays";
        EXPECT_TRUE(saw_filled) << "a load part fills them";
    }
}

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new tilescope::testing::XvfbEnvironment);
    const int status = RUN_ALL_TESTS();
    std::fflush(nullptr);
    std::_Exit(status);
}

// Issue 19: the slides' tiling section as a lesson, frame by frame. For every step, what
// the GUI draws (the frame it paints, written to --layout) is held to the slide: the cells
// of M, N, P and of the local arrays, each with its role and the element it names or
// holds, written out here by hand from the slides (not read back from a trace).
namespace {

using Cells = std::set<std::tuple<int, int, std::string, std::string>>;  // row, col, role, label
using Expected = std::map<std::string, Cells>;                           // array -> its cells

Cells block(int r0, int c0, int rows, int cols, const std::string& role, char letter, int lr0, int lc0) {
    Cells out;  // cells (r0.., c0..) with role, naming letter(lr0 + dr, lc0 + dc)
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            out.insert({r0 + r, c0 + c, role, std::string(1, letter) + std::to_string(lr0 + r) + "," + std::to_string(lc0 + c)});
    return out;
}
Cells operator+(Cells a, const Cells& b) {
    a.insert(b.begin(), b.end());
    return a;
}
const Cells kAllOfP = {{0, 0, "accumulates", "P0,0"}, {0, 1, "accumulates", "P0,1"}, {1, 0, "accumulates", "P1,0"},
                       {1, 1, "accumulates", "P1,1"}};

// A use part at iteration i of a 2x2 tile: column i of atile and row i of btile are read,
// the other cells hold what the load stored (M at rows m0.., columns k0..; N at rows k0..).
Expected use(int i, int k0) {
    Expected e;
    for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 2; ++c) {
            e["atile"].insert({r, c, c == i ? "read" : "holds", "M" + std::to_string(r) + "," + std::to_string(k0 + c)});
            e["btile"].insert({r, c, r == i ? "read" : "holds", "N" + std::to_string(k0 + r) + "," + std::to_string(c)});
        }
    e["C"] = kAllOfP;
    return e;
}

}  // namespace

// Issue 33: after → the strip no longer says "Phase 0 Load" over phase 1's load: its heading
// is the frame on show (the command line's --phase/--part stand in for the keys). Step 1 asks
// how many phases there are, so until Reveal the heading names the frame without its phase
// number (on the last phase it would be the answer less one); after Reveal, with it.
TEST(SlidesLesson, TheStripFollowsTheFrameShown) {
    ASSERT_FALSE(std::string(std::getenv("DISPLAY") ? std::getenv("DISPLAY") : "").empty()) << "no Xvfb";
    const std::string lesson = std::string(TILESCOPE_LESSONS) + "/9_slides_frame_by_frame.json";
    for (const bool revealed : {false, true}) {
        SCOPED_TRACE(revealed ? "after Reveal" : "before Reveal");
        const fs::path layout = scratch() / (revealed ? "strip_follows_revealed.json" : "strip_follows.json");
        const Result r = shell(std::string(TILESCOPE_BIN) + " gui --lesson " + lesson + " --step 1 --phase 1 --part load" +
                               (revealed ? " --reveal" : "") + " --window 1280x720 --frames 2 --layout " + layout.string());
        ASSERT_EQ(r.status, 0) << r.err;
        nlohmann::json j;
        std::ifstream(layout) >> j;
        EXPECT_EQ(j.value("frame_title", ""), "Phase 1 Load for Block (0,0)");
        const std::string shown = revealed ? "Phase 1 Load for Block (0,0)" : "This phase: Load for Block (0,0)";
        EXPECT_EQ(j.value("lesson_heading", "").rfind(shown + "  (stepped on from: ", 0), 0u) << j.value("lesson_heading", "");
    }
}

// Issue 33 item 3: the slides' single thread of the first "major case" (Block(1,1), local id
// (0,1), lesson 9 step 8) marked on the projector: every cell it touches in phase 0's load
// (N1,2 it loads, atile(1,0) where it writes a 0, btile(1,0) where it stores N1,2) carries the
// picked work-item's ring with its dark inner line; the cells its neighbours touch do not.
TEST(SlidesLesson, TheMajorCasesThreadIsMarkedOnTheCellsItTouches) {
    ASSERT_FALSE(std::string(std::getenv("DISPLAY") ? std::getenv("DISPLAY") : "").empty()) << "no Xvfb";
    const std::string lesson = std::string(TILESCOPE_LESSONS) + "/9_slides_frame_by_frame.json";
    const fs::path layout = scratch() / "major_case.json", png = scratch() / "major_case.png";
    const Result r = shell(std::string(TILESCOPE_BIN) + " gui --lesson " + lesson + " --step 8 --window 1280x720 --frames 4 --layout " +
                           layout.string() + " --screenshot " + png.string());
    ASSERT_EQ(r.status, 0) << r.err;
    nlohmann::json j;
    std::ifstream(layout) >> j;
    const tilescope::testing::Image img = tilescope::testing::load_png(png.string());
    // Along a row a quarter of the way down the cell (above its centred label), a dark pixel in
    // the cell's left half: the ring's inner line (fills, labels' plates and the ring are light).
    auto marked = [&](const std::string& role_or_name, int row, int col) {
        for (const auto& m : j["matrices"]) {
            if (m["role"] != role_or_name && m["name"] != role_or_name) continue;
            const float x0 = m["x0"], y0 = m["y0"], x1 = m["x1"];
            const float cs = (x1 - x0) / float(m["cols"].get<int>());
            const float y = y0 + (float(row) + 0.22f) * cs;
            for (float x = x0 + float(col) * cs + 1; x < x0 + (float(col) + 0.4f) * cs; x += 1) {
                const auto p = img.at(x, y);
                if (p[0] < 70 && p[1] < 70 && p[2] < 70) return true;
            }
            return false;
        }
        ADD_FAILURE() << "no matrix " << role_or_name << " in the layout";
        return false;
    };
    EXPECT_TRUE(marked("B", 1, 2)) << "N1,2, which it loads";
    EXPECT_TRUE(marked("atile", 1, 0)) << "the 0 it writes";
    EXPECT_TRUE(marked("btile", 1, 0)) << "where it stores N1,2";
    EXPECT_FALSE(marked("B", 0, 2)) << "N0,2, loaded by work-item (0,0)";
    EXPECT_FALSE(marked("btile", 0, 0));
    EXPECT_FALSE(marked("atile", 0, 0));
}

TEST(SlidesLesson, EveryStepShowsTheSlidesCellsAndNames) {
    ASSERT_FALSE(std::string(std::getenv("DISPLAY") ? std::getenv("DISPLAY") : "").empty()) << "no Xvfb";
    const std::string lesson = std::string(TILESCOPE_LESSONS) + "/9_slides_frame_by_frame.json";
    // 4x4, TS 2, block (0,0); then 3x3, TS 2
    Expected load0, load1, load3x3, load3x3_b11;
    load0["A"] = block(0, 0, 2, 2, "loaded", 'M', 0, 0);
    load0["B"] = block(0, 0, 2, 2, "loaded", 'N', 0, 0);
    load0["atile"] = block(0, 0, 2, 2, "stored", 'M', 0, 0);
    load0["btile"] = block(0, 0, 2, 2, "stored", 'N', 0, 0);
    load1["A"] = block(0, 2, 2, 2, "loaded", 'M', 0, 2);
    load1["B"] = block(2, 0, 2, 2, "loaded", 'N', 2, 0);
    load1["atile"] = block(0, 0, 2, 2, "stored", 'M', 0, 2);
    load1["btile"] = block(0, 0, 2, 2, "stored", 'N', 2, 0);
    load3x3["A"] = {{0, 2, "loaded", "M0,2"}, {1, 2, "loaded", "M1,2"}};
    load3x3["B"] = {{2, 0, "loaded", "N2,0"}, {2, 1, "loaded", "N2,1"}};
    load3x3["atile"] = {{0, 0, "stored", "M0,2"}, {0, 1, "stored", "0"}, {1, 0, "stored", "M1,2"}, {1, 1, "stored", "0"}};
    load3x3["btile"] = {{0, 0, "stored", "N2,0"}, {0, 1, "stored", "N2,1"}, {1, 0, "stored", "0"}, {1, 1, "stored", "0"}};
    load3x3_b11["A"] = {{2, 0, "loaded", "M2,0"}, {2, 1, "loaded", "M2,1"}};
    load3x3_b11["B"] = {{0, 2, "loaded", "N0,2"}, {1, 2, "loaded", "N1,2"}};
    load3x3_b11["atile"] = {{0, 0, "stored", "M2,0"}, {0, 1, "stored", "M2,1"}, {1, 0, "stored", "0"}, {1, 1, "stored", "0"}};
    load3x3_b11["btile"] = {{0, 0, "stored", "N0,2"}, {0, 1, "stored", "0"}, {1, 0, "stored", "N1,2"}, {1, 1, "stored", "0"}};
    Expected ts16, ts32;
    ts16["A"] = block(0, 0, 16, 16, "loaded", 'M', 0, 0);
    ts32["A"] = block(0, 0, 32, 32, "loaded", 'M', 0, 0);
    struct Step {
        std::string title;  // the slide's frame, as the GUI titles it
        Expected cells;
        std::optional<std::array<int, 2>> item;
    };
    const std::vector<Step> steps = {
        {"Phase 0 Load for Block (0,0)", load0, {}},
        {"Phase 0 Use for Block (0,0) (iteration 0)", use(0, 0), {}},
        {"Phase 0 Use for Block (0,0) (iteration 1)", use(1, 0), {}},
        {"Phase 1 Load for Block (0,0)", load1, {}},
        {"Phase 1 Use for Block (0,0) (iteration 0)", use(0, 2), {}},
        {"Phase 1 Use for Block (0,0) (iteration 1)", use(1, 2), {}},
        {"Phase 1 Load for Block (0,0)", load3x3, {}},
        {"Phase 0 Load for Block (1,1)", load3x3_b11, std::array<int, 2>{0, 1}},
        {"Phase 1 Load for Block (0,0)", load3x3, std::array<int, 2>{0, 1}},
        {"Phase 0 Load for Block (0,0)", ts16, {}},
        {"Phase 0 Load for Block (0,0)", ts32, {}},
        // quiz 1: tiled_wpt's 32x16 work-groups (TS 32, WPT 2) load the same 32x32 tile of M
        {"Phase 0 Load for Block (0,0)", ts32, {}},
    };
    ASSERT_EQ(load_lesson(lesson).steps.size(), steps.size());
    for (size_t i = 0; i < steps.size(); ++i) {
        SCOPED_TRACE("step " + std::to_string(i + 1) + ": " + steps[i].title);
        const fs::path layout = scratch() / ("slides" + std::to_string(i + 1) + ".json");
        const Result r = shell(std::string(TILESCOPE_BIN) + " gui --lesson " + lesson + " --step " + std::to_string(i + 1) +
                               " --window 1280x720 --frames 2 --layout " + layout.string());
        ASSERT_EQ(r.status, 0) << r.err;
        nlohmann::json j;
        std::ifstream(layout) >> j;
        EXPECT_EQ(j.value("frame_title", ""), steps[i].title);
        EXPECT_EQ(j.value("lesson_heading", ""), load_lesson(lesson).steps[i].title);  // the step's own frame: its title
        if (steps[i].item) EXPECT_EQ(j["item"], nlohmann::json::array({(*steps[i].item)[0], (*steps[i].item)[1]}));
        for (const auto& [array, expected] : steps[i].cells) {
            Cells seen;
            for (const auto& c : j["cells"][array]) {
                // the 32x32 step: only its tile of M is written out; P's block is not a slide's
                seen.insert({c["row"].get<int>(), c["col"].get<int>(), c["role"].get<std::string>(), c["label"].get<std::string>()});
            }
            EXPECT_EQ(seen, expected) << array;
        }
    }
}
