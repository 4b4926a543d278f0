// The cache model's widgets: the hierarchy diagram, the roofline's DRAM points, the
// ladder chart. Every number they paint says whether it is traced, modelled or measured.
#include "ui/panels/cache_views.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/caches/cache_trace.h"
#include "core/tasks/caches.h"
#include "ui/panels/performance_view.h"
#include "ui/state/counters.h"
#include "ui/widgets/plot.h"
#include "ui/widgets/theme.h"

namespace tilescope::ui {
namespace {

std::string count_text(uint64_t v) { return short_number(double(v)); }

std::string percent_text(uint64_t part, uint64_t whole) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", whole ? 100.0 * double(part) / double(whole) : 0.0);
    return buf;
}

// The model's report for the trace on show, recomputed when the trace or profile changes.
struct HierarchyState {
    std::string profile;
    TraceSnapshot trace;  // held, so a new trace never reuses its address
    std::string modelled_profile;
    std::optional<CacheReport> report;
    std::string error;

    void update(const TraceSnapshot& t) {
        if (t == trace && profile == modelled_profile) return;
        trace = t;
        modelled_profile = profile;
        tasks::CacheModelOutcome modelled = tasks::model_caches(*t, profile);  // a partial trace: not yet
        report = std::move(modelled.report);
        error = std::move(modelled.error);
    }
};

struct HierarchyBox {
    std::string title, kind;         // "L1 per compute unit", "modelled"
    std::vector<std::string> lines;  // figures
};

void paint_boxes(const std::vector<HierarchyBox>& boxes, const std::vector<std::string>& arrows, ImVec2 size) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Palette& pal = theme().pal;
    const float fh = ImGui::GetFontSize(), arrow_w = fh * 5.5f;
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const float box_w = std::max(fh * 7, (size.x - arrow_w * float(boxes.size() - 1)) / float(boxes.size()));
    const float box_h = fh * 1.35f * 6;
    for (size_t i = 0; i < boxes.size(); ++i) {
        const float x = o.x + float(i) * (box_w + arrow_w);
        const ImVec2 a(x, o.y), b(x + box_w, o.y + box_h);
        const bool modelled = boxes[i].kind == "modelled";
        dl->AddRectFilled(a, b, modelled ? pal.local_empty : pal.cell_empty, fh * 0.3f);
        dl->AddRect(a, b, pal.outline, fh * 0.3f, 0, theme().line);
        float y = a.y + fh * 0.3f;
        dl->AddText(ImVec2(a.x + fh * 0.4f, y), pal.text, boxes[i].title.c_str());
        y += fh * 1.3f;
        dl->AddText(ImVec2(a.x + fh * 0.4f, y), pal.faint_text, boxes[i].kind.c_str());
        for (const std::string& line : boxes[i].lines) {
            y += fh * 1.3f;
            dl->AddText(ImVec2(a.x + fh * 0.4f, y), pal.text, line.c_str());
        }
        if (i + 1 < boxes.size()) {
            const float ay = o.y + box_h * 0.5f, ax0 = b.x + fh * 0.3f, ax1 = b.x + arrow_w - fh * 0.3f;
            dl->AddLine(ImVec2(ax0, ay), ImVec2(ax1, ay), pal.outline, theme().line * 1.5f);
            dl->AddTriangleFilled(ImVec2(ax1, ay), ImVec2(ax1 - fh * 0.5f, ay - fh * 0.3f),
                                  ImVec2(ax1 - fh * 0.5f, ay + fh * 0.3f), pal.outline);
            const ImVec2 ts = ImGui::CalcTextSize(arrows[i].c_str());
            dl->AddText(ImVec2((ax0 + ax1 - ts.x) * 0.5f, ay - fh * 1.4f), pal.text, arrows[i].c_str());
        }
    }
    ImGui::Dummy(ImVec2(size.x, box_h + fh * 0.5f));
}

}  // namespace

void draw_memory_hierarchy(const TraceSnapshot& snapshot, std::string& profile, ImVec2 size) {
    static HierarchyState state;  // the model's report for the trace and profile on show
    if (!snapshot) {
        ImGui::TextDisabled("No trace yet.");
        return;
    }
    const Trace& t = *snapshot;
    const std::vector<std::string> names = cache_profile_names();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    if (ImGui::BeginCombo("cache profile", profile.c_str())) {
        for (const std::string& n : names)
            if (ImGui::Selectable(n.c_str(), n == profile)) profile = n;
        ImGui::EndCombo();
    }
    state.profile = profile;
    state.update(snapshot);
    if (!state.report) {
        text_wrapped("%s", state.error.c_str());
        return;
    }
    const CacheReport& r = *state.report;
    const CacheCounts& c = r.totals;
    const uint32_t sector = r.params.sector_bytes;
    ImGui::SameLine();
    ImGui::TextDisabled("MODELLED: L1 %llu KB x %u units, L2 %llu KB, %u-B lines%s", (unsigned long long)(r.params.l1_bytes / 1024),
                        r.params.cus, (unsigned long long)(r.params.l2_bytes / 1024), r.params.line_bytes,
                        t.cache_requests ? "" : (" (saved with the trace: " + r.profile + ")").c_str());
    std::vector<HierarchyBox> boxes = {
        {"global requests", "traced",
         {count_text(t.coalescing.requests) + " requests", count_text(t.coalescing.sectors) + " sectors",
          bytes_text(double(t.totals.global_load_bytes)) + " loaded", bytes_text(double(t.totals.global_store_bytes)) + " stored"}},
        {"L1 (per unit)", "modelled",
         {count_text(c.l1_sectors) + " load sectors", percent_text(c.l1_hit_sectors, c.l1_sectors) + " hit"}},
        {"L2 (shared)", "modelled",
         {count_text(c.l2_sectors) + " sectors", percent_text(c.l2_hit_sectors, c.l2_sectors) + " hit"}},
        {"DRAM", "modelled",
         {bytes_text(double(c.dram_read_bytes)) + " read", bytes_text(double(c.dram_write_bytes)) + " written",
          "at least " + bytes_text(double(r.bounds.distinct_sectors) * sector)}}};
    const std::vector<std::string> arrows = {bytes_text(double(c.l1_sectors) * sector),
                                             bytes_text(double(c.l2_sectors) * sector),
                                             bytes_text(double(c.dram_read_bytes + c.dram_write_bytes))};
    paint_boxes(boxes, arrows, size);
    // Where the profile's figures stay outside the held-out targets, the screen says so (issue 31).
    const std::string check = cache_check_lines(r.profile, "", t.kernel);
    if (!check.empty()) text_wrapped("%s", check.c_str());
}

void draw_hierarchical_points(const PlotFrame& f, const std::vector<HierarchicalPoint>& points,
                              const std::string& profile) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Palette& pal = theme().pal;
    const float fh = ImGui::GetFontSize();
    for (size_t i = 0; i < points.size(); ++i) {
        const HierarchicalPoint& p = points[i];
        if (p.gflops <= 0 || p.dram_flops_per_byte <= 0) continue;
        const ImU32 colour = pal.series[i % 6];
        f.line({p.global_flops_per_byte, p.dram_flops_per_byte}, {p.gflops, p.gflops}, colour, theme().line, false);
        const ImVec2 q = f.map(p.dram_flops_per_byte, p.gflops);
        dl->AddCircleFilled(q, fh * 0.32f, pal.background);
        dl->AddCircle(q, fh * 0.32f, colour, 0, theme().line * 1.4f);
    }
    const std::string key = "filled: traced global intensity; ring: modelled DRAM intensity (" + profile + ")";
    const ImVec2 at(f.plot_min().x + fh * 0.4f, f.plot_max().y - fh * 1.3f);
    dl->AddText(at, pal.faint_text, key.c_str());
}

void draw_ladder_chart(const std::vector<LadderStep>& steps, ImVec2 size, const std::string& caption) {
    const Palette& pal = theme().pal;
    // its own scrolling region: at a projector the notes below the table scroll into view
    ImGui::BeginChild("ladder_chart", size, false);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float fh = ImGui::GetFontSize();
    text_wrapped("%s", caption.c_str());
    if (steps.empty()) {
        ImGui::EndChild();
        return;
    }
    // Rows: the figures of the first step, in its order (every step has the same set).
    std::vector<std::pair<std::string, FigureKind>> rows;
    float label_w = 0, name_w = 0;
    for (const LadderChange& c : steps.front().changes) {
        rows.push_back({c.what, c.kind});
        label_w = std::max(label_w, ImGui::CalcTextSize((c.what + " (" + to_string(c.kind) + ")").c_str()).x + fh * 0.6f);
    }
    for (const LadderStep& st : steps)
        name_w = std::max({name_w, ImGui::CalcTextSize(st.to.c_str()).x, ImGui::CalcTextSize((st.from + " ->").c_str()).x});
    // The columns in bands as wide as the view: each column as wide as its longest rung name,
    // so no name is cut; a narrow window gets two or more bands, one under the other.
    const float avail = ImGui::GetContentRegionAvail().x;
    const float col_min = std::max(fh * 5, name_w + fh * 0.6f);
    const size_t per_band = std::max<size_t>(1, size_t((avail - label_w) / col_min));
    const float row_h = fh * 1.9f, top = fh * 2.6f;
    for (size_t b0 = 0; b0 < steps.size(); b0 += per_band) {
        const size_t b1 = std::min(steps.size(), b0 + per_band);
        const float col_w = std::max(col_min, (avail - label_w) / float(per_band));
        const ImVec2 o = ImGui::GetCursorScreenPos();
        for (size_t s = b0; s < b1; ++s) {
            const float x = o.x + label_w + float(s - b0) * col_w;
            const std::string head = steps[s].from + " ->", head2 = steps[s].to;
            dl->AddText(ImVec2(x + fh * 0.3f, o.y), pal.faint_text, head.c_str());
            dl->AddText(ImVec2(x + fh * 0.3f, o.y + fh * 1.1f), pal.text, head2.c_str());
            dl->AddLine(ImVec2(x, o.y), ImVec2(x, o.y + top + row_h * float(rows.size())), pal.grid_line);
        }
        for (size_t r = 0; r < rows.size(); ++r) {
            const float y = o.y + top + float(r) * row_h;
            const std::string label = rows[r].first + " (" + to_string(rows[r].second) + ")";
            dl->AddText(ImVec2(o.x, y + fh * 0.4f), pal.text, label.c_str());
            for (size_t s = b0; s < b1; ++s) {
                const auto it = std::find_if(steps[s].changes.begin(), steps[s].changes.end(),
                                             [&](const LadderChange& c) { return c.what == rows[r].first; });
                if (it == steps[s].changes.end()) continue;
                const double ratio = it->ratio();
                const float mid = o.x + label_w + (float(s - b0) + 0.5f) * col_w, half = col_w * 0.45f;
                const float len = float(std::clamp(std::log10(std::max(ratio, 1e-9)) / 3.0, -1.0, 1.0)) * half;
                const ImU32 colour = ratio < 1 / 1.1 ? pal.c_stored : ratio > 1.1 ? pal.race : pal.faint_text;
                dl->AddRectFilled(ImVec2(std::min(mid, mid + len), y + fh * 0.2f),
                                  ImVec2(std::max(mid, mid + len) + 1, y + row_h - fh * 0.2f), colour);
                char buf[48];
                if (it->before <= 0 && it->after > 0) std::snprintf(buf, sizeof buf, "new");
                else if (ratio >= 1) std::snprintf(buf, sizeof buf, "%.3gx", ratio);
                else std::snprintf(buf, sizeof buf, "1/%.3g", 1 / ratio);
                dl->AddText(ImVec2(mid - ImGui::CalcTextSize(buf).x * 0.5f, y + fh * 0.4f), pal.text, buf);
            }
        }
        ImGui::Dummy(ImVec2(avail, top + row_h * float(rows.size()) + fh * 0.4f));
    }
    for (const LadderStep& s : steps) {
        ImGui::Bullet();
        text_wrapped("%s -> %s: %s", s.from.c_str(), s.to.c_str(), s.note.c_str());
        if (!s.check.empty()) text_wrapped("    %s (modelled figures): %s", s.to.c_str(), s.check.c_str());
    }
    ImGui::EndChild();
}

void CachesSection::draw(AppState& state) {
    text_wrapped("Traced global requests through the cache model's L1 and L2 to DRAM (not measured).");
    if (hidden_until_reveal(state, Figure::CacheFigures)) {
        ImGui::TextDisabled("L1, L2 and DRAM figures: %s", kHiddenUntilReveal);
        return;
    }
    draw_memory_hierarchy(state.main.trace, state.cache_profile, ImVec2(ImGui::GetContentRegionAvail().x, 0));
    ImGui::Checkbox("heatmap: A and B by DRAM fetches (modelled)", &state.heatmap_by_dram);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("The Heatmap view colours each element of A and B by how often the cache model read its "
                          "sector from DRAM (profile %s), instead of by traced global loads.", state.cache_profile.c_str());
}

EmulationViewData heatmap_by_dram(EmulationViewData data, const AppState& state) {
    static TraceSnapshot source, replaced;  // cached: the model runs once per trace and profile
    static std::string profile;
    if (!state.heatmap_by_dram || !state.main.trace || data.trace != state.main.trace.get() ||
        !state.main.trace->cache_requests)
        return data;
    if (source != state.main.trace || profile != state.cache_profile) {
        source = state.main.trace;
        profile = state.cache_profile;
        const tasks::CacheModelOutcome modelled = tasks::model_caches(*source, profile);
        if (modelled.report) replaced = with_dram_heatmap(*source, *modelled.report);
        else replaced.reset();
    }
    if (!replaced) return data;
    data.trace = replaced.get();
    data.version += uint64_t(1) << 40;  // not the loads' picture: the view repaints
    return data;
}

std::vector<HierarchicalPoint> hierarchical_points(const Performance& perf) {
    std::vector<HierarchicalPoint> out;
    for (const auto& ai : perf.intensity)
        for (const Measurement& m : perf.rungs)
            if (m.kernel == ai.kernel) out.push_back({ai.kernel, ai.flops_per_byte, ai.dram_flops_per_byte, m.gflops});
    return out;
}

void draw_ladder_view(AppState& state, ImVec2 size) {
    Performance& perf = state.perf;
    poll_performance(perf);  // as the performance view takes it
    if (!perf.ready() || perf.ladder.empty()) {
        text_wrapped("The ladder explained: rung by rung, what changed from the rung before, traced on the "
                           "emulator, modelled by the cache model, timed on the selected real device.");
        if (perf.job) {
            ImGui::Text("Measuring... %s", perf.job->message().c_str());
            ImGui::ProgressBar(perf.job->fraction(), ImVec2(std::min(size.x, 600.f), 0));
        } else if (ImGui::Button("Measure and trace every rung")) {
            start_performance(state);
        }
        if (!perf.error.empty()) text_wrapped("%s", perf.error.c_str());
        return;
    }
    std::vector<LadderRungFigures> rungs = perf.ladder;
    for (LadderRungFigures& r : rungs)
        for (const Measurement& m : perf.rungs)
            if (m.kernel == r.kernel && m.median_s > 0) r.measured_s = m.median_s;
    const std::string caption = "Each column: a rung against the rung before. Traffic traced at 64^3 on the emulator, "
                                "L1/L2/DRAM modelled (profile " + perf.cache_profile + "), time measured at " +
                                std::to_string(perf.size) + "^3 on " + perf.device + ". Green: less; purple: more.";
    draw_ladder_chart(explain_ladder(rungs), size, caption);
}

}  // namespace tilescope::ui
