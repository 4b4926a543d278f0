// Unit tests of the trace model, analysis and export: hand-made plugin results, no
// emulator.
#include <gtest/gtest.h>

#include "core/trace/analysis.h"
#include "core/base/errors.h"
#include "core/trace/trace.h"
#include "core/io/trace_export.h"
#include "core/emulator/intake.h"
#include "core/emulator/oclgrind_messages.h"
#include "core/emulator/trace_runner.h"

using namespace tilescope;
namespace ta = tilescope::trace_abi;

namespace {

TracedBuffer matrix(int64_t rows, int64_t cols, Layout layout) {
    TracedBuffer b;
    b.name = "A";
    b.is_matrix = true;
    b.rows = rows;
    b.cols = cols;
    b.layout = layout;
    b.elements = static_cast<uint64_t>(rows * cols);
    return b;
}

std::vector<uint64_t> block(const TracedBuffer& b, int64_t r0, int64_t c0, int64_t r1, int64_t c1) {
    std::vector<uint64_t> e;
    for (int64_t r = r0; r <= r1; ++r)
        for (int64_t c = c0; c <= c1; ++c) e.push_back(b.element(r, c));
    std::sort(e.begin(), e.end());
    return e;
}

TEST(CoverRectangles, OneTileRowMajor) {
    const TracedBuffer a = matrix(32, 32, Layout::RowMajor);
    EXPECT_EQ(cover_rectangles(a, block(a, 8, 16, 15, 23)), (std::vector<Rect>{{8, 16, 15, 23}}));
}

TEST(CoverRectangles, OneTileColumnMajorInMatrixCoordinates) {
    const TracedBuffer a = matrix(24, 8, Layout::ColMajor);
    const auto e = block(a, 16, 0, 23, 7);
    EXPECT_EQ(e.front(), 16u);  // column-major: (16, 0) is element 16
    EXPECT_EQ(cover_rectangles(a, e), (std::vector<Rect>{{16, 0, 23, 7}}));
}

TEST(CoverRectangles, TwoTilesAndAnLShape) {
    const TracedBuffer a = matrix(16, 16, Layout::RowMajor);
    auto e = block(a, 0, 0, 3, 3);
    auto f = block(a, 8, 8, 9, 15);
    e.insert(e.end(), f.begin(), f.end());
    e.push_back(a.element(4, 0));  // below the first tile: an L, covered by two rectangles
    e.push_back(a.element(4, 0));  // repeats are fine
    std::sort(e.begin(), e.end());
    const auto rects = cover_rectangles(a, e);
    EXPECT_EQ(rects, (std::vector<Rect>{{0, 0, 3, 3}, {4, 0, 4, 0}, {8, 8, 9, 15}}));
    int64_t area = 0;
    for (const Rect& r : rects) area += r.area();
    EXPECT_EQ(area, 16 + 1 + 16);
}

TEST(CoverRectangles, VectorBufferIsOneRow) {
    TracedBuffer v;
    v.name = "x";
    v.elements = 100;
    v.cols = 100;
    EXPECT_EQ(cover_rectangles(v, {3, 4, 5, 9}), (std::vector<Rect>{{0, 3, 0, 5}, {0, 9, 0, 9}}));
}

TEST(ExpectedTraffic, NaiveAndTiledSquare) {
    const auto naive = expected_traffic("naive", {64, 64, 64}, 16);
    ASSERT_TRUE(naive);
    EXPECT_EQ(naive->global_load_bytes, 2097152u);
    EXPECT_EQ(naive->barriers, 0u);
    for (int ts : {4, 8, 16, 32}) {
        const auto tiled = expected_traffic("tiled", {64, 64, 64}, ts);
        ASSERT_TRUE(tiled);
        EXPECT_EQ(tiled->global_load_bytes, 2097152u / ts) << ts;
        const uint64_t groups = (64 / ts) * (64 / ts), phases = 64 / ts;
        EXPECT_EQ(tiled->barriers, groups * phases * 2) << ts;
    }
}

TEST(ExpectedTraffic, TiledPartialTiles) {
    // 37x29x45, TS 8: 4 group columns each load all of A's 37x45 in range, 5 group rows
    // all of B's 45x29; out-of-range elements are zero-filled without a load.
    const auto e = expected_traffic("tiled", {37, 29, 45}, 8);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->global_load_bytes, (4u * 37 * 45 + 5u * 45 * 29) * 4);
    EXPECT_EQ(e->barriers, 4u * 5 * 6 * 2);
    EXPECT_EQ(e->local_store_bytes, 20u * 64 * 6 * 2 * 4);
    EXPECT_EQ(e->global_store_bytes, 37u * 29 * 4);
}

TEST(ExpectedTraffic, RowRungs) {
    EXPECT_EQ(expected_traffic("row", {8, 4, 2}, 4)->global_load_bytes, 2u * 8 * 4 * 2 * 4);
    EXPECT_EQ(expected_traffic("row_private", {8, 4, 2}, 4)->global_load_bytes, (8u * 2 + 8 * 4 * 2) * 4);
    const auto rpl = expected_traffic("row_private_local", {9, 4, 2}, 4);  // 3 groups
    EXPECT_EQ(rpl->global_load_bytes, (9u * 2 + 3 * 4 * 2) * 4);
    EXPECT_EQ(rpl->barriers, 3u * 4 * 2);
    EXPECT_FALSE(expected_traffic("clblast", {8, 8, 8}, 4));
}

// A small hand-made plugin result: a 4x4 row-major A (loaded), a 4x4 column-major B.
ta::Result sample_result() {
    ta::Result r;
    r.kernel = "mm";
    r.work_dim = 2;
    r.global_size = {4, 4, 1};
    r.local_size = {2, 2, 1};
    r.num_groups = {2, 2, 1};
    r.global = {256, 64, 64, 16};
    r.local = {32, 16, 8, 4};
    r.barriers = 8;
    r.coalescing = {10, 25, 40};  // ideal: 4 sectors per request (floats)
    r.bank_conflicts = {4, 6, 3, 1};
    ta::BufferStats a;
    a.name = "A";
    a.arg_index = 3;
    a.elements = 16;
    a.memory_buffer = 1;
    a.counts = {128, 0, 32, 0};
    a.load_counts.assign(16, 0);
    for (int i = 0; i < 8; ++i) a.load_counts[i] = 4;  // rows 0-1
    ta::BufferStats b = a;
    b.name = "B";
    b.arg_index = 4;
    b.memory_buffer = 2;
    r.buffers = {a, b};
    ta::BufferStats unbound;
    unbound.name = "(unbound)";
    r.buffers.push_back(unbound);
    r.lines = {{10, false, {256, 0, 64, 0}, {8, 8}, {}}, {11, false, {0, 64, 0, 16}, {2, 17}, {}},
               {12, true, {32, 16, 8, 4}, {}, {4, 6, 3, 1}}};
    ta::GroupDetail g;
    g.group = {1, 0, 0};
    g.size = {2, 2, 1};
    ta::IntervalDetail iv;
    iv.index = 0;
    iv.end_line = 20;
    iv.global = {64, 0, 16, 0};
    ta::BufferTouches ta;
    ta.buffer = 0;
    for (uint32_t e : {0u, 1u, 4u, 5u}) ta.loads.push_back({e, e % 2});
    ta::BufferTouches tb;
    tb.buffer = 1;  // column-major B: elements 8..11 are column 2
    for (uint32_t e : {8u, 9u, 10u, 11u}) tb.loads.push_back({e, 0});
    iv.global_touches = {ta, tb};
    g.intervals.push_back(iv);
    r.details.push_back(g);
    r.groups = {{{0, 0, 0}, 2, {}, {}}, {{1, 0, 0}, 2, {}, {}}};
    return r;
}

TraceContext sample_context() {
    TraceContext c;
    c.kernel = "mm";
    c.custom = true;
    c.size = {4, 4, 4};
    c.tile = 2;
    c.dims = 2;
    c.flops = 128;
    ResolvedArg a;
    a.spec = parse_arg_spec("A=matrix:MxK:in");
    a.rows = a.cols = 4;
    ResolvedArg b;
    b.spec = parse_arg_spec("B=matrix:KxN:colmajor:in");
    b.rows = b.cols = 4;
    c.args = {a, b};
    return c;
}

TEST(BuildTrace, TotalsBuffersAndRectangles) {
    const Trace t = build_trace(sample_result(), sample_context());
    EXPECT_EQ(t.totals.global_load_bytes, 256u);
    EXPECT_EQ(t.totals.local_store_bytes, 16u);
    EXPECT_EQ(t.totals.barriers, 8u);
    ASSERT_EQ(t.buffers.size(), 2u);  // the untouched "(unbound)" is left out
    EXPECT_EQ(t.buffers[0].distinct_elements_loaded, 8u);
    EXPECT_EQ(t.buffers[0].loads_at(1, 3), 4u);
    EXPECT_EQ(t.buffers[0].loads_at(2, 0), 0u);
    EXPECT_EQ(t.buffers[1].layout, Layout::ColMajor);
    const GroupTrace* g = t.find_group({1, 0, 0});
    ASSERT_NE(g, nullptr);
    ASSERT_EQ(g->intervals.size(), 1u);
    const BarrierInterval& iv = g->intervals[0];
    EXPECT_EQ(iv.end_line, 20);
    ASSERT_NE(iv.find("A"), nullptr);
    EXPECT_EQ(iv.find("A")->loaded, (std::vector<Rect>{{0, 0, 1, 1}}));
    EXPECT_EQ(iv.find("A")->elements_loaded, 4u);
    EXPECT_EQ(iv.find("B")->loaded, (std::vector<Rect>{{0, 2, 3, 2}}));  // column 2 of a column-major B
    EXPECT_EQ(g->local_id(3), (WorkItemId{1, 1, 0}));
}

// The access log (ABI 3) reaches the Trace with global buffers renumbered as
// Trace::buffers; records naming a buffer the trace left out are dropped.
TEST(BuildTrace, AccessLogIsRenumberedAndKeepsStoredWords) {
    ta::Result r = sample_result();
    ta::BufferStats unused;  // raw buffer 0, untouched: left out, so A (raw 1) becomes 0
    unused.name = "(unbound)";
    r.buffers.insert(r.buffers.begin(), unused);
    for (ta::BufferTouches& t : r.details[0].intervals[0].global_touches) ++t.buffer;
    r.local_buffers = {{"tile", 16, 2, 2, 0}};
    ta::WorkItemAccessLog log;
    log.work_item = 1;
    using R = ta::AccessRecord;
    log.accesses.push_back({5, 30, 0, 1, 4, 0});                          // load A[5]
    log.accesses.push_back({2, 30, 0, 0, 4, 0});                          // load of the left-out buffer
    log.accesses.push_back({3, 31, 0, 0, 4, R::kLocal | R::kStore | R::kValue});  // tile word 3
    log.accesses.push_back({0, 32, 0, 7, 4, R::kLocal});                  // an unknown local buffer
    log.stored_words = {0x3f800000u};
    r.details[0].intervals[0].access_log.push_back(log);

    const Trace t = build_trace(std::move(r), sample_context());
    const auto& got = t.detail.at(0).intervals.at(0).access_log;
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].work_item, 1u);
    ASSERT_EQ(got[0].accesses.size(), 2u);
    EXPECT_EQ(t.buffers[got[0].accesses[0].buffer].name, "A");
    EXPECT_EQ(got[0].accesses[0].element, 5u);
    EXPECT_FALSE(got[0].accesses[0].local());
    const MemoryAccess& st = got[0].accesses[1];
    EXPECT_TRUE(st.local() && st.store() && st.has_value());
    EXPECT_EQ(st.line, 31u);
    ASSERT_EQ(st.value_count(), 1u);
    EXPECT_EQ(got[0].stored_words.at(st.value_begin), 0x3f800000u);
}

TEST(Analysis, RatiosAndSummaries) {
    const Trace t = build_trace(sample_result(), sample_context());
    EXPECT_DOUBLE_EQ(compute_to_global_ratio(t), 128.0 / 64.0);
    const auto spaces = traffic_by_space(t);
    ASSERT_EQ(spaces.size(), 3u);
    EXPECT_EQ(spaces[1].space, "local");
    EXPECT_EQ(spaces[1].load_bytes, 32u);
    const CoalescingSummary cs = coalescing_summary(t);
    EXPECT_DOUBLE_EQ(cs.total.sectors_per_request(), 2.5);
    ASSERT_EQ(cs.lines.size(), 2u);
    EXPECT_EQ(cs.lines[0].line, 11);  // 8.5 sectors per request: the worst first
    EXPECT_DOUBLE_EQ(cs.ideal_sectors_per_request, 4.0);
    const BankConflictSummary bs = bank_conflict_summary(t);
    EXPECT_EQ(bs.total.max_degree, 3u);
    EXPECT_DOUBLE_EQ(bs.total.mean_degree(), 1.5);
    EXPECT_TRUE(expected_vs_traced(t).empty());  // custom kernel: no closed form
    const auto reuse = buffer_reuse(t);
    ASSERT_EQ(reuse.size(), 2u);
    EXPECT_DOUBLE_EQ(reuse[0].loads_per_element, 4.0);
}

TEST(Export, JsonFollowsTheContract) {
    const Trace t = build_trace(sample_result(), sample_context());
    const nlohmann::json j = trace_to_json(t);
    for (const char* key : {"kernel", "device", "M", "N", "K", "tile", "global", "local", "groups", "totals", "buffers",
                            "coalescing", "bank_conflicts", "diagnostics", "per_group"})
        EXPECT_TRUE(j.contains(key)) << key;
    EXPECT_EQ(j["device"], "emulator");
    EXPECT_EQ(j["groups"], 4);
    EXPECT_EQ(j["global"], nlohmann::json::array({4, 4}));
    for (const char* key : {"global_load_bytes", "global_store_bytes", "local_load_bytes", "local_store_bytes", "barriers", "flops"})
        EXPECT_TRUE(j["totals"].contains(key)) << key;
    EXPECT_EQ(j["buffers"]["A"]["distinct_elements_loaded"], 8);
    EXPECT_DOUBLE_EQ(j["coalescing"]["sectors_per_request"].get<double>(), 2.5);
    EXPECT_DOUBLE_EQ(j["bank_conflicts"]["mean_degree"].get<double>(), 1.5);
    const auto& iv = j["per_group"][0]["intervals"][0];
    EXPECT_EQ(j["per_group"][0]["group"], nlohmann::json::array({1, 0, 0}));
    EXPECT_EQ(iv["loaded"]["A"], nlohmann::json::parse("[[0,0,1,1]]"));
    EXPECT_EQ(iv["global_load_bytes"], 64);
    const std::string text = trace_summary(t);
    EXPECT_NE(text.find("coalescing"), std::string::npos);
    EXPECT_NE(text.find("work-group (1,0): "), std::string::npos) << text;
}

std::vector<Diagnostic> diagnose_messages(std::vector<ta::Message> messages, std::vector<ta::BufferStats> buffers = {},
                                          std::vector<ta::LocalBufferInfo> local = {}) {
    ta::Result r;
    r.messages = std::move(messages);
    r.buffers = std::move(buffers);
    r.local_buffers = std::move(local);
    r.address_offset_bits = 48;
    return diagnose(r);
}

ta::Message message(const std::string& text, uint32_t line = 0) {
    ta::Message m;
    m.type = 3;
    m.text = text;
    m.line = line;
    return m;
}

// Oclgrind's report layout: a headline, then indented details with "At line N".
const char* kRace =
    "Read-write data race at local memory address 0x1000000000004\n"
    "\tKernel: mm\n\n"
    "\tFirst entity:  Global(9,0,0) Local(1,0,0) Group(1,0,0)\n"
    "\t  store float %x, float addrspace(3)* %p, align 4\n"
    "\tAt line 24 (column 23) of input.cl:\n\t  atile[lr][lc] = ...;\n\n"
    "\tSecond entity: Global(8,0,0) Local(0,0,0) Group(1,0,0)\n"
    "\t  %4 = load float, float addrspace(3)* %q, align 4\n"
    "\tAt line 29 (column 20) of input.cl:\n\t  acc += ...;\n";

TEST(Diagnose, RaceNamesTheWriteLineAndWorkItems) {
    ta::LocalBufferInfo atile{"atile", 256, 8, 8, 1};
    const auto d = diagnose_messages({message(kRace)}, {}, {atile});
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].kind, DiagnosticKind::Race);
    EXPECT_EQ(d[0].line, 24);
    EXPECT_EQ(d[0].work_items, (std::vector<WorkItemId>{{9, 0, 0}, {8, 0, 0}}));
    EXPECT_NE(d[0].message.find("barrier"), std::string::npos) << d[0].message;
    EXPECT_NE(d[0].message.find("line 29"), std::string::npos) << d[0].message;
    EXPECT_NE(d[0].message.find("atile[0][1]"), std::string::npos) << d[0].message;  // byte 4 = word 1
}

TEST(Diagnose, ReadFirstThenWriteStillPointsAtTheWrite) {
    std::string swapped = kRace;
    const auto store = swapped.find("store float"), load = swapped.find("%4 = load");
    swapped.replace(load, 9, "store flt");
    swapped.replace(store, 11, "%3 = load f");
    const auto d = diagnose_messages({message(swapped)});
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].line, 29);
}

TEST(Diagnose, RepeatsAreMergedWithACount) {
    ta::Message counted = message(kRace);
    counted.repeats = 40;  // the plugin kept one copy of 41 reports
    const auto d = diagnose_messages({message(kRace), message(kRace), counted});
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].count, 43u);
}

TEST(Diagnose, DivergenceBothForms) {
    const std::string only =
        "Work-group divergence detected (barrier)\n\tKernel:     mm\n\tWork-group: (0,1,0)\n"
        "\tOnly 32 out of 64 work-items executed barrier\n"
        "\t  tail call spir_func void @_Z7barrierj(i32 1)\n\tAt line 26 (column 13) of input.cl:\n\t  barrier(...);\n";
    const std::string different =
        "Work-group divergence detected (barrier)\n\tKernel:     mm\n\tWork-group: (0,0,0)\n\n"
        "\tWork-item:  Global(2,4,0) Local(2,4,0) Group(0,0,0)\n"
        "\t  tail call spir_func void @_Z7barrierj(i32 1)\n\tAt line 30 (column 9) of input.cl:\n\t  barrier(...);\n"
        "\tfence=0x1, num_events=0\n\n\tPrevious work-items executed:\n"
        "\t  tail call spir_func void @_Z7barrierj(i32 1)\n\tAt line 26 (column 13) of input.cl:\n\t  barrier(...);\n";
    const auto d = diagnose_messages({message(only), message(different)});
    ASSERT_EQ(d.size(), 2u);
    for (const Diagnostic& x : d) {
        EXPECT_EQ(x.kind, DiagnosticKind::Divergence);
        EXPECT_EQ(x.line, 26);
    }
    EXPECT_NE(d[0].message.find("Only 32 of the 64"), std::string::npos) << d[0].message;
    EXPECT_EQ(d[1].work_items, (std::vector<WorkItemId>{{2, 4, 0}}));
}

TEST(Diagnose, OutOfBoundsNamesTheElement) {
    ta::BufferStats a;
    a.name = "A";
    a.arg_index = 3;
    a.memory_buffer = 1;
    a.elements = 144;
    const std::string text =
        "Invalid read of size 4 at global memory address 0x1000000000240\n\tKernel: mm\n"
        "\tEntity: Global(0,12,0) Local(0,4,0) Group(0,1,0)\n\t  %1 = load float\n"
        "\tAt line 14 (column 16) of input.cl:\n\t  acc += ...;\n";
    const auto d = diagnose_messages({message(text)}, {a});
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].kind, DiagnosticKind::OutOfBounds);
    EXPECT_EQ(d[0].line, 14);
    EXPECT_NE(d[0].message.find("A[144]"), std::string::npos) << d[0].message;
    EXPECT_NE(d[0].message.find("past the end of A (144 elements)"), std::string::npos) << d[0].message;
    EXPECT_EQ(d[0].work_items, (std::vector<WorkItemId>{{0, 12, 0}}));
}

TEST(Diagnose, UninitializedAndOther) {
    const auto d = diagnose_messages({message("Uninitialized value read from local memory address 0x1000000000000\n\tKernel: mm\n"
                                     "\tEntity: Global(1,0,0) Local(1,0,0) Group(0,0,0)\n\tAt line 7 (column 1) of input.cl:\n"),
                             message("Something new happened\n", 9)});
    ASSERT_EQ(d.size(), 2u);
    EXPECT_EQ(d[0].kind, DiagnosticKind::Uninitialized);
    EXPECT_EQ(d[0].line, 7);
    EXPECT_EQ(d[1].kind, DiagnosticKind::Other);
    EXPECT_EQ(d[1].line, 9);
    EXPECT_EQ(to_string(d[1].kind), "other");
}

TEST(Diagnose, InfoMessagesAreNotFindings) {
    ta::Message m = message("just saying\n");
    m.type = 1;
    EXPECT_TRUE(diagnose_messages({m}).empty());
}

TEST(ParseGroups, AcceptsAndRejects) {
    EXPECT_EQ(parse_groups("0,0;1,2"), (std::vector<GroupId>{{0, 0, 0}, {1, 2, 0}}));
    EXPECT_EQ(parse_groups("3"), (std::vector<GroupId>{{3, 0, 0}}));
    EXPECT_THROW(parse_groups("a,b"), InputError);
    EXPECT_THROW(parse_groups(""), InputError);
    EXPECT_THROW(parse_groups("1,2,3,4"), InputError);
}

TEST(RectsText, OneAndMany) {
    EXPECT_EQ(rects_text({{0, 8, 7, 15}}), "rows 0-7, cols 8-15");
    EXPECT_EQ(rects_text({{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}}, 1), "rows 0, cols 0 + 2 more");
    EXPECT_EQ(rects_text({}), "-");
}

}  // namespace
