#include "core/io/trace_export.h"

#include "core/base/number_text.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "core/trace/analysis.h"
#include "core/trace/phases.h"
#include "core/caches/cache_trace.h"

namespace tilescope {
using nlohmann::json;

namespace {

json dims_json(const std::array<uint64_t, 3>& v, int dims) {
    json a = json::array();
    for (int d = 0; d < dims; ++d) a.push_back(v[d]);
    return a;
}

json rects_json(const std::vector<Rect>& rects) {
    json a = json::array();
    for (const Rect& r : rects) a.push_back({r.r0, r.c0, r.r1, r.c1});
    return a;
}

json counts_json(const CoalescingCounts& c) {
    return {{"requests", c.requests},
            {"sectors", c.sectors},
            {"sectors_per_request", c.sectors_per_request()},
            {"ideal_sectors_per_request", c.ideal_sectors_per_request()}};
}

json bank_json(const BankConflictCounts& b) {
    return {{"requests", b.requests},
            {"max_degree", b.max_degree},
            {"mean_degree", b.mean_degree()},
            {"conflicted_requests", b.conflicted_requests}};
}

std::string id_text(const std::array<uint32_t, 3>& id, int dims) {
    std::string s(1, '(');
    for (int d = 0; d < dims; ++d) {
        if (d) s.push_back(',');
        s.append(std::to_string(id[d]));
    }
    s.push_back(')');
    return s;
}

std::string pad(std::string s, size_t width) {
    if (s.size() < width) s.append(width - s.size(), ' ');
    return s;
}

std::string lpad(std::string s, size_t width) {
    if (s.size() < width) s.insert(0, width - s.size(), ' ');
    return s;
}

}  // namespace

std::string rects_text(const std::vector<Rect>& rects, size_t max_listed) {
    if (rects.empty()) return "-";
    auto range = [](int64_t a, int64_t b) { return a == b ? std::to_string(a) : std::to_string(a) + "-" + std::to_string(b); };
    std::string s;
    for (size_t i = 0; i < rects.size() && i < max_listed; ++i) {
        if (i) s += "; ";
        s += "rows " + range(rects[i].r0, rects[i].r1) + ", cols " + range(rects[i].c0, rects[i].c1);
    }
    if (rects.size() > max_listed) s += " + " + std::to_string(rects.size() - max_listed) + " more";
    return s;
}

json trace_to_json(const Trace& t) {
    json j;
    j["kernel"] = t.kernel;
    j["entry"] = t.entry;
    j["device"] = t.device;
    j["M"] = t.size.M;
    j["N"] = t.size.N;
    j["K"] = t.size.K;
    j["tile"] = t.tile;
    j["params"] = t.params;
    j["global"] = dims_json(t.global, t.dims);
    j["local"] = dims_json(t.local, t.dims);
    j["groups"] = t.total_groups();
    j["group_grid"] = dims_json(t.groups, t.dims);
    j["checks"] = t.checks;
    j["complete"] = t.complete;
    j["detail_truncated"] = t.detail_truncated;
    j["geometry"] = {{"warp", t.geometry.warp}, {"sector", t.geometry.sector_bytes}, {"banks", t.geometry.banks}};
    j["totals"] = {{"global_load_bytes", t.totals.global_load_bytes},
                   {"global_store_bytes", t.totals.global_store_bytes},
                   {"local_load_bytes", t.totals.local_load_bytes},
                   {"local_store_bytes", t.totals.local_store_bytes},
                   {"private_load_bytes", t.totals.private_load_bytes},
                   {"private_store_bytes", t.totals.private_store_bytes},
                   {"barriers", t.totals.barriers},
                   {"flops", static_cast<uint64_t>(t.totals.flops)}};
    j["compute_to_global_ratio"] = compute_to_global_ratio(t);
    json buffers = json::object();
    for (const TracedBuffer& b : t.buffers) {
        json o = {{"load_bytes", b.traffic.load_bytes},
                  {"store_bytes", b.traffic.store_bytes},
                  {"distinct_elements_loaded", b.distinct_elements_loaded},
                  {"distinct_elements_stored", b.distinct_elements_stored}};
        if (b.is_matrix) {
            o["rows"] = b.rows;
            o["cols"] = b.cols;
            o["layout"] = b.layout == Layout::RowMajor ? "rowmajor" : "colmajor";
        }
        buffers[b.name] = o;
    }
    j["buffers"] = buffers;
    json local_arrays = json::array();
    for (const LocalBuffer& l : t.local_buffers)
        local_arrays.push_back({{"name", l.name}, {"rows", l.rows}, {"cols", l.cols}, {"bytes", l.bytes}});
    j["local_arrays"] = local_arrays;
    j["coalescing"] = counts_json(t.coalescing);
    j["bank_conflicts"] = bank_json(t.bank_conflicts);

    json expected = json::array();
    for (const ExpectedVsTraced& e : expected_vs_traced(t))
        expected.push_back({{"quantity", e.quantity}, {"expected", e.expected}, {"traced", e.traced},
                            {"formula", e.formula}, {"expression", e.expression}, {"matches", e.matches()}});
    j["expected"] = expected;
    if (const std::optional<FollowUpExpected> f = follow_up_expected(t); f && f->traffic) {
        // The rung's second kernel ran after the traced one, untraced: its closed forms only.
        json then = {{"entry", f->entry}, {"traced", false}};
        for (size_t i = 0; i < kRequiredClosedForms; ++i) {
            const std::string q(kClosedFormQuantities[i]);
            const ClosedForm* form = f->traffic->form(q);
            then["expected"].push_back({{"quantity", q}, {"expected", f->traffic->value(q)},
                                        {"formula", form ? form->text : ""}, {"expression", form ? form->expr : ""}});
        }
        j["then"] = then;
    }

    json lines = json::array();
    for (const LineTraffic& l : t.lines) {
        json o = {{"line", l.line}, {"space", l.local ? "local" : "global"},
                  {"load_bytes", l.traffic.load_bytes}, {"store_bytes", l.traffic.store_bytes}};
        if (l.local) o["bank_conflicts"] = bank_json(l.bank_conflicts);
        else o["coalescing"] = counts_json(l.coalescing);
        lines.push_back(o);
    }
    j["lines"] = lines;
    j["barrier_lines"] = t.barrier_lines;

    json diags = json::array();
    for (const Diagnostic& d : t.diagnostics) {
        json items = json::array();
        for (const WorkItemId& w : d.work_items) items.push_back({w[0], w[1], w[2]});
        diags.push_back({{"kind", std::string(to_string(d.kind))},
                         {"message", d.message},
                         {"line", d.line},
                         {"work_items", items},
                         {"count", d.count}});
    }
    j["diagnostics"] = diags;

    json groups = json::array();
    for (const GroupTrace& g : t.detail) {
        json intervals = json::array();
        for (const BarrierInterval& iv : g.intervals) {
            json loaded = json::object(), stored = json::object();
            for (const BufferIntervalAccess& a : iv.buffers) {
                if (!a.loaded.empty()) loaded[a.buffer] = rects_json(a.loaded);
                if (!a.stored.empty()) stored[a.buffer] = rects_json(a.stored);
            }
            intervals.push_back({{"index", iv.index},
                                 {"end_line", iv.end_line},
                                 {"global_load_bytes", iv.global.load_bytes},
                                 {"global_store_bytes", iv.global.store_bytes},
                                 {"local_load_bytes", iv.local.load_bytes},
                                 {"local_store_bytes", iv.local.store_bytes},
                                 {"loaded", loaded},
                                 {"stored", stored}});
        }
        // The slides' phases (trips round the tile loop), each with its parts; a part is
        // one barrier interval, named by what it did.
        const PhasePlan plan = phase_plan(g);
        json phases = json::array();
        for (int p = 0; p < std::max(plan.phases, plan.parts.empty() ? 0 : 1); ++p) {
            json parts = json::array();
            for (const PhasePart& part : plan.parts_of(p)) {
                const BarrierInterval& iv = g.intervals[size_t(part.interval)];
                parts.push_back({{"part", part.name},
                                 {"interval", part.interval},
                                 {"barrier_line", part.end_line},
                                 {"global_load_bytes", iv.global.load_bytes},
                                 {"global_store_bytes", iv.global.store_bytes},
                                 {"local_load_bytes", iv.local.load_bytes},
                                 {"local_store_bytes", iv.local.store_bytes}});
            }
            phases.push_back({{"phase", p}, {"parts", parts}});
        }
        if (plan.phases == 0) phases = json::array();
        groups.push_back({{"group", {g.group[0], g.group[1], g.group[2]}},
                          {"phases", plan.phases},
                          {"phase_cycle_lines", plan.cycle_lines},
                          {"phase_list", phases},
                          {"intervals", intervals}});
    }
    j["per_group"] = groups;
    // The launch's phase count, from the first group with detail (every group of a
    // ladder rung passes the same barriers; per_group has each group's own).
    if (!t.detail.empty()) j["phases"] = phase_plan(t.detail.front()).phases;
    if (t.verification) {
        j["verified"] = t.verification->verified;
        j["max_rel_error"] = t.verification->max_rel_error;
        json wrong = json::array();
        for (const auto& cell : t.wrong_cells) wrong.push_back({cell[0], cell[1]});
        j["wrong_cells"] = wrong;
    }
    if (!t.dropped_barriers.empty()) j["dropped_barriers"] = t.dropped_barriers;
    if (t.caches) j["caches"] = cache_report_to_json(*t.caches);  // modelled (issue 11)
    return j;
}

std::string trace_to_json_text(const Trace& t) { return trace_to_json(t).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"; }

static std::string join_lines(const std::vector<int>& lines) {
    std::string s;
    for (size_t i = 0; i < lines.size(); ++i) s += (i ? ", " : "") + std::to_string(lines[i]);
    return s;
}

std::string group_phase_table(const Trace& t, const SummaryOptions& options) {
    std::ostringstream o;
    const GroupTrace* g = options.group ? t.find_group(*options.group) : (t.detail.empty() ? nullptr : &t.detail.front());
    if (g) {
        const PhasePlan plan = phase_plan(*g);
        o << "\nwork-group " << id_text(g->group, t.dims) << ": ";
        if (plan.phases == 0)
            o << "no phases (it passes no barrier)\n";
        else
            o << plan.phases << (plan.phases == 1 ? " phase" : " phases") << " (trips round the tile loop; barriers on line"
              << (plan.cycle_lines.size() == 1 ? " " : "s ") << join_lines(plan.cycle_lines) << " each trip), "
              << g->intervals.size() << " parts\n";
        if (t.partial)
            o << "  (as soon as it completed, " << fixed(t.seconds, 1) << " s into the launch: " << grouped(t.group_totals.size())
              << " of " << grouped(t.total_groups()) << " work-groups done; the totals follow when the launch ends)\n";
        // Buffers the launch loaded from (a partial trace has no totals per buffer yet:
        // those this group loaded from).
        std::vector<std::string> names;
        for (const TracedBuffer& b : t.buffers) {
            bool loaded = b.traffic.loads > 0;
            for (const BarrierInterval& iv : g->intervals)
                if (const BufferIntervalAccess* a = iv.find(b.name); a && !a->local && !a->loaded.empty()) loaded = true;
            if (loaded) names.push_back(b.name);
        }
        o << "  " << pad("phase", 7) << pad("part", 12) << pad("ends at", 10) << lpad("global ld", 10) << lpad("local ld", 10) << lpad("local st", 10);
        for (const std::string& n : names) o << "   " << pad(n + " loaded", 28);
        o << "\n";
        int shown = 0;
        for (const BarrierInterval& iv : g->intervals) {
            if (shown++ >= options.max_phases) {
                o << "  ... " << g->intervals.size() - options.max_phases << " more\n";
                break;
            }
            const PhasePart* part = plan.part_at(iv.index);
            o << "  " << pad(part && plan.phases > 0 ? std::to_string(part->phase) : "-", 7)
              << pad(part ? part->name : "", 12)
              << pad(iv.end_line ? "line " + std::to_string(iv.end_line) : "end", 10) << lpad(grouped(iv.global.load_bytes), 10)
              << lpad(grouped(iv.local.load_bytes), 10) << lpad(grouped(iv.local.store_bytes), 10);
            for (const std::string& n : names) {
                const BufferIntervalAccess* a = iv.find(n);
                o << "   " << pad(a && !a->local ? rects_text(a->loaded, 1) : "-", 28);
            }
            o << "\n";
        }
    } else if (options.group) {
        o << "\nwork-group " << id_text(*options.group, t.dims) << " has no detail; trace it with --groups\n";
    }
    return o.str();
}

std::string trace_summary(const Trace& t, const SummaryOptions& options) {
    std::ostringstream o;
    o << "trace: " << t.kernel << " at " << t.size.label() << " (TS " << t.tile << ") on the emulator: "
      << t.total_groups() << " work-groups of " << t.local[0];
    for (int d = 1; d < t.dims; ++d) o << "x" << t.local[d];
    o << " work-items, " << fixed(t.seconds, 2) << " s, checks " << (t.checks ? "on" : "off")
      << (t.complete ? "" : ", INCOMPLETE") << "\n";

    o << "\ntraffic            loaded         stored\n";
    for (const SpaceTraffic& s : traffic_by_space(t)) {
        if (s.space == "private" && s.load_bytes + s.store_bytes == 0) continue;
        o << "  " << pad(s.space, 9) << lpad(grouped(s.load_bytes) + " B", 15) << lpad(grouped(s.store_bytes) + " B", 15)
          << (s.space == "private" ? "   (compiler's private copies; not counted as global or local)" : "") << "\n";
    }
    o << "  barriers " << grouped(t.totals.barriers) << ", flops " << grouped(static_cast<uint64_t>(t.totals.flops))
      << ", compute/global ratio " << fixed(compute_to_global_ratio(t)) << " flops per float loaded\n";

    const std::vector<ExpectedVsTraced> ev = expected_vs_traced(t);
    if (!ev.empty()) {
        o << "\nexpected vs traced (closed forms)\n";
        for (const ExpectedVsTraced& e : ev)
            o << "  " << pad(e.quantity, 20) << lpad(grouped(e.expected), 14) << lpad(grouped(e.traced), 14) << "  "
              << (e.matches() ? "ok  " : "DIFF") << "  " << e.formula << "\n";
    }
    if (const std::optional<FollowUpExpected> f = follow_up_expected(t); f && f->traffic)
        o << "  then " << f->entry << " (a second launch, not in this trace; its closed forms): loads "
          << grouped(f->traffic->global_load_bytes) << " B, stores " << grouped(f->traffic->global_store_bytes)
          << " B of global memory; local " << grouped(f->traffic->local_load_bytes + f->traffic->local_store_bytes)
          << " B, barriers " << grouped(f->traffic->barriers) << "\n";

    o << "\nbuffers (global)   loaded         stored   distinct loaded   loads per element\n";
    for (const BufferReuse& r : buffer_reuse(t)) {
        const TracedBuffer* b = t.find_buffer(r.buffer);
        o << "  " << pad(r.buffer, 9) << lpad(grouped(b->traffic.load_bytes) + " B", 15)
          << lpad(grouped(b->traffic.store_bytes) + " B", 15)
          << lpad(grouped(r.distinct_elements_loaded) + " of " + grouped(b->elements), 18) << lpad(fixed(r.loads_per_element, 1), 20)
          << "\n";
    }
    for (const TracedBuffer& b : t.buffers)
        if (b.traffic.loads == 0 && b.traffic.stores > 0)
            o << "  " << pad(b.name, 9) << lpad("0 B", 15) << lpad(grouped(b.traffic.store_bytes) + " B", 15) << "\n";

    const CoalescingSummary cs = coalescing_summary(t);
    o << "\ncoalescing: " << grouped(cs.total.requests) << " requests of " << t.geometry.warp << " lanes, "
      << grouped(cs.total.sectors) << " sectors of " << t.geometry.sector_bytes << " B, "
      << fixed(cs.total.sectors_per_request()) << " sectors per request (ideal " << fixed(cs.ideal_sectors_per_request)
      << ": the lanes reading consecutive elements of each access's width)\n";
    for (size_t i = 0; i < cs.lines.size() && i < 4; ++i)
        o << "  line " << lpad(std::to_string(cs.lines[i].line), 4) << ": " << fixed(cs.lines[i].counts.sectors_per_request())
          << " sectors per request (" << grouped(cs.lines[i].counts.requests) << " requests)\n";
    const BankConflictSummary bs = bank_conflict_summary(t);
    if (bs.total.requests > 0) {
        o << "bank conflicts: " << grouped(bs.total.requests) << " local requests, max degree " << bs.total.max_degree
          << ", mean " << fixed(bs.total.mean_degree()) << " (" << t.geometry.banks << " banks of 4 B; 1 = none)\n";
        for (size_t i = 0; i < bs.lines.size() && i < 4; ++i)
            o << "  line " << lpad(std::to_string(bs.lines[i].line), 4) << ": max degree " << bs.lines[i].counts.max_degree
              << ", mean " << fixed(bs.lines[i].counts.mean_degree()) << " (" << grouped(bs.lines[i].counts.requests)
              << " requests)\n";
    }

    if (options.phases) o << group_phase_table(t, options);
    if (t.detail_truncated)
        o << "(element detail stopped part-way: it outgrew its memory budget; ask for fewer --groups)\n";

    o << "\ndiagnostics: ";
    if (t.diagnostics.empty()) {
        o << (t.checks ? "none" : "none (checks off: races and uninitialised values were not looked for)") << "\n";
    } else {
        o << t.diagnostics.size() << "\n";
        int shown = 0;
        for (const Diagnostic& d : t.diagnostics) {
            if (shown++ >= options.max_diagnostics) {
                o << "  ... " << t.diagnostics.size() - options.max_diagnostics << " more (see --json)\n";
                break;
            }
            o << "  " << to_string(d.kind) << (d.line ? " at line " + std::to_string(d.line) : std::string()) << ": "
              << d.message << (d.count > 1 ? " (reported " + std::to_string(d.count) + " times)" : "") << "\n";
        }
    }
    if (t.verification) o << "verification: the emulator's result " << t.verification->summary() << "\n";
    if (!t.wrong_cells.empty()) {
        o << "wrong cells of C: " << grouped(t.wrong_cells.size()) << " of " << grouped(uint64_t(t.size.M * t.size.N))
          << " differ from the CPU reference (first:";
        for (size_t i = 0; i < t.wrong_cells.size() && i < 4; ++i)
            o << " C(" << t.wrong_cells[i][0] << "," << t.wrong_cells[i][1] << ")";
        o << (t.wrong_cells.size() > 4 ? " ...; all in --json wrong_cells)\n" : ")\n");
    }
    if (!t.dropped_barriers.empty()) {
        o << "barriers removed on line(s):";
        for (int l : t.dropped_barriers) o << " " << l;
        o << "\n";
    }
    return o.str();
}

}  // namespace tilescope
