// Counters: traced values beside their closed forms, for the group and the NDRange.
#include <cstdio>

#include "core/analysis.h"
#include "ui/panels.h"
#include "ui/theme.h"

namespace tilescope::ui {
namespace {

std::string bytes_text(double b) {
    char buf[64];
    if (b >= 1 << 20) std::snprintf(buf, sizeof buf, "%.2f MB", b / double(1 << 20));
    else if (b >= 1 << 10) std::snprintf(buf, sizeof buf, "%.1f KB", b / 1024.0);
    else std::snprintf(buf, sizeof buf, "%.0f B", b);
    return buf;
}

void row(const char* what, const std::string& traced, const std::string& expected, int verdict) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(what);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(traced.c_str());
    ImGui::TableNextColumn();
    if (verdict > 0) ImGui::TextColored(ImColor(theme().pal.c_stored), "%s", expected.c_str());
    else if (verdict < 0) ImGui::TextColored(ImColor(theme().pal.race), "%s", expected.c_str());
    else ImGui::TextUnformatted(expected.c_str());
}

}  // namespace

void draw_counters_panel(AppState& s, const TraceSlot& slot) {
    if (!slot.trace) {
        ImGui::TextDisabled("No trace yet.");
        return;
    }
    const Trace& t = *slot.trace;
    const auto evt = expected_vs_traced(t);
    auto expected_of = [&](const char* q) -> const ExpectedVsTraced* {
        for (const auto& e : evt)
            if (e.quantity == q) return &e;
        return nullptr;
    };
    char buf[160];
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
    ImGui::Text("Whole NDRange (%llu work-groups)", (unsigned long long)t.total_groups());
    if (ImGui::BeginTable("ndrange", 3, flags)) {
        ImGui::TableSetupColumn("");
        ImGui::TableSetupColumn("traced");
        ImGui::TableSetupColumn("closed form");
        ImGui::TableHeadersRow();
        auto add = [&](const char* label, const char* q, uint64_t traced) {
            const ExpectedVsTraced* e = expected_of(q);
            row(label, bytes_text(double(traced)), e ? bytes_text(double(e->expected)) : "-", e ? (e->matches() ? 1 : -1) : 0);
        };
        add("global loads", "global_load_bytes", t.totals.global_load_bytes);
        add("global stores", "global_store_bytes", t.totals.global_store_bytes);
        add("local loads", "local_load_bytes", t.totals.local_load_bytes);
        add("local stores", "local_store_bytes", t.totals.local_store_bytes);
        {
            const ExpectedVsTraced* e = expected_of("barriers");
            row("barriers", std::to_string(t.totals.barriers), e ? std::to_string(e->expected) : "-", e ? (e->matches() ? 1 : -1) : 0);
        }
        const double ratio = compute_to_global_ratio(t);
        std::snprintf(buf, sizeof buf, "%.2f", ratio);
        std::string exp = "-";
        if (!t.custom && t.kernel == "naive") exp = "1";
        if (!t.custom && t.kernel == "tiled") exp = std::to_string(t.tile) + " (TS)";
        row("FLOP per load", buf, exp, 0);
        std::snprintf(buf, sizeof buf, "%.3f", ratio > 0 ? 1.0 / ratio : 0.0);
        row("loads per FLOP", buf, "", 0);
        std::snprintf(buf, sizeof buf, "%.2f", t.coalescing.sectors_per_request());
        row("sectors/request", buf, "ideal 4", 0);
        std::snprintf(buf, sizeof buf, "max %u", t.bank_conflicts.max_degree);
        row("bank conflict", buf, "1 = none", 0);
        ImGui::EndTable();
    }
    if (const ExpectedVsTraced* e = expected_of("global_load_bytes"))
        ImGui::TextWrapped("global loads: %s", e->formula.c_str());

    const GroupTrace* g = t.find_group(s.cursor.group);
    ImGui::Spacing();
    ImGui::Text("Work-group (%u,%u)", s.cursor.group[0], s.cursor.group[1]);
    if (!g) {
        ImGui::TextDisabled("no detail for this group");
        return;
    }
    AccessTotals gl, lo;
    for (const BarrierInterval& in : g->intervals) {
        gl.load_bytes += in.global.load_bytes;
        gl.store_bytes += in.global.store_bytes;
        lo.load_bytes += in.local.load_bytes;
        lo.store_bytes += in.local.store_bytes;
    }
    const auto ex = t.custom ? std::nullopt : expected_traffic(t.kernel, t.size, t.tile);
    const double groups = double(t.total_groups());
    if (ImGui::BeginTable("group", 3, flags)) {
        ImGui::TableSetupColumn("");
        ImGui::TableSetupColumn("traced");
        ImGui::TableSetupColumn("NDRange/groups");
        ImGui::TableHeadersRow();
        row("global loads", bytes_text(double(gl.load_bytes)), ex ? bytes_text(double(ex->global_load_bytes) / groups) : "-", 0);
        row("global stores", bytes_text(double(gl.store_bytes)), ex ? bytes_text(double(ex->global_store_bytes) / groups) : "-", 0);
        row("local loads", bytes_text(double(lo.load_bytes)), ex ? bytes_text(double(ex->local_load_bytes) / groups) : "-", 0);
        row("local stores", bytes_text(double(lo.store_bytes)), ex ? bytes_text(double(ex->local_store_bytes) / groups) : "-", 0);
        if (s.cursor.phase < int(g->intervals.size())) {
            const BarrierInterval& in = g->intervals[size_t(s.cursor.phase)];
            std::snprintf(buf, sizeof buf, "phase %d", s.cursor.phase);
            row(buf, bytes_text(double(in.global.load_bytes)) + " global", bytes_text(double(in.local.load_bytes)) + " local", 0);
        }
        ImGui::EndTable();
    }
}

}  // namespace tilescope::ui
