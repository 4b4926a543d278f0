// Counters: traced values beside their closed forms, for the NDRange and the group. Every
// row says, on hover, what it counts and which kind of number it is.
#include <cstdio>

#include "core/trace/analysis.h"

#include "core/base/number_text.h"
#include "core/trace/phases.h"
#include "ui/state/counters.h"
#include "ui/panels/counters_panel.h"
#include "ui/widgets/plot.h"
#include "ui/widgets/theme.h"

namespace tilescope::ui {
namespace {

const char* kind_sentence(NumberKind k) {
    switch (k) {
        case NumberKind::Traced: return "Traced: the emulator counted it, access by access.";
        case NumberKind::Modelled: return "Modelled: a model applied to the traced requests.";
        case NumberKind::Measured: return "Measured: a real device timed a verified result.";
    }
    return "";
}

void draw_rows(const char* id, const char* reference_title, const std::vector<CounterRow>& rows) {
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable(id, 3, flags)) return;
    ImGui::TableSetupColumn("");
    ImGui::TableSetupColumn("traced");
    ImGui::TableSetupColumn(reference_title);
    ImGui::TableHeadersRow();
    const Palette& pal = theme().pal;
    for (const CounterRow& r : rows) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r.what.c_str());
        const bool hovered = ImGui::IsItemHovered();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r.traced.c_str());
        const bool hovered_value = ImGui::IsItemHovered();
        ImGui::TableNextColumn();
        if (r.verdict > 0) ImGui::TextColored(ImColor(pal.c_stored), "%s", r.reference.c_str());
        else if (r.verdict < 0) ImGui::TextColored(ImColor(pal.race), "%s", r.reference.c_str());
        else ImGui::TextUnformatted(r.reference.c_str());
        if ((hovered || hovered_value || ImGui::IsItemHovered()) && !r.tooltip.empty()) {
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28);
            ImGui::TextUnformatted(r.tooltip.c_str());
            ImGui::TextColored(ImColor(pal.faint_text), "%s", kind_sentence(r.kind));
            ImGui::PopTextWrapPos();
            ImGui::EndTooltip();
        }
    }
    ImGui::EndTable();
}

const ExpectedVsTraced* find_expected(const std::vector<ExpectedVsTraced>& evt, const char* quantity) {
    for (const ExpectedVsTraced& e : evt)
        if (e.quantity == quantity) return &e;
    return nullptr;
}

std::string closed_form_note(const ExpectedVsTraced* e) {
    if (!e) return " No closed form is known for this kernel.";
    return " Closed form: " + (e->formula.empty() ? std::string("from kernels/ladder.json") : e->formula) + " (" +
           (e->matches() ? "matches the trace" : "differs from the trace") + ").";
}

}  // namespace

std::string bytes_text(double b) {
    char buf[64];
    if (b >= 1 << 20) std::snprintf(buf, sizeof buf, "%.2f MB", b / double(1 << 20));
    else if (b >= 1 << 10) std::snprintf(buf, sizeof buf, "%.1f KB", b / 1024.0);
    else std::snprintf(buf, sizeof buf, "%.0f B", b);
    return buf;
}

std::vector<CounterRow> ndrange_counter_rows(const Trace& t) {
    const auto evt = expected_vs_traced(t);
    std::vector<CounterRow> rows;
    // While the launch goes on (a partial trace) the counts cover the work-groups done so
    // far: no verdict against the closed form, and what only the end knows waits for it.
    const std::string so_far = t.partial ? "So far: counted over the " + std::to_string(t.group_totals.size()) + " of " +
                                               std::to_string(t.total_groups()) + " work-groups done; the launch goes on. "
                                         : "";
    auto traffic = [&](const char* what, const char* q, uint64_t traced, const char* counts) {
        const ExpectedVsTraced* e = find_expected(evt, q);
        rows.push_back({what, bytes_text(double(traced)), e ? bytes_text(double(e->expected)) : "-",
                        e && !t.partial ? (e->matches() ? 1 : -1) : 0, NumberKind::Traced,
                        so_far + counts + (t.partial ? std::string(" Compared with the closed form when the launch ends.") : closed_form_note(e))});
    };
    traffic("global loads", "global_load_bytes", t.totals.global_load_bytes, "Bytes all work-items read from __global and __constant memory.");
    traffic("global stores", "global_store_bytes", t.totals.global_store_bytes, "Bytes all work-items wrote to __global memory.");
    traffic("local loads", "local_load_bytes", t.totals.local_load_bytes, "Bytes all work-items read from __local memory.");
    traffic("local stores", "local_store_bytes", t.totals.local_store_bytes, "Bytes all work-items wrote to __local memory.");
    const ExpectedVsTraced* eb = find_expected(evt, "barriers");
    rows.push_back({"barriers", std::to_string(t.totals.barriers), eb ? std::to_string(eb->expected) : "-",
                    eb && !t.partial ? (eb->matches() ? 1 : -1) : 0, NumberKind::Traced,
                    so_far + "Barrier releases, summed over the work-groups." + (t.partial ? std::string(" Compared with the closed form when the launch ends.") : closed_form_note(eb))});
    if (t.partial) {
        for (const char* what : {"FLOP per load", "sectors/request", "bank conflict"})
            rows.push_back({what, "at the end", "-", 0, NumberKind::Traced,
                            "Known when the launch ends: the emulator is still running the other work-groups."});
        return rows;
    }
    const double ratio = compute_to_global_ratio(t);
    const ExpectedVsTraced* eg = find_expected(evt, "global_load_bytes");
    const double expected_ratio = eg && eg->expected ? t.totals.flops / (double(eg->expected) / 4.0) : 0;
    rows.push_back({"FLOP per load", fixed(ratio, 2), eg ? fixed(expected_ratio, 2) : "-", 0,
                    NumberKind::Traced,
                    "Floating-point operations (2*M*N*K) per float loaded from global memory: the reuse the kernel gets. "
                    "The closed form divides by the closed form of the loads."});
    rows.push_back({"loads per FLOP", fixed(ratio > 0 ? 1.0 / ratio : 0.0, 3), eg && expected_ratio > 0 ? fixed(1.0 / expected_ratio, 3) : "-", 0,
                    NumberKind::Traced, "Floats loaded from global memory per floating-point operation (the inverse of the row above)."});
    const CoalescingSummary co = coalescing_summary(t);
    rows.push_back({"sectors/request", fixed(t.coalescing.sectors_per_request(), 2), "ideal " + fixed(co.ideal_sectors_per_request, 2), 0,
                    NumberKind::Traced,
                    "Distinct 32-byte sectors one global memory instruction of a 32-lane sub-group touches, on average (the "
                    "emulator's accesses regrouped into sub-groups). Ideal: the sectors the same requests need when the lanes "
                    "read consecutive elements of each access's width (4 for float, 16 for float4)."});
    rows.push_back({"bank conflict", "max " + std::to_string(t.bank_conflicts.max_degree), "1 = none", 0,
                    NumberKind::Traced,
                    "Largest number of distinct words one local memory request of a sub-group puts into one of the 32 banks "
                    "(1: no conflict; many lanes reading one word is a broadcast)."});
    return rows;
}

std::vector<CounterRow> group_counter_rows(const Trace& t, const GroupTrace& g, int interval) {
    AccessTotals gl, lo;
    for (const BarrierInterval& in : g.intervals) {
        gl.load_bytes += in.global.load_bytes;
        gl.store_bytes += in.global.store_bytes;
        lo.load_bytes += in.local.load_bytes;
        lo.store_bytes += in.local.store_bytes;
    }
    const auto evt = expected_vs_traced(t);
    const double groups = double(std::max<uint64_t>(1, t.total_groups()));
    std::vector<CounterRow> rows;
    auto add = [&](const char* what, const char* q, uint64_t traced, const char* counts) {
        const ExpectedVsTraced* e = find_expected(evt, q);
        rows.push_back({what, bytes_text(double(traced)), e ? bytes_text(double(e->expected) / groups) : "-", 0,
                        NumberKind::Traced, std::string(counts) + " Beside it: the NDRange's closed form shared evenly by the " +
                            std::to_string(t.total_groups()) + " work-groups (edge groups of sizes that are not multiples of TS do less)."});
    };
    add("global loads", "global_load_bytes", gl.load_bytes, "Bytes this work-group read from global memory.");
    add("global stores", "global_store_bytes", gl.store_bytes, "Bytes this work-group wrote to global memory.");
    add("local loads", "local_load_bytes", lo.load_bytes, "Bytes this work-group read from local memory.");
    add("local stores", "local_store_bytes", lo.store_bytes, "Bytes this work-group wrote to local memory.");
    if (interval >= 0 && interval < int(g.intervals.size())) {
        const BarrierInterval& in = g.intervals[size_t(interval)];
        const PhasePlan plan = phase_plan(g);
        const PhasePart* part = plan.part_at(interval);
        const std::string label = part && plan.phases > 0 ? "phase " + std::to_string(part->phase) + " " + part->name : "part";
        rows.push_back({label, bytes_text(double(in.global.load_bytes)) + " global",
                        bytes_text(double(in.local.load_bytes)) + " local", 0,
                        NumberKind::Traced, "Bytes this work-group loaded from global and from local memory in the part of the phase on show (one barrier interval)."});
    }
    return rows;
}

// Rows that would answer a lesson question waiting for Reveal keep their label and say so.
static std::vector<CounterRow> hidden_rows(std::vector<CounterRow> rows, const HiddenFigures& hide) {
    for (CounterRow& r : rows) {
        const bool traffic = r.what == "global loads" || r.what == "global stores";
        const bool reuse = r.what == "FLOP per load" || r.what == "loads per FLOP";
        if ((traffic && hide(Figure::GlobalTraffic)) || (reuse && hide(Figure::FlopPerLoad))) {
            r.traced = kHiddenUntilReveal;
            r.reference = "-";
            r.verdict = 0;
        }
    }
    return rows;
}

void draw_counters_panel(AppState& s, const TraceSlot& slot) {
    if (!slot.trace) {
        ImGui::TextDisabled("No trace yet.");
        return;
    }
    const Trace& t = *slot.trace;
    const HiddenFigures hide = hidden_figures(s);
    if (hide(Figure::WorkGroups)) ImGui::Text("Whole NDRange (work-groups %s)", kHiddenUntilReveal);
    else ImGui::Text("Whole NDRange (%llu work-groups)", (unsigned long long)t.total_groups());
    if (t.partial) {
        // The totals fill as the work-groups complete; the bar follows the emulator live.
        const float done = slot.job ? slot.job->fraction() : float(t.group_totals.size()) / float(std::max<uint64_t>(1, t.total_groups()));
        char label[96];
        std::snprintf(label, sizeof label, "tracing: %.0f%% of the work-groups", 100.0 * done);
        ImGui::ProgressBar(done, ImVec2(-1, 0), label);
        ImGui::TextColored(ImColor(theme().pal.race), "Partial totals: the %zu work-groups done so far", t.group_totals.size());
    }
    draw_rows("ndrange", "closed form", hidden_rows(ndrange_counter_rows(t), hide));
    const auto evt = expected_vs_traced(t);
    if (const ExpectedVsTraced* e = find_expected(evt, "global_load_bytes"); e && !e->formula.empty())
        if (!hide(Figure::GlobalTraffic)) text_wrapped("global loads: %s", e->formula.c_str());
    ImGui::Spacing();
    ImGui::Text("Work-group (%u,%u)", s.cursor.group[0], s.cursor.group[1]);
    const GroupTrace* g = t.find_group(s.cursor.group);
    if (!g) {
        ImGui::TextDisabled("no detail for this group");
        return;
    }
    draw_rows("group", "NDRange/groups", hidden_rows(group_counter_rows(t, *g, s.cursor.interval), hide));
}

}  // namespace tilescope::ui
