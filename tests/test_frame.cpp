// One frame of the slides (core/trace/frame.h, issue 19) on real traces of the tiled rung.
// The expected cells are written out by hand from the slides ("Tiled Matrix
// Multiplication", "Handling arbitrary matrix sizes"), not read back from a trace: M, N,
// P are the slides' A, B, C; a work-item (X,Y) is OpenCL's local id, dimension 0 (the
// column inside the tile) first, where the slides write Thread(row, column).
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "core/base/errors.h"
#include "core/emulator/trace_runner.h"
#include "core/io/frame_export.h"
#include "core/io/trace_file.h"
#include "core/kernel/catalog.h"
#include "core/trace/frame.h"
#include "core/teach/phase_gif.h"

using namespace tilescope;

namespace {

LaunchConfig tiled(int size) { return LaunchConfig{*find_rung("tiled"), ProblemSize{size, size, size}, 2}; }

const Trace& traced(int size) {
    static std::map<int, Trace> traces;
    auto it = traces.find(size);
    if (it == traces.end()) {
        TraceOptions o;
        o.groups = {{0, 0, 0}, {1, 1, 0}};
        it = traces.emplace(size, run_trace(tiled(size), o)).first;
    }
    return it->second;
}

Frame frame_of(int size, GroupId group, int phase, const std::string& part, std::optional<int> iteration = {},
               std::optional<WorkItemId> item = {}, Naming naming = Naming::Slides) {
    const Trace& t = traced(size);
    return build_frame(t, matrix_roles(t), FrameRequest{group, phase, part, iteration, item, naming});
}

// "row,col role label" for every highlighted cell of one array.
std::set<std::string> cells(const Frame& f, const std::string& key) {
    std::set<std::string> out;
    const FrameArray* a = f.find(key);
    if (!a) return {"(no array " + key + ")"};
    for (const FrameCell& c : a->cells)
        out.insert(std::to_string(c.row) + "," + std::to_string(c.col) + " " + std::string(to_string(c.role)) + " " + c.label);
    return out;
}

using Cells = std::set<std::string>;

struct SlideFrame {
    const char* title;
    int phase;
    const char* part;
    std::optional<int> iteration;
    Cells a, b, c, atile, btile;
};

const Cells kBlockSums = {"0,0 accumulates P0,0", "0,1 accumulates P0,1", "1,0 accumulates P1,0", "1,1 accumulates P1,1"};

// The slides' frames for Block (0,0) of a 4x4 product with 2x2 tiles.
const SlideFrame kSlides[] = {
    {"Phase 0 Load for Block (0,0)", 0, "load", std::nullopt,
     {"0,0 loaded M0,0", "0,1 loaded M0,1", "1,0 loaded M1,0", "1,1 loaded M1,1"},
     {"0,0 loaded N0,0", "0,1 loaded N0,1", "1,0 loaded N1,0", "1,1 loaded N1,1"},
     {},
     {"0,0 stored M0,0", "0,1 stored M0,1", "1,0 stored M1,0", "1,1 stored M1,1"},
     {"0,0 stored N0,0", "0,1 stored N0,1", "1,0 stored N1,0", "1,1 stored N1,1"}},
    {"Phase 0 Use for Block (0,0) (iteration 0)", 0, "use", 0, {}, {}, kBlockSums,
     {"0,0 read M0,0", "1,0 read M1,0", "0,1 holds M0,1", "1,1 holds M1,1"},
     {"0,0 read N0,0", "0,1 read N0,1", "1,0 holds N1,0", "1,1 holds N1,1"}},
    {"Phase 0 Use for Block (0,0) (iteration 1)", 0, "use", 1, {}, {}, kBlockSums,
     {"0,1 read M0,1", "1,1 read M1,1", "0,0 holds M0,0", "1,0 holds M1,0"},
     {"1,0 read N1,0", "1,1 read N1,1", "0,0 holds N0,0", "0,1 holds N0,1"}},
    {"Phase 1 Load for Block (0,0)", 1, "load", std::nullopt,
     {"0,2 loaded M0,2", "0,3 loaded M0,3", "1,2 loaded M1,2", "1,3 loaded M1,3"},
     {"2,0 loaded N2,0", "2,1 loaded N2,1", "3,0 loaded N3,0", "3,1 loaded N3,1"},
     {},
     {"0,0 stored M0,2", "0,1 stored M0,3", "1,0 stored M1,2", "1,1 stored M1,3"},
     {"0,0 stored N2,0", "0,1 stored N2,1", "1,0 stored N3,0", "1,1 stored N3,1"}},
    {"Phase 1 Use for Block (0,0) (iteration 0)", 1, "use", 0, {}, {}, kBlockSums,
     {"0,0 read M0,2", "1,0 read M1,2", "0,1 holds M0,3", "1,1 holds M1,3"},
     {"0,0 read N2,0", "0,1 read N2,1", "1,0 holds N3,0", "1,1 holds N3,1"}},
    {"Phase 1 Use for Block (0,0) (iteration 1)", 1, "use", 1, {}, {}, kBlockSums,
     {"0,1 read M0,3", "1,1 read M1,3", "0,0 holds M0,2", "1,0 holds M1,2"},
     {"1,0 read N3,0", "1,1 read N3,1", "0,0 holds N2,0", "0,1 holds N2,1"}},
};

std::string sum_text(const Frame& f, int64_t row, int64_t col) {
    for (const CellSum& s : f.sums)
        if (s.row == row && s.col == col) return s.text;
    return "(no sum)";
}

}  // namespace

TEST(Frame, TiledFourByFourReproducesTheSlidesFrames) {
    for (const SlideFrame& s : kSlides) {
        SCOPED_TRACE(s.title);
        const Frame f = frame_of(4, {0, 0, 0}, s.phase, s.part, s.iteration);
        EXPECT_EQ(f.title, s.title);
        EXPECT_EQ(f.phases, 2);
        EXPECT_TRUE(f.has_log);
        const std::vector<std::string> parts =
            s.phase == 0 ? std::vector<std::string>{"load", "use"} : std::vector<std::string>{"load", "use", "store"};
        EXPECT_EQ(f.parts, parts);
        EXPECT_EQ(f.iterations, std::string(s.part) == "use" ? 2 : 0);
        EXPECT_EQ(cells(f, "A"), s.a);
        EXPECT_EQ(cells(f, "B"), s.b);
        EXPECT_EQ(cells(f, "C"), s.c);
        EXPECT_EQ(cells(f, "atile"), s.atile);
        EXPECT_EQ(cells(f, "btile"), s.btile);
    }
}

TEST(Frame, SumsGrowTermByTermAndNamingAbcRenames) {
    EXPECT_EQ(sum_text(frame_of(4, {0, 0, 0}, 0, "use", 0), 0, 1), "M0,0\u00b7N0,1");
    EXPECT_EQ(sum_text(frame_of(4, {0, 0, 0}, 0, "use", 1), 0, 1), "M0,0\u00b7N0,1 + M0,1\u00b7N1,1");
    EXPECT_EQ(sum_text(frame_of(4, {0, 0, 0}, 1, "load"), 1, 0), "M1,0\u00b7N0,0 + M1,1\u00b7N1,0");
    EXPECT_EQ(sum_text(frame_of(4, {0, 0, 0}, 1, "use", 1), 1, 1),
              "M1,0\u00b7N0,1 + M1,1\u00b7N1,1 + M1,2\u00b7N2,1 + M1,3\u00b7N3,1");
    const Trace& t = traced(4);
    const auto s = cell_sum(t, matrix_roles(t), FrameRequest{{0, 0, 0}, 0, "use", 0, {}, Naming::Abc}, 1, 1);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->text, "A1,0\u00b7B0,1");
    EXPECT_FALSE(cell_sum(t, matrix_roles(t), FrameRequest{{0, 0, 0}, 0, "use"}, 3, 3));  // another group's cell
    const Frame abc = frame_of(4, {0, 0, 0}, 1, "load", {}, {}, Naming::Abc);
    EXPECT_TRUE(cells(abc, "atile").count("0,1 stored A0,3"));
    // The part defaults to the phase's first.
    EXPECT_EQ(frame_of(4, {0, 0, 0}, 1, "").part, "load");
}

TEST(Frame, ThreeByThreeLoadsZerosWhereTheSlidesShowThem) {
    const Frame f = frame_of(3, {0, 0, 0}, 1, "load");
    EXPECT_EQ(cells(f, "A"), (Cells{"0,2 loaded M0,2", "1,2 loaded M1,2"}));
    EXPECT_EQ(cells(f, "B"), (Cells{"2,0 loaded N2,0", "2,1 loaded N2,1"}));
    // M's column 3 and N's row 3 do not exist: those tile cells are written zeros.
    EXPECT_EQ(cells(f, "atile"), (Cells{"0,0 stored M0,2", "0,1 stored 0", "1,0 stored M1,2", "1,1 stored 0"}));
    EXPECT_EQ(cells(f, "btile"), (Cells{"0,0 stored N2,0", "0,1 stored N2,1", "1,0 stored 0", "1,1 stored 0"}));
    // Phase 1, iteration 1 multiplies those zeros: P0,0 gains 0·0.
    EXPECT_EQ(sum_text(frame_of(3, {0, 0, 0}, 1, "use", 1), 0, 0), "M0,0\u00b7N0,0 + M0,1\u00b7N1,0 + M0,2\u00b7N2,0 + 0\u00b70");
}

namespace {
bool loads(const WorkItemStory& s, int phase, const std::string& matrix, int64_t row, int64_t col) {
    for (const WorkItemStep& st : s.steps)
        if (st.phase == phase)
            for (const ElementRef& e : st.loads)
                if (e.matrix == matrix && e.row == row && e.col == col) return true;
    return false;
}
}  // namespace

// The slides' first case: Block(1,1), Thread(1,0) (row 1, column 0; OpenCL's (0,1)) is
// assigned the non-existent P3,2 but loads N1,2 for its group in phase 0.
TEST(Frame, ThreeByThreeWorkItemOutsideCLoadsForItsGroup) {
    const Trace& t = traced(3);
    const WorkItemStory s = work_item_story(t, matrix_roles(t), {1, 1, 0}, {0, 1, 0});
    EXPECT_FALSE(s.computes);
    ASSERT_TRUE(s.assigned);
    EXPECT_EQ(s.assigned->label, "P3,2");
    EXPECT_TRUE(s.assigned_outside);
    EXPECT_TRUE(loads(s, 0, "B", 1, 2));
    ASSERT_EQ(s.cases.size(), 1u);
    EXPECT_NE(s.cases[0].find("N1,2"), std::string::npos) << s.cases[0];
    // OpenCL's (1,0) of that group (row 0, column 1: P2,3) is outside C too, and what it
    // loads for its group is an element of A.
    const WorkItemStory o = work_item_story(t, matrix_roles(t), {1, 1, 0}, {1, 0, 0});
    EXPECT_FALSE(o.computes);
    EXPECT_TRUE(loads(o, 0, "A", 2, 1));
    EXPECT_EQ(o.cases.size(), 1u);
}

// The slides' second case: Block(0,0), Thread(1,0) computes P1,0 but would load the
// non-existent N3,0. The slide says phase 0; with TILE_WIDTH 2 the row of N it loads is
// p*2 + 1, so the run does it in phase 1 (phase 0 loads N1,0).
TEST(Frame, ThreeByThreeValidWorkItemWritesAZeroInPhaseOne) {
    const Trace& t = traced(3);
    const MatrixRoles roles = matrix_roles(t);
    std::set<int> zero_phases;
    for (uint32_t y = 0; y < 2; ++y)
        for (uint32_t x = 0; x < 2; ++x) {
            const WorkItemStory s = work_item_story(t, roles, {0, 0, 0}, {x, y, 0});
            ASSERT_TRUE(s.computes);  // every work-item of block (0,0) computes an element
            for (const WorkItemStep& st : s.steps)
                for (const LocalCellRef& c : st.local_stores)
                    if (c.written_zero) zero_phases.insert(st.phase);
        }
    EXPECT_EQ(zero_phases, (std::set<int>{1}));

    const WorkItemStory s = work_item_story(t, roles, {0, 0, 0}, {0, 1, 0});
    ASSERT_TRUE(s.computes);
    EXPECT_EQ(s.computes->label, "P1,0");
    EXPECT_TRUE(loads(s, 0, "B", 1, 0));
    std::optional<LocalCellRef> zero;
    for (const WorkItemStep& st : s.steps)
        for (const LocalCellRef& c : st.local_stores)
            if (c.written_zero) {
                EXPECT_EQ(st.phase, 1);
                zero = c;
            }
    ASSERT_TRUE(zero);
    EXPECT_EQ(zero->array, "btile");
    EXPECT_EQ(zero->row, 1);
    EXPECT_EQ(zero->col, 0);
    ASSERT_TRUE(zero->stands_for);
    EXPECT_EQ(zero->stands_for->label, "N3,0");
    EXPECT_TRUE(zero->stands_outside);
    ASSERT_EQ(s.cases.size(), 1u);
    EXPECT_NE(s.cases[0].find("N3,0"), std::string::npos) << s.cases[0];
    EXPECT_NE(s.cases[0].find("phase 1"), std::string::npos) << s.cases[0];
}

namespace {

// The tiled rung's load, in closed form: work-item (x, y) of group (gx, gy) in phase p
// stores A(gy*TS+y, p*TS+x) into atile(y, x) and B(p*TS+y, gx*TS+x) into btile(y, x), or 0
// where that element lies outside its matrix.
struct TiledClosedForm {
    int64_t M, N, K, TS;
    bool a_outside(GroupId g, int p, int64_t x, int64_t y) const { return g[1] * TS + y >= M || p * TS + x >= K; }
    bool b_outside(GroupId g, int p, int64_t x, int64_t y) const { return p * TS + y >= K || g[0] * TS + x >= N; }
    // "x,y" of the work-items writing zeros into `array`, and the outside cells of its tile "r,c".
    std::set<std::string> writers(const std::string& array, GroupId g, int p) const {
        std::set<std::string> out;
        for (int64_t y = 0; y < TS; ++y)
            for (int64_t x = 0; x < TS; ++x)
                if (array == "atile" ? a_outside(g, p, x, y) : b_outside(g, p, x, y))
                    out.insert(std::to_string(x) + "," + std::to_string(y));
        return out;
    }
    std::set<std::string> outside(const std::string& array, GroupId g, int p) const {
        std::set<std::string> out;
        for (int64_t y = 0; y < TS; ++y)
            for (int64_t x = 0; x < TS; ++x) {
                const bool a = array == "atile";
                const int64_t r = a ? g[1] * TS + y : p * TS + y, c = a ? p * TS + x : g[0] * TS + x;
                if (a ? a_outside(g, p, x, y) : b_outside(g, p, x, y)) out.insert(std::to_string(r) + "," + std::to_string(c));
            }
        return out;
    }
    Rect rect(const std::string& array, GroupId g, int p) const {
        return array == "atile" ? Rect{g[1] * TS, p * TS, g[1] * TS + TS - 1, p * TS + TS - 1}
                                : Rect{p * TS, g[0] * TS, p * TS + TS - 1, g[0] * TS + TS - 1};
    }
};

// What the frame says: the writers and where each zeroed cell stands, from ZeroWrite.
std::set<std::string> model_writers(const Frame& f, const std::string& array) {
    std::set<std::string> out;
    for (const WorkItemId& w : f.zero_writers(array)) out.insert(std::to_string(w[0]) + "," + std::to_string(w[1]));
    return out;
}
std::set<std::string> model_outside(const Frame& f, const std::string& array) {
    std::set<std::string> out;
    for (const TileInMatrix& t : f.tiles)
        if (t.array == array)
            for (const auto& [r, c] : t.outside) out.insert(std::to_string(r) + "," + std::to_string(c));
    return out;
}

}  // namespace

// Issue 33 item 3: which work-items write zeros and which cells of a tile hang past the
// matrix's edge, for every detail group, phase and part, against the closed form above,
// square (the slides' 3x3 with TILE_WIDTH 2) and rectangular (5x7x3 with TS 4: every tile
// hangs past some edge).
TEST(Frame, ZeroWritersAndTilesPastTheEdgeMatchTheClosedForm) {
    TraceOptions o;
    o.groups = {{0, 0, 0}, {1, 1, 0}};
    const Trace rect = run_trace(LaunchConfig{*find_rung("tiled"), ProblemSize{5, 7, 3}, 4}, o);
    struct Case {
        const Trace* trace;
        TiledClosedForm form;
    };
    size_t zero_frames = 0;
    for (const Case& c : {Case{&traced(3), {3, 3, 3, 2}}, Case{&rect, {5, 7, 3, 4}}}) {
        const Trace& t = *c.trace;
        const MatrixRoles roles = matrix_roles(t);
        for (const GroupId g : {GroupId{0, 0, 0}, GroupId{1, 1, 0}}) {
            const GroupFrames gf(t, roles, g);
            const int phases = int((c.form.K + c.form.TS - 1) / c.form.TS);
            ASSERT_EQ(gf.plan().phases, phases);
            for (int p = 0; p < phases; ++p)
                for (const std::string part : {"load", "use"}) {
                    SCOPED_TRACE(t.size.label() + " group " + std::to_string(g[0]) + "," + std::to_string(g[1]) + " phase " +
                                 std::to_string(p) + " " + part);
                    const Frame f = gf.frame(FrameRequest{g, p, part, std::nullopt, std::nullopt, Naming::Slides});
                    ASSERT_EQ(f.tiles.size(), 2u);
                    for (const std::string array : {"atile", "btile"}) {
                        // Zeros are written in the load part only; the tile stays where it is through the use part.
                        EXPECT_EQ(model_writers(f, array), part == "load" ? c.form.writers(array, g, p) : std::set<std::string>{});
                        EXPECT_EQ(model_outside(f, array), c.form.outside(array, g, p));
                        for (const TileInMatrix& tm : f.tiles)
                            if (tm.array == array) {
                                EXPECT_EQ(tm.rect, c.form.rect(array, g, p));
                                EXPECT_EQ(tm.matrix, array == "atile" ? "A" : "B");
                            }
                    }
                    for (const ZeroWrite& z : f.zero_writes) {  // each zero stands for the closed form's element, outside
                        ASSERT_TRUE(z.cell.stands_for);
                        EXPECT_TRUE(z.cell.stands_outside);
                        EXPECT_EQ(z.cell.row, int64_t(z.local[1]));
                        EXPECT_EQ(z.cell.col, int64_t(z.local[0]));
                        const Rect r = c.form.rect(z.cell.array, g, p);
                        EXPECT_EQ(z.cell.stands_for->row, r.r0 + z.cell.row);
                        EXPECT_EQ(z.cell.stands_for->col, r.c0 + z.cell.col);
                    }
                    zero_frames += !f.zero_writes.empty();
                }
        }
    }
    EXPECT_GE(zero_frames, 4u);  // the cases above do write zeros
    // The slides' sentence: in phase 1 of Block (0,0), Threads (0,1) and (1,1) (row, column;
    // OpenCL's (1,0) and (1,1)) need special treatment in loading the M tile.
    const std::vector<std::string> lines = zero_write_lines(frame_of(3, {0, 0, 0}, 1, "load"));
    EXPECT_EQ(lines, (std::vector<std::string>{"atile: work-items (1,0), (1,1) write 0 in place of M0,3, M1,3 (outside M)",
                                               "btile: work-items (0,1), (1,1) write 0 in place of N3,0, N3,1 (outside N)"}));
    EXPECT_TRUE(zero_write_lines(frame_of(3, {0, 0, 0}, 0, "load")).empty());  // phase 0 is inside both matrices
    EXPECT_EQ(zero_write_lines(frame_of(3, {0, 0, 0}, 1, "load", {}, {}, Naming::Abc)).front(),
              "atile: work-items (1,0), (1,1) write 0 in place of A0,3, A1,3 (outside A)");
}

// The picked work-item's cells (issue 33 item 3: the slides' thread of each "major case"
// marked on the projector), against the tiled rung's closed form for every work-item of both
// detail groups at 3x3 and 4x4, TS 2: in phase p's load it loads M(gy*TS+y, p*TS+x) and
// N(p*TS+y, gx*TS+x) where they exist and stores atile(y,x), btile(y,x) either way; at
// iteration i of a use part it reads atile(y,i) and btile(i,x); the store part stores
// P(gy*TS+y, gx*TS+x) when inside P. (x, y): OpenCL's local id, column first.
TEST(Frame, ThePickedWorkItemsCellsMatchTheClosedForm) {
    constexpr int64_t TS = 2;
    for (const int n : {3, 4}) {
        const int phases = int((n + TS - 1) / TS);
        for (const GroupId g : {GroupId{0, 0, 0}, GroupId{1, 1, 0}})
            for (uint32_t y = 0; y < TS; ++y)
                for (uint32_t x = 0; x < TS; ++x) {
                    const WorkItemId item{x, y, 0};
                    auto text = [](const std::vector<ItemCell>& cells) {
                        std::set<std::string> out;
                        for (const ItemCell& c : cells) out.insert(c.array + " " + std::to_string(c.row) + "," + std::to_string(c.col));
                        return out;
                    };
                    auto cell = [](const std::string& a, int64_t r, int64_t c) { return a + " " + std::to_string(r) + "," + std::to_string(c); };
                    const int64_t row = int64_t(g[1]) * TS + y, col = int64_t(g[0]) * TS + x;
                    for (int p = 0; p < phases; ++p) {
                        SCOPED_TRACE(std::to_string(n) + "x" + std::to_string(n) + " group " + std::to_string(g[0]) + "," +
                                     std::to_string(g[1]) + " item " + std::to_string(x) + "," + std::to_string(y) + " phase " +
                                     std::to_string(p));
                        std::set<std::string> load = {cell("atile", y, x), cell("btile", y, x)};
                        if (row < n && p * TS + x < n) load.insert(cell("A", row, p * TS + x));
                        if (p * TS + y < n && col < n) load.insert(cell("B", p * TS + y, col));
                        EXPECT_EQ(text(item_cells(frame_of(n, g, p, "load", {}, item))), load);
                        std::set<std::string> whole;
                        for (int i = 0; i < TS; ++i) {
                            const std::set<std::string> read = {cell("atile", y, i), cell("btile", i, x)};
                            EXPECT_EQ(text(item_cells(frame_of(n, g, p, "use", i, item))), read) << "iteration " << i;
                            whole.insert(read.begin(), read.end());
                        }
                        EXPECT_EQ(text(item_cells(frame_of(n, g, p, "use", {}, item))), whole);
                    }
                    std::set<std::string> store;
                    if (row < n && col < n) store.insert(cell("C", row, col));
                    EXPECT_EQ(text(item_cells(frame_of(n, g, phases - 1, "store", {}, item))), store);
                }
    }
    EXPECT_TRUE(item_cells(frame_of(3, {0, 0, 0}, 0, "load")).empty());  // no work-item picked
}

// Where room is short (a projector's legend) the zero-writers are named by ranges: at 12x12
// with TS 8 phase 1's tiles run 4 columns past M and 4 rows past N, 32 work-items each. Two
// writers stay listed by name (the slides' 3x3 example).
TEST(FrameZeros, BriefLinesNameRectanglesByTheirRanges) {
    TraceOptions o;
    o.groups = {{0, 0, 0}};
    const Trace t = run_trace(LaunchConfig{*find_rung("tiled"), ProblemSize{12, 12, 12}, 8}, o);
    const Frame f = build_frame(t, matrix_roles(t), FrameRequest{{0, 0, 0}, 1, "load", std::nullopt, std::nullopt, Naming::Slides});
    EXPECT_EQ(zero_write_lines_brief(f), (std::vector<std::string>{"atile: work-items (4..7,0..7) write 0 in place of M0..7,12..15 (outside M)",
                                                                  "btile: work-items (0..7,4..7) write 0 in place of N12..15,0..7 (outside N)"}));
    const std::vector<std::string> full = zero_write_lines(f);
    ASSERT_EQ(full.size(), 2u);
    EXPECT_NE(full[0].find("(4,0), (5,0), (6,0), (7,0), (4,1)"), std::string::npos) << full[0];
    EXPECT_EQ(zero_write_lines_brief(frame_of(3, {0, 0, 0}, 1, "load")), zero_write_lines(frame_of(3, {0, 0, 0}, 1, "load")));
}

// "Record GIF" names its file from the trace's kernel, which a saved trace may set to any
// text: the name keeps letters, digits, '_' and dashes only, so it never leaves its folder.
TEST(FrameGif, ItsFileNameNeverLeavesItsFolder) {
    Trace t;
    t.size = ProblemSize{64, 64, 64};
    t.kernel = "tiled";
    EXPECT_EQ(phase_gif_file_name(t, {1, 2, 0}), "tilescope-tiled-64-group-1-2.gif");
    EXPECT_EQ(phase_gif_file_name(t, {0, 0, 3}), "tilescope-tiled-64-group-0-0-3.gif");
    for (const std::string& hostile : std::vector<std::string>{"x/../../../.bashrc", "../..", "/etc/passwd", "a\nb", std::string(5000, '/'), "..",
                                      std::string("\x1b[2J")}) {
        t.kernel = hostile;
        const std::string name = phase_gif_file_name(t, {0, 0, 0});
        EXPECT_EQ(name.find('/'), std::string::npos) << name;
        EXPECT_EQ(name.find(".."), std::string::npos) << name;
        EXPECT_LT(name.size(), 120u) << name;
        EXPECT_EQ(name.rfind("tilescope-", 0), 0u) << name;
    }
}

// The GIF steps as the frames do: a frame per part and per iteration of a use part (4x4,
// TS 2: load, 2 iterations; load, 2 iterations, store), or per part past max_frames.
TEST(FrameGif, OneFramePerIterationUpToItsBound) {
    const Trace& t = traced(4);
    const std::string gif = (std::filesystem::temp_directory_path() / ("tilescope_frame_gif_" + std::to_string(::getpid()) + ".gif")).string();
    EXPECT_EQ(write_phase_gif(t, matrix_roles(t), {0, 0, 0}, gif), 7);
    PhaseGifOptions parts_only;
    parts_only.max_frames = 6;
    EXPECT_EQ(write_phase_gif(t, matrix_roles(t), {0, 0, 0}, gif, parts_only), 5);
    std::filesystem::remove(gif);
}

TEST(Frame, BadRequestsNameTheOption) {
    const auto message = [](const std::function<void()>& f) {
        try {
            f();
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    EXPECT_EQ(message([] { frame_of(4, {0, 0, 0}, 2, ""); }).rfind("--phase 2: accepted: 0..1", 0), 0u);
    EXPECT_EQ(message([] { frame_of(4, {0, 0, 0}, 0, "store"); }).rfind("--part 'store': accepted: load, use", 0), 0u);
    EXPECT_EQ(message([] { frame_of(4, {0, 0, 0}, 0, "use", 2); }).rfind("--iteration 2: accepted: 0..1", 0), 0u);
    EXPECT_EQ(message([] { frame_of(4, {0, 0, 0}, 0, "load", 0); }).rfind("--iteration 0:", 0), 0u);
    EXPECT_EQ(message([] { frame_of(4, {0, 0, 0}, 0, "use", 0, WorkItemId{2, 0, 0}); }).rfind("--item 2,0:", 0), 0u);
    // a Z outside is named with the Z (it read "--item 0,0: accepted: X < 2 and Y < 2")
    EXPECT_EQ(message([] { frame_of(4, {0, 0, 0}, 0, "use", 0, WorkItemId{0, 0, 5}); }).rfind("--item 0,0,5: accepted: a local id X,Y with X < 2 and Y < 2 (and Z 0)", 0), 0u);
    EXPECT_EQ(message([] { frame_of(4, {1, 0, 0}, 0, ""); }).rfind("--group 1,0:", 0), 0u);  // no detail kept
}

// The access log survives a .tstrace round trip, and frames from the loaded trace are the same.
TEST(FrameFile, AccessLogRoundTripsThroughTstrace) {
    const Trace& t = traced(3);
    size_t records = 0;
    for (const GroupTrace& g : t.detail)
        for (const BarrierInterval& in : g.intervals)
            for (const WorkItemAccesses& w : in.access_log) records += w.accesses.size();
    EXPECT_GT(records, 0u);
    const TraceFile back = parse_trace_file(serialize_trace_file(TraceFile{tiled(3), t}), "test");
    EXPECT_EQ(back.trace, t);
    const FrameRequest r{{0, 0, 0}, 1, "load", std::nullopt, WorkItemId{0, 1, 0}};
    EXPECT_EQ(frame_to_json(build_frame(back.trace, matrix_roles(back.trace), r)),
              frame_to_json(build_frame(t, matrix_roles(t), r)));

    // A file saved before the log existed still loads, without it.
    Trace old = t;
    for (GroupTrace& g : old.detail)
        for (BarrierInterval& in : g.intervals) in.access_log.clear();
    const TraceFile old_back = parse_trace_file(serialize_trace_file(TraceFile{tiled(3), old}), "old");
    EXPECT_FALSE(build_frame(old_back.trace, matrix_roles(old), r).has_log);

    // A log naming a buffer the trace lacks is refused as damaged.
    Trace bad = t;
    bad.detail[0].intervals[0].access_log[0].accesses[0].buffer = 999;
    EXPECT_THROW(parse_trace_file(serialize_trace_file(TraceFile{tiled(3), bad}), "bad"), InputError);
}

namespace {
struct CliRun {
    int status = -1;
    std::string out;
};
CliRun run(const std::string& args, bool stderr_only = false) {
    CliRun r;
    const std::string cmd = std::string(TILESCOPE_BIN) + " frame " + args + (stderr_only ? " 2>&1 >/dev/null" : " 2>/dev/null");
    if (FILE* p = popen(cmd.c_str(), "r")) {
        char buf[4096];
        while (fgets(buf, sizeof buf, p)) r.out += buf;
        const int st = pclose(p);
        r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    }
    return r;
}
}  // namespace

TEST(FrameCli, JsonMatchesTheModel) {
    const CliRun r = run("--kernel tiled --size 4 --tile 2 --group 0,0 --phase 0 --part use --iteration 1 --item 1,0 --json -");
    ASSERT_EQ(r.status, 0) << r.out;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    const Frame f = frame_of(4, {0, 0, 0}, 0, "use", 1, WorkItemId{1, 0, 0});
    EXPECT_EQ(j, frame_to_json(f));
    // The contract's shape.
    EXPECT_EQ(j.at("phases"), 2);
    EXPECT_EQ(j.at("part"), "use");
    EXPECT_EQ(j.at("parts"), nlohmann::json::array({"load", "use"}));
    EXPECT_EQ(j.at("iteration"), 1);
    EXPECT_EQ(j.at("iterations"), 2);
    EXPECT_TRUE(j.at("cells").at("atile").is_array());
    EXPECT_EQ(j.at("item").at("local"), nlohmann::json::array({1, 0}));
    EXPECT_EQ(j.at("item").at("computes").at("buffer"), "C");
    EXPECT_EQ(j.at("item").at("steps").at(0).at("local_stores").at(0).at("label"), "M0,1");
    EXPECT_EQ(j.at("zero_writes"), nlohmann::json::array());
    EXPECT_EQ(j.at("tiles").size(), 2u);

    // The 3x3 example's phase 1: zeros and the tile past the edge, in the JSON and the text.
    const CliRun edge = run("--kernel tiled --size 3 --tile 2 --group 0,0 --phase 1 --part load --json -");
    ASSERT_EQ(edge.status, 0) << edge.out;
    const nlohmann::json e = nlohmann::json::parse(edge.out);
    EXPECT_EQ(e, frame_to_json(frame_of(3, {0, 0, 0}, 1, "load")));
    EXPECT_EQ(e.at("zero_writes").size(), 4u);
    EXPECT_EQ(e.at("tiles").at(0).at("outside"), nlohmann::json::parse("[[0,3],[1,3]]"));
    const CliRun edge_text = run("--kernel tiled --size 3 --tile 2 --group 0,0 --phase 1 --part load");
    EXPECT_NE(edge_text.out.find("atile: work-items (1,0), (1,1) write 0 in place of M0,3, M1,3 (outside M)"), std::string::npos)
        << edge_text.out;

    const CliRun text = run("--size 4 --tile 2 --phase 0 --part use --iteration 1");
    EXPECT_EQ(text.status, 0);
    EXPECT_EQ(text.out.rfind("Phase 0 Use for Block (0,0) (iteration 1)\n", 0), 0u) << text.out;
    EXPECT_EQ(run("--help").status, 0);
}

TEST(FrameCli, BadValuesExitTwoWithOneLine) {
    const std::pair<const char*, const char*> bad[] = {
        {"--phase 2", "--phase 2"},          {"--phase x", "--phase 'x'"},
        {"--part nope", "--part 'nope'"},    {"--part use --iteration 5", "--iteration 5"},
        {"--iteration 0", "--iteration 0"},  {"--item 2,0", "--item 2,0"},
        {"--item 1,0,1", "--item 1,0,1"},            {"--group 2,0", "--group 2,0"},
        {"--group x", "--group 'x'"},        {"--naming greek", "--naming 'greek'"},
    };
    for (const auto& [args, named] : bad) {
        SCOPED_TRACE(args);
        const CliRun r = run(std::string("--size 4 --tile 2 ") + args, true);
        EXPECT_EQ(r.status, 2);
        EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
        EXPECT_NE(r.out.find(named), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("accepted"), std::string::npos) << r.out;
    }
}
