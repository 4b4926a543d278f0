// Plot labels (ui/plot): names of crowded points placed clear of each other, of the
// points and of the axis titles, inside the plot. Pure geometry: no window needed.
#include <gtest/gtest.h>

#include "ui/widgets/plot.h"

using namespace tilescope::ui;

namespace {

bool inside(const Box& r, const Box& b) { return r.x >= b.x && r.y >= b.y && r.z <= b.z && r.w <= b.w; }

}  // namespace

// Ten rungs of a roofline, most of them within a few pixels of each other (as the
// lesson's rungs are at one arithmetic intensity), an axis title and a ceiling label.
TEST(PlotLabels, CrowdedPointsGetNamesClearOfEverything) {
    const Box bounds{100, 50, 700, 450};
    std::vector<ImVec2> anchors, sizes;
    for (int i = 0; i < 10; ++i) {
        anchors.push_back(ImVec2(300.f + float(i % 3) * 4.f, 300.f - float(i) * 3.f));
        sizes.push_back(ImVec2(60.f + float(i) * 5.f, 18.f));
    }
    std::vector<Box> obstacles = {{104, 52, 170, 70},     // y-axis title inside the top-left corner
                                  {380, 420, 620, 438},   // x-axis title
                                  {520, 80, 690, 98}};    // "peak ... GFLOP/s"
    for (const ImVec2& p : anchors) obstacles.push_back(Box{p.x - 4, p.y - 4, p.x + 4, p.y + 4});
    const std::vector<Box> boxes = place_labels(anchors, sizes, obstacles, bounds, 7.f);
    ASSERT_EQ(boxes.size(), anchors.size());
    for (size_t i = 0; i < boxes.size(); ++i) {
        EXPECT_TRUE(inside(boxes[i], bounds)) << "label " << i << " outside the plot";
        EXPECT_NEAR(boxes[i].z - boxes[i].x, sizes[i].x, 0.01f);
        for (const Box& o : obstacles) EXPECT_FALSE(overlaps(boxes[i], o)) << "label " << i << " covers a title or a point";
        for (size_t j = 0; j < i; ++j) EXPECT_FALSE(overlaps(boxes[i], boxes[j])) << "labels " << j << " and " << i << " overlap";
    }
}

// A lone point keeps its name right beside it.
TEST(PlotLabels, ALonePointIsNamedBesideIt) {
    const std::vector<Box> boxes = place_labels({ImVec2(200, 200)}, {ImVec2(50, 16)}, {}, Box{0, 0, 800, 600}, 6.f);
    ASSERT_EQ(boxes.size(), 1u);
    EXPECT_FLOAT_EQ(boxes[0].x, 206.f);
    EXPECT_FLOAT_EQ(boxes[0].y, 192.f);
}

// Lesson 7 step 2's size axis: 600, 800 and 1000 a few pixels apart printed as
// "600 8001000". Kept labels never touch; the first and last stay.
TEST(PlotLabels, TickLabelsThatWouldTouchAreDropped) {
    const std::vector<float> centres = {100, 300, 500, 540, 560};
    const std::vector<float> widths = {30, 30, 30, 40, 30};
    const std::vector<size_t> kept = spaced_tick_labels(centres, widths, 7.f);
    ASSERT_GE(kept.size(), 2u);
    EXPECT_EQ(kept.front(), 0u);
    EXPECT_EQ(kept.back(), centres.size() - 1);
    for (size_t k = 1; k < kept.size(); ++k) {
        const size_t a = kept[k - 1], b = kept[k];
        EXPECT_LE(centres[a] + widths[a] / 2 + 7.f, centres[b] - widths[b] / 2) << a << " touches " << b;
    }
    EXPECT_EQ(kept, (std::vector<size_t>{0, 1, 2, 4}));
    // Wide apart: every label stays.
    EXPECT_EQ(spaced_tick_labels({0, 100, 200}, {20, 20, 20}, 7.f), (std::vector<size_t>{0, 1, 2}));
}

// "Block (1,1)" must not wrap inside the tuple nor before it; a parenthetical sentence may.
// Widths: 10 px a character (a made-up measure).
TEST(PlotLabels, WrapKeepsTuplesWhole) {
    const auto measure = [](const std::string& s) { return 10.f * float(s.size()); };
    // At 130 px ImGui broke "Phase 0 Load for Block (1,⏎1)"; here the tuple goes down whole with its word.
    const auto lines = wrap_keeping_tuples("Phase 0 Load for Block (1,1)", 130, measure);
    EXPECT_EQ(lines, (std::vector<std::string>{"Phase 0 Load", "for", "Block (1,1)"}));
    for (const std::string& l : wrap_keeping_tuples("threads (0, 1) and (1, 1) write zeros", 90, measure)) {
        const size_t open = l.find('(');
        if (open != std::string::npos) EXPECT_NE(l.find(')', open), std::string::npos) << l;
        const size_t close = l.find(')');
        if (close != std::string::npos) EXPECT_NE(l.find('('), std::string::npos) << l;
    }
    // Every line fits unless it is one unbreakable piece; nothing is lost.
    const std::string long_text = "(as the slides count it, phase by phase) the tile at (2, 3) hangs past the edge";
    std::string joined;
    for (const std::string& l : wrap_keeping_tuples(long_text, 120, measure)) {
        EXPECT_TRUE(measure(l) <= 120 || l.find(' ') == std::string::npos || l == "at (2, 3)") << l;
        joined += (joined.empty() ? "" : " ") + l;
    }
    EXPECT_EQ(joined, long_text);
    EXPECT_EQ(wrap_keeping_tuples("one\ntwo", 500, measure), (std::vector<std::string>{"one", "two"}));
    EXPECT_TRUE(wrap_keeping_tuples("", 100, measure).empty());
}

// Every wrapped text of the views (text_wrapped) breaks at spaces only: ImGui's TextWrapped put
// "80." and "3 GFLOP/s (measured)" on two lines of the performance view at 1280x720.
TEST(PlotLabels, WrapNeverSplitsANumberOrAPath) {
    const auto measure = [](const std::string& s) { return 10.f * float(s.size()); };
    const std::string text = "cpu_panel TS=48 [defaults for CPUs]: 80.3 GFLOP/s (measured), 1,234.5 at 256x256x256 in "
                             "assets/tuning/defaults-cpu.json; done.";
    for (const float width : {40.f, 90.f, 130.f, 170.f, 250.f}) {
        std::string joined;
        for (const std::string& l : wrap_keeping_tuples(text, width, measure)) {
            EXPECT_NE(l.back(), ' ') << l;
            joined += (joined.empty() ? "" : " ") + l;
        }
        EXPECT_EQ(joined, text) << "at " << width << " px";
        const auto lines = wrap_keeping_tuples(text, width, measure);
        for (const char* whole : {"80.3", "1,234.5", "256x256x256", "assets/tuning/defaults-cpu.json;"}) {
            bool found = false;
            for (const std::string& l : lines) found = found || l.find(whole) != std::string::npos;
            EXPECT_TRUE(found) << whole << " was split at " << width << " px";
        }
    }
}
