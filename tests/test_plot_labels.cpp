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
