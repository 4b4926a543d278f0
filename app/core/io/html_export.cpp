#include "core/io/html_export.h"

#include <set>
#include <stdexcept>
#include <string_view>
#include <tuple>

#include "core/caches/cache_trace.h"
#include "core/caches/occupancy.h"
#include "core/trace/analysis.h"
#include "core/trace/frame.h"
#include "core/trace/phases.h"
#include "core/kernel/source_edit.h"
#include "core/trace/view_model.h"

namespace tilescope {
using nlohmann::json;

namespace {

json rects(const std::vector<Rect>& rs) {
    json a = json::array();
    for (const Rect& r : rs) a.push_back({r.r0, r.c0, r.r1, r.c1});
    return a;
}

json matrix_shape(const Trace& t, const std::string& name, const char* role) {
    const TracedBuffer* b = t.find_buffer(name);
    if (!b || !b->is_matrix) return nullptr;
    json heat = json::array();
    if (!b->load_counts.empty())
        for (int64_t r = 0; r < b->rows; ++r)
            for (int64_t c = 0; c < b->cols; ++c) heat.push_back(b->loads_at(r, c));
    return {{"name", b->name}, {"role", role}, {"rows", b->rows}, {"cols", b->cols}, {"loads", heat}};
}

json local_array(const LocalArrayView& la) {
    std::string fresh, read;
    for (size_t i = 0; i < la.writer.size(); ++i) {
        fresh.push_back(la.fresh[i] ? '1' : (la.writer[i] >= 0 ? '2' : '0'));  // 1 stored now, 2 left from before
        read.push_back(la.read[i] ? '1' : '0');
    }
    return {{"name", la.name}, {"rows", la.rows}, {"cols", la.cols}, {"stored", fresh}, {"read", read}};
}

json group_json(const Trace& t, const MatrixRoles& roles, const GroupTrace& g) {
    json phases = json::array();
    GroupPhaseView first;
    int p = 0;
    // One walk over the group's intervals (issue 32: one group_phase_view per interval
    // replayed the local arrays from the start each time, K^2 work for K phases).
    for_each_phase_view(t, roles, g.group, [&](const GroupPhaseView& v) {
        if (p++ == 0) first = v;
        json locals = json::array();
        for (const LocalArrayView& la : v.locals) locals.push_back(local_array(la));
        phases.push_back({{"end_line", v.end_line},
                          {"phase", v.phase},
                          {"part", v.part},
                          {"title", v.title},
                          {"a", rects(v.a_loaded)},
                          {"b", rects(v.b_loaded)},
                          {"c", rects(v.c_stored)},
                          {"global_load_bytes", v.global.load_bytes},
                          {"global_store_bytes", v.global.store_bytes},
                          {"local_load_bytes", v.local.load_bytes},
                          {"local_store_bytes", v.local.store_bytes},
                          {"locals", locals}});
    });
    return {{"id", {g.group[0], g.group[1], g.group[2]}},
            {"phase_count", first.phases},
            {"a_strip", rects(first.a_strip)},
            {"b_strip", rects(first.b_strip)},
            {"c_block", rects(first.c_block)},
            {"parts", phases}};
}

// Who computes each cell of C, as group index (into `groups` of the page) and linear
// local id, so hovering needs no arithmetic in the page.
json owners(const Trace& t, const MatrixRoles& roles, int64_t max_cells) {
    const TracedBuffer* c = t.find_buffer(roles.c);
    if (!c || !c->is_matrix || c->rows * c->cols > max_cells) return nullptr;
    json cells = json::array();
    for (int64_t r = 0; r < c->rows; ++r)
        for (int64_t col = 0; col < c->cols; ++col) {
            const auto o = cell_owner(t, roles, r, col);
            if (!o) cells.push_back(nullptr);
            else cells.push_back({o->group[0], o->group[1], o->local[0], o->local[1], o->from_trace});
        }
    return cells;
}

// The roles as the page numbers them (frame cells carry the index).
const CellRole kRoles[] = {CellRole::Loaded, CellRole::Stored, CellRole::Read, CellRole::Accumulates, CellRole::Holds};
int role_index(CellRole r) {
    for (int i = 0; i < 5; ++i)
        if (kRoles[i] == r) return i;
    return 0;
}

// One frame as the page paints it: its place (interval, phase, part, iteration), title,
// cells per array as [row, col, role, label], the tiles of A and B its local arrays hold as
// [matrix, r0, c0, r1, c1, [[row, col] past the edge...]] (a tile may hang past the matrix,
// as the slides draw the 3x3 example), and for each of the group's sums (in the order of
// the group's "sums") how many of its terms it has so far. `cells` counts the cells embedded.
json page_frame(const Frame& f, const std::vector<size_t>& counts, int64_t& cells) {
    json arrays = json::object();
    for (const FrameArray& a : f.arrays) {
        json list = json::array();
        // A global cell's label is its element's name, which the page writes on every cell.
        for (const FrameCell& c : a.cells)
            list.push_back(a.local ? json{c.row, c.col, role_index(c.role), c.label} : json{c.row, c.col, role_index(c.role)});
        cells += int64_t(a.cells.size());
        arrays[a.key] = std::move(list);
    }
    json tiles = json::array();
    for (const TileInMatrix& t : f.tiles) {
        if (t.matrix != "A" && t.matrix != "B") continue;
        json outside = json::array();
        for (const auto& [r, c] : t.outside) outside.push_back({r, c});
        cells += int64_t(t.outside.size());
        tiles.push_back({t.matrix, t.rect.r0, t.rect.c0, t.rect.r1, t.rect.c1, std::move(outside)});
    }
    return {{"interval", f.interval}, {"phase", f.phase}, {"part", f.part},
            {"iteration", f.iteration ? json(*f.iteration) : json(nullptr)}, {"iterations", f.iterations},
            {"title", f.title}, {"cells", arrays}, {"tiles", std::move(tiles)}, {"sum_terms", json(counts)}};
}

// A work-item's story, compact (the page holds up to max_story_items of them): elements
// by label, local cells as [array, row, col, label, iteration] (reads) or
// [array, row, col, label, stands_for or null, outside] (stores).
json page_story(const WorkItemStory& s, int dims) {
    const auto id = [dims](const std::array<uint32_t, 3>& a) {
        json j = json::array();
        for (int d = 0; d < std::max(1, dims); ++d) j.push_back(a[d]);
        return j;
    };
    const auto labels = [](const std::vector<ElementRef>& es) {
        json j = json::array();
        for (const ElementRef& e : es) j.push_back(e.label);
        return j;
    };
    json steps = json::array();
    for (const WorkItemStep& st : s.steps) {
        json ls = json::array(), lr = json::array();
        for (const LocalCellRef& c : st.local_stores)
            ls.push_back({c.array, c.row, c.col, c.label, c.stands_for ? json(c.stands_for->label) : json(nullptr), c.stands_outside});
        for (const LocalCellRef& c : st.local_reads) lr.push_back({c.array, c.row, c.col, c.label, c.iteration});
        steps.push_back({{"interval", st.interval}, {"phase", st.phase}, {"part", st.part}, {"loads", labels(st.loads)},
                         {"stores", labels(st.stores)}, {"local_stores", ls}, {"local_reads", lr}});
    }
    return {{"group", id(s.group)}, {"local", id(s.local)}, {"global", id(s.global)},
            {"computes", s.computes ? json{{"label", s.computes->label}, {"row", s.computes->row}, {"col", s.computes->col}} : json(nullptr)},
            {"assigned", s.assigned ? json(s.assigned->label) : json(nullptr)}, {"assigned_outside", s.assigned_outside},
            {"steps", steps}, {"cases", s.cases}};
}

// The slides' frames of one detail group, its C cells' final sums and its work-items'
// stories, within the budgets of `options` (see HandoutOptions).
void add_frames(const Trace& t, const MatrixRoles& roles, const GroupTrace& g, const HandoutOptions& options,
                int64_t& cells, size_t& stories, json& out) {
    // The group is replayed once; every frame, sum and story below reads that replay
    // (issue 32: one replay per frame made the hand-out quadratic in the phases).
    const GroupFrames group(t, roles, g.group);
    const PhasePlan& plan = group.plan();
    std::vector<Frame> parts;
    std::set<std::pair<int, std::string>> named;
    for (const PhasePart& p : plan.parts) {
        if (!named.insert({p.phase, p.name}).second) return;  // two parts of one phase with one name: not addressable by name
        parts.push_back(group.frame(FrameRequest{g.group, p.phase, p.name, std::nullopt, std::nullopt, Naming::Slides}, false));
    }
    if (parts.empty()) {  // no barrier: the whole run is one part
        parts.push_back(group.frame(FrameRequest{g.group, 0, "", std::nullopt, std::nullopt, Naming::Slides}, false));
    }
    const std::vector<CellSum>& final_sums = group.final_sums();
    // What embedding every iteration would cost, estimated from the part frames.
    int64_t part_cells = 0, iteration_cells = 0;
    for (const Frame& f : parts) {
        int64_t n = 0;
        for (const FrameArray& a : f.arrays) n += int64_t(a.cells.size());
        part_cells += n;
        iteration_cells += f.iterations ? n * f.iterations : n;
    }
    const bool iterations = cells + iteration_cells <= options.max_frame_cells;
    if (!iterations && cells + part_cells > options.max_frame_cells) return;
    json frames = json::array();
    for (const Frame& f : parts) {
        if (!iterations || f.iterations == 0) {
            frames.push_back(page_frame(f, group.term_counts(f.interval, std::nullopt), cells));
            continue;
        }
        for (int i = 0; i < f.iterations; ++i)
            frames.push_back(page_frame(group.frame(FrameRequest{g.group, f.phase, f.part, i, std::nullopt, Naming::Slides}, false),
                                        group.term_counts(f.interval, i), cells));
    }
    json sums = json::array();
    for (const CellSum& s : final_sums) sums.push_back({s.row, s.col, s.label, s.terms});
    json arrays = json::array();
    for (const FrameArray& a : parts.front().arrays)
        arrays.push_back({{"key", a.key}, {"buffer", a.buffer}, {"local", a.local}, {"rows", a.rows}, {"cols", a.cols}});
    json items = json::array();
    const uint32_t lx = uint32_t(t.local[0]), ly = uint32_t(t.local[1]), lz = uint32_t(t.local[2]);
    const uint64_t n_items = uint64_t(lx) * ly * lz;
    if (stories + n_items <= options.max_story_items) {
        for (uint32_t z = 0; z < lz; ++z)
            for (uint32_t y = 0; y < ly; ++y)
                for (uint32_t x = 0; x < lx; ++x)
                    items.push_back(page_story(group.story(WorkItemId{x, y, z}), t.dims));
        stories += n_items;
    }
    out["frames"] = frames;
    out["iteration_frames"] = iterations;
    out["frame_arrays"] = arrays;
    out["sums"] = sums;
    out["stories"] = items;
    out["has_log"] = parts.front().has_log;
}

json counters(const Trace& t) {
    json expected = json::array();
    for (const ExpectedVsTraced& e : expected_vs_traced(t))
        expected.push_back({{"quantity", e.quantity}, {"expected", e.expected}, {"traced", e.traced}, {"formula", e.formula}});
    const CoalescingSummary cs = coalescing_summary(t);
    const BankConflictSummary bs = bank_conflict_summary(t);
    return {{"global_load_bytes", t.totals.global_load_bytes},
            {"global_store_bytes", t.totals.global_store_bytes},
            {"local_load_bytes", t.totals.local_load_bytes},
            {"local_store_bytes", t.totals.local_store_bytes},
            {"barriers", t.totals.barriers},
            {"flops", t.totals.flops},
            {"ratio", compute_to_global_ratio(t)},
            {"sectors_per_request", cs.total.sectors_per_request()},
            {"ideal_sectors", cs.total.ideal_sectors_per_request()},
            {"bank_requests", bs.total.requests},
            {"bank_max_degree", bs.total.max_degree},
            {"bank_mean_degree", bs.total.mean_degree()},
            {"expected", expected}};
}

}  // namespace

json handout_data(const TraceFile& file, const HandoutOptions& options) {
    const Trace& t = file.trace;
    const MatrixRoles roles = matrix_roles(t, file.launch.kernel.check);
    json d;
    d["kernel"] = t.kernel;
    d["title"] = file.launch.kernel.title;
    d["lesson"] = file.launch.kernel.lesson;
    d["size"] = {t.size.M, t.size.N, t.size.K};
    d["label"] = t.size.label();
    d["tile"] = t.tile;
    d["local"] = {t.local[0], t.local[1], t.local[2]};
    d["group_grid"] = {t.groups[0], t.groups[1], t.groups[2]};
    d["A"] = matrix_shape(t, roles.a, "M");
    d["B"] = matrix_shape(t, roles.b, "N");
    d["C"] = matrix_shape(t, roles.c, "P");
    d["groups"] = json::array();
    int64_t frame_cells = 0;
    size_t stories = 0;
    for (size_t i = 0; i < t.detail.size() && i < options.max_groups; ++i) {
        json g = group_json(t, roles, t.detail[i]);
        if (i < options.max_frame_groups) add_frames(t, roles, t.detail[i], options, frame_cells, stories, g);
        d["groups"].push_back(std::move(g));
    }
    d["roles"] = json::array();
    for (CellRole r : kRoles) d["roles"].push_back(std::string(to_string(r)));
    d["frame_limits"] = {{"groups", options.max_frame_groups}, {"cells", options.max_frame_cells}, {"stories", options.max_story_items}};
    d["dims"] = t.dims;
    // The A/B/C naming toggle renames labels by their first letter (M->A, N->B, P->C); a
    // buffer outside those roles whose name starts with one of them would be renamed too.
    bool abc = true;
    for (const TracedBuffer& b : t.buffers)
        if (b.name != roles.a && b.name != roles.b && b.name != roles.c && !b.name.empty() &&
            (b.name[0] == 'M' || b.name[0] == 'N' || b.name[0] == 'P'))
            abc = false;
    d["abc_naming"] = abc;
    d["owners"] = owners(t, roles, options.max_hover_cells);
    json wrong = json::array();
    for (const auto& cell : t.wrong_cells) wrong.push_back({cell[0], cell[1]});
    d["wrong_cells"] = wrong;
    d["verification"] = t.verification ? json(t.verification->summary()) : json(nullptr);
    d["counters"] = counters(t);
    // The slides' "blocks per SM" for this launch's work-group on every device profile
    // (modelled; the set-up panel's table): empty when the kernel takes no local memory.
    d["occupancy"] = {{"headings", occupancy_row_headings()}, {"rows", occupancy_across_json(occupancy_of_trace(t))},
                      {"group_threads", t.local[0] * t.local[1] * t.local[2]}};
    // The cache model's report when the trace carries one (modelled, its profile named).
    d["caches"] = t.caches ? cache_report_to_json(*t.caches) : json(nullptr);
    json diags = json::array();
    for (const Diagnostic& g : t.diagnostics)
        diags.push_back({{"kind", std::string(to_string(g.kind))}, {"line", g.line}, {"message", g.message}, {"count", g.count}});
    d["diagnostics"] = diags;
    d["source"] = file.launch.kernel.source;
    d["source_name"] = file.launch.kernel.source_name;
    d["barrier_lines"] = barrier_lines(file.launch.kernel.source);
    d["dropped_barriers"] = t.dropped_barriers;
    d["reuse"] = json::array();
    for (const auto& [name, role] : {std::pair{roles.a, "A"}, std::pair{roles.b, "B"}}) {
        const ReuseLine r = reuse_line(t, name, role);
        if (r.buffer.empty() || !t.find_buffer(name)) continue;
        d["reuse"].push_back({{"buffer", name}, {"min", r.min_loads}, {"max", r.max_loads}, {"mean", r.mean_loads},
                              {"formula", r.formula}, {"matches", r.formula_matches}});
    }
    return d;
}

std::string handout_html(const TraceFile& file, const HandoutOptions& options) {
    return handout_page(handout_data(file, options));
}

}  // namespace tilescope
