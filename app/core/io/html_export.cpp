#include "core/io/html_export.h"

#include <string_view>

#include "core/trace/analysis.h"
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
    for (int p = 0; p < int(g.intervals.size()); ++p) {
        const GroupPhaseView v = group_phase_view(t, roles, g.group, p);
        if (p == 0) first = v;
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
    }
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
    for (size_t i = 0; i < t.detail.size() && i < options.max_groups; ++i) d["groups"].push_back(group_json(t, roles, t.detail[i]));
    d["owners"] = owners(t, roles, options.max_hover_cells);
    json wrong = json::array();
    for (const auto& cell : t.wrong_cells) wrong.push_back({cell[0], cell[1]});
    d["wrong_cells"] = wrong;
    d["verification"] = t.verification ? json(t.verification->summary()) : json(nullptr);
    d["counters"] = counters(t);
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
