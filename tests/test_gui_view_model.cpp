// The GUI's view model (core/trace/view_model.h) on real traces: what is highlighted at phase
// p of group g must be exactly what the trace recorded, and the closed forms.
#include <gtest/gtest.h>

#include "core/kernel/catalog.h"
#include "core/emulator/trace_runner.h"
#include "core/trace/view_model.h"

using namespace tilescope;

namespace {

Trace trace_of(const char* kernel, int size, int tile, std::vector<GroupId> groups = {}) {
    TraceOptions o;
    o.groups = std::move(groups);
    return run_trace(LaunchConfig{*find_rung(kernel), ProblemSize{size, size, size}, tile}, o);
}

}  // namespace

TEST(ViewModel, TiledPhaseZeroLoadsTheGroupsFirstTiles) {
    const Trace t = trace_of("tiled", 32, 8);
    const MatrixRoles roles = matrix_roles(t);
    EXPECT_EQ(roles.a, "A");
    EXPECT_EQ(roles.b, "B");
    EXPECT_EQ(roles.c, "C");
    // group (1,2): columns 8..15 and rows 16..23 of C
    const GroupPhaseView v = group_phase_view(t, roles, {1, 2, 0}, 0);
    ASSERT_TRUE(v.has_detail);
    EXPECT_EQ(v.intervals, 2 * 4 + 1);  // two barriers per phase, K/TS = 4 phases, then the end
    EXPECT_EQ(v.phases, 4);             // the slides' phases: trips round the tile loop
    EXPECT_EQ(v.phase, 0);
    EXPECT_EQ(v.part, "load");
    ASSERT_EQ(v.a_loaded.size(), 1u);
    EXPECT_EQ(v.a_loaded[0], (Rect{16, 0, 23, 7}));
    ASSERT_EQ(v.b_loaded.size(), 1u);
    EXPECT_EQ(v.b_loaded[0], (Rect{0, 8, 7, 15}));
    ASSERT_EQ(v.a_strip.size(), 1u);
    EXPECT_EQ(v.a_strip[0], (Rect{16, 0, 23, 31}));
    EXPECT_EQ(v.b_strip[0], (Rect{0, 8, 31, 15}));
    EXPECT_EQ(v.c_block[0], (Rect{16, 8, 23, 15}));
    EXPECT_GT(v.end_line, 0);
    // both local tiles are full after phase 0 and were stored in it
    ASSERT_EQ(v.locals.size(), 2u);
    for (const LocalArrayView& la : v.locals) {
        EXPECT_EQ(la.rows, 8);
        EXPECT_EQ(la.cols, 8);
        EXPECT_EQ(la.stored, 64u);
        for (int32_t w : la.writer) EXPECT_GE(w, 0);
    }
    // halfway through the interval, only the first half of the work-items have stored
    const GroupPhaseView half = group_phase_view(t, roles, {1, 2, 0}, 0, 0.5);
    EXPECT_EQ(half.locals[0].stored, 32u);
}

TEST(ViewModel, TiledComputeIntervalLoadsNothingFromGlobal) {
    const Trace t = trace_of("tiled", 32, 8);
    const MatrixRoles roles = matrix_roles(t);
    const GroupPhaseView v = group_phase_view(t, roles, {1, 2, 0}, 1);
    EXPECT_TRUE(v.a_loaded.empty());
    EXPECT_TRUE(v.b_loaded.empty());
    EXPECT_GT(v.local.loads, 0u);
    // interval 2, phase 1's load, loads the next tiles along K
    const GroupPhaseView p2 = group_phase_view(t, roles, {1, 2, 0}, 2);
    EXPECT_EQ(p2.phase, 1);
    EXPECT_EQ(p2.part, "load");
    ASSERT_EQ(p2.a_loaded.size(), 1u);
    EXPECT_EQ(p2.a_loaded[0], (Rect{16, 8, 23, 15}));
    EXPECT_EQ(p2.b_loaded[0], (Rect{8, 8, 15, 15}));
    // the last interval stores the group's block of C
    const GroupPhaseView last = group_phase_view(t, roles, {1, 2, 0}, 8);
    EXPECT_EQ(last.phase, 3);  // the store is the last part of the last phase
    EXPECT_EQ(last.part, "store");
    ASSERT_EQ(last.c_stored.size(), 1u);
    EXPECT_EQ(last.c_stored[0], (Rect{16, 8, 23, 15}));
}

TEST(ViewModel, CellOwnerAndReadsOfAWorkItem) {
    const Trace t = trace_of("tiled", 32, 8);
    const MatrixRoles roles = matrix_roles(t);
    const auto info = cell_info(t, roles, 17, 9);
    ASSERT_TRUE(info);
    EXPECT_EQ(info->owner.group, (GroupId{1, 2, 0}));
    EXPECT_EQ(info->owner.local, (WorkItemId{1, 1, 0}));
    EXPECT_EQ(info->owner.global, (WorkItemId{9, 17, 0}));
    EXPECT_TRUE(info->owner.from_trace);
    EXPECT_EQ(info->global_loads, 2u * 32 / 8);  // one A and one B element per phase
    EXPECT_EQ(info->local_loads, 2u * 32);       // 2*K operands from local memory
    EXPECT_DOUBLE_EQ(info->a_row_mean_loads, 4.0);  // N/TS
}

TEST(ViewModel, HeatmapReuseMatchesTheClosedForms) {
    const Trace tiled = trace_of("tiled", 32, 8);
    const ReuseLine ra = reuse_line(tiled, "A", "A");
    EXPECT_TRUE(ra.formula_matches) << ra.formula;
    EXPECT_EQ(ra.min_loads, 4u);
    const Trace naive = trace_of("naive", 16, 4);
    const ReuseLine rb = reuse_line(naive, "B", "B");
    EXPECT_TRUE(rb.formula_matches) << rb.formula;
    EXPECT_EQ(rb.max_loads, 16u);  // M
}

TEST(ViewModel, GroupWithoutDetailIsReportedNotInvented) {
    const Trace t = trace_of("tiled", 32, 8, {{0, 0, 0}});
    const GroupPhaseView v = group_phase_view(t, matrix_roles(t), {3, 3, 0}, 0);
    EXPECT_FALSE(v.has_detail);
    EXPECT_TRUE(v.a_loaded.empty());
    // the owner of a cell still follows from the NDRange
    const auto o = cell_owner(t, matrix_roles(t), 31, 31);
    ASSERT_TRUE(o);
    EXPECT_EQ(o->group, (GroupId{3, 3, 0}));
    EXPECT_FALSE(o->from_trace);
}
