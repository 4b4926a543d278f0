// The views as a student sees them, checked from screenshots and the --layout file of
// the scripted GUI: compare mode draws both configurations whatever group is selected;
// the heatmap gives one count one colour in every run.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

#include "catalog_params.h"
#include "core/kernel/catalog.h"
#include "core/emulator/trace_runner.h"
#include "core/trace/view_model.h"
#include "gui_test_support.h"

namespace fs = std::filesystem;
using namespace tilescope;
using tilescope::testing::Image;
using tilescope::testing::load_png;
using tilescope::testing::run;
using tilescope::testing::XvfbEnvironment;

namespace {

fs::path scratch(const std::string& what) {
    const fs::path dir = fs::temp_directory_path() / ("tilescope_views_" + what + "_" + std::to_string(getpid()));
    fs::create_directories(dir);
    return dir;
}

nlohmann::json read_json(const fs::path& p) {
    nlohmann::json j;
    std::ifstream(p) >> j;
    return j;
}

// Centre pixel of cell (row, col) of a matrix placement.
std::array<int, 3> cell_pixel(const Image& img, const nlohmann::json& m, int row, int col) {
    const float x0 = m["x0"], y0 = m["y0"], x1 = m["x1"], y1 = m["y1"];
    const int rows = m["rows"], cols = m["cols"];
    return img.at(x0 + (float(col) + 0.5f) * (x1 - x0) / float(cols), y0 + (float(row) + 0.5f) * (y1 - y0) / float(rows));
}

int distance(const std::array<int, 3>& a, const std::array<int, 3>& b) {
    return std::abs(a[0] - b[0]) + std::abs(a[1] - b[1]) + std::abs(a[2] - b[2]);
}

bool near(const std::array<int, 3>& a, const nlohmann::json& rgb) {
    return distance(a, {rgb[0].get<int>(), rgb[1].get<int>(), rgb[2].get<int>()}) <= 20;
}

}  // namespace

class CompareView : public ::testing::TestWithParam<const char*> {};

// --group 2,1 does not exist at TS=16 (2x2 groups): the right side must still show its
// configuration, at the group computing the same cells of C.
TEST_P(CompareView, DrawsTwoCompleteConfigurations) {
    ASSERT_FALSE(XvfbEnvironment::display().empty()) << "could not start Xvfb";
    const fs::path dir = scratch("compare");
    const std::string group = GetParam();
    const std::string cmd = std::string(TILESCOPE_BIN) + " gui --view compare --kernel tiled --size 32 --tile 8 --group " + group +
                            " --frames 3 --screenshot " + (dir / "c.png").string() + " --layout " + (dir / "c.json").string();
    ASSERT_EQ(run(cmd), 0) << cmd;
    const nlohmann::json lay = read_json(dir / "c.json");
    const Image img = load_png((dir / "c.png").string());
    ASSERT_GT(img.w, 0);
    std::vector<nlohmann::json> matrices;
    for (const auto& m : lay["matrices"])
        if (m["role"] == "A" || m["role"] == "B" || m["role"] == "C") matrices.push_back(m);
    ASSERT_EQ(matrices.size(), 6u) << lay.dump();
    for (size_t i = 0; i < 6; ++i) {
        const auto& m = matrices[i];
        EXPECT_EQ(m["role"], std::string(1, "ABC"[i % 3]));
        EXPECT_EQ(m["rows"], 32);
        EXPECT_GT(m["x1"].get<float>() - m["x0"].get<float>(), 32.f) << "matrix " << i << " has no room";
        if (i >= 3)  // side by side: every right-hand matrix starts where the left-hand ones end
            for (size_t j = 0; j < 3; ++j) EXPECT_GT(m["x0"].get<float>(), matrices[j]["x1"].get<float>()) << "matrices " << j << ", " << i;
        if (m["role"] != "C") continue;
        int block = 0;  // the shown group's block of C is highlighted on both sides
        for (int r = 0; r < 32; ++r)
            for (int c = 0; c < 32; ++c) block += near(cell_pixel(img, m, r, c), lay["colours"]["c_block"]);
        EXPECT_GT(block, 0) << (i < 3 ? "left" : "right") << " C shows no group";
    }
    fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Groups, CompareView, ::testing::Values("1,2", "2,1"),
                         [](const auto& info) { return std::string("g") + info.param[0] + info.param[2]; });

// Naive at 8 and tiled at 32 with TS=4 both load every element of A 8 times; tiled at 32
// with TS=16 twice. The same count must look the same, a different one different.
TEST(HeatmapScale, SameCountSameColourAcrossRuns) {
    ASSERT_FALSE(XvfbEnvironment::display().empty()) << "could not start Xvfb";
    const fs::path dir = scratch("heat");
    struct Run {
        const char* kernel;
        int size, tile;
        uint32_t count = 0;
        std::array<int, 3> colour{};
    };
    std::vector<Run> runs = {{"naive", 8, 4}, {"tiled", 32, 4}, {"tiled", 32, 16}};
    for (Run& r : runs) {
        const std::string tag = std::string(r.kernel) + std::to_string(r.size) + "_" + std::to_string(r.tile);
        const std::string png = (dir / (tag + ".png")).string(), layout = (dir / (tag + ".json")).string();
        const std::string cmd = std::string(TILESCOPE_BIN) + " gui --view heatmap --kernel " + r.kernel + " --size " +
                                std::to_string(r.size) + " --tile " + std::to_string(r.tile) + " --frames 2 --screenshot " + png +
                                " --layout " + layout;
        ASSERT_EQ(run(cmd), 0) << cmd;
        const Image img = load_png(png);
        ASSERT_GT(img.w, 0);
        const nlohmann::json lay = read_json(layout);
        for (const auto& m : lay["matrices"])
            if (m["role"] == "A") {
                ASSERT_GE((m["x1"].get<float>() - m["x0"].get<float>()) / m["cols"].get<float>(), 3.f) << "cells too small to sample";
                r.colour = cell_pixel(img, m, 1, 1);
            }
    }
    for (Run& r : runs) {  // traced here after the GUI runs: tracing sets the OpenCL environment the GUI would inherit
        TraceOptions o;
        o.checks = false;
        const Trace t = run_trace(LaunchConfig{*find_rung(r.kernel), ProblemSize{r.size, r.size, r.size}, r.tile}, o);
        const TracedBuffer* a = t.find_buffer(matrix_roles(t).a);
        ASSERT_NE(a, nullptr);
        r.count = a->loads_at(1, 1);
    }
    for (const Run& r : runs)
        std::printf("%s %d TS=%d: A(1,1) loaded %u times, drawn %d,%d,%d\n", r.kernel, r.size, r.tile, r.count, r.colour[0], r.colour[1],
                    r.colour[2]);
    ASSERT_EQ(runs[0].count, runs[1].count) << "the two runs were meant to load A(1,1) equally often";
    ASSERT_NE(runs[1].count, runs[2].count);
    EXPECT_LE(distance(runs[0].colour, runs[1].colour), 6) << "count " << runs[0].count << " coloured differently in two runs";
    EXPECT_GE(distance(runs[1].colour, runs[2].colour), 40) << "counts " << runs[1].count << " and " << runs[2].count << " look alike";
    if (!HasFailure()) fs::remove_all(dir);
}

// Each __local array is drawn with the rows and columns it is declared with (as the
// trace lists them), in a grid of that shape: reg2d's atile[TS][TSK] and a custom
// kernel's padded btile_t[TS][TS+PAD] are not square, so a transposed or guessed shape fails.
struct ShapeCase {
    const char* name;
    const char* setup;  // tilescope trace/gui options
};
// gtest prints a parameter in test listings: the case's name, not its bytes.
void PrintTo(const ShapeCase& c, std::ostream* os) { *os << c.name; }

class LocalArrayShapes : public ::testing::TestWithParam<ShapeCase> {};

TEST_P(LocalArrayShapes, DrawnAsDeclared) {
    ASSERT_FALSE(XvfbEnvironment::display().empty()) << "could not start Xvfb";
    const fs::path dir = scratch("locals");
    const std::string setup = GetParam().setup;
    ASSERT_EQ(run(std::string(TILESCOPE_BIN) + " trace " + setup + " --no-checks --json " + (dir / "t.json").string() + " >/dev/null"), 0) << setup;
    const std::string cmd = std::string(TILESCOPE_BIN) + " gui " + setup + " --frames 3 --screenshot " + (dir / "g.png").string() +
                            " --layout " + (dir / "g.json").string();
    ASSERT_EQ(run(cmd), 0) << cmd;
    const nlohmann::json trace = read_json(dir / "t.json"), lay = read_json(dir / "g.json");
    ASSERT_TRUE(trace.contains("local_arrays")) << trace.dump().substr(0, 400);
    int square = 0;
    for (const auto& la : trace["local_arrays"]) {
        const int rows = la["rows"], cols = la["cols"];
        square += rows == cols;
        const nlohmann::json* drawn = nullptr;
        for (const auto& m : lay["matrices"])
            if (m["role"] == "local" && m["name"] == la["name"]) drawn = &m;
        ASSERT_NE(drawn, nullptr) << la["name"] << " is not drawn";
        EXPECT_EQ((*drawn)["rows"], rows) << la["name"];
        EXPECT_EQ((*drawn)["cols"], cols) << la["name"];
        const float w = (*drawn)["x1"].get<float>() - (*drawn)["x0"].get<float>(), h = (*drawn)["y1"].get<float>() - (*drawn)["y0"].get<float>();
        EXPECT_NEAR(w / h, float(cols) / float(rows), 0.02f) << la["name"] << " drawn " << w << "x" << h << " px";
    }
    EXPECT_LT(square, int(trace["local_arrays"].size())) << "no array whose shape a transposition would change";
    fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Kernels, LocalArrayShapes,
                         ::testing::Values(ShapeCase{"reg2d", "--kernel reg2d --size 64"},
                                           ShapeCase{"custom_padded",
                                                          "--source " TILESCOPE_TEST_KERNELS "/transposed_tile.cl --entry mm_transposed_tile "
                                                          "--global '((N+TS-1)/TS)*TS,((M+TS-1)/TS)*TS' --local TS,TS --define TS=TS "
                                                          "--define PAD=1 --arg M=int:M --arg N=int:N --arg K=int:K --arg A=matrix:MxK:in "
                                                          "--arg B=matrix:KxN:in --arg C=matrix:MxN:out --check C=A*B --size 32 --tile 8"}),
                         [](const auto& info) { return tilescope::test::test_name(info.param.name); });

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new XvfbEnvironment);
    const int status = RUN_ALL_TESTS();
    std::fflush(nullptr);
    std::_Exit(status);  // no static destructors: CLBlast aborts in its own at exit once PoCL is loaded
}
