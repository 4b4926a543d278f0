// The phase timeline: barrier intervals of the selected group, play controls.
#include <algorithm>
#include <cstdio>

#include "ui/panels/timeline_panel.h"
#include "ui/widgets/theme.h"

namespace tilescope::ui {

int cursor_phase_count(const AppState& s) {
    return s.main.trace ? phase_count(*s.main.trace, s.cursor.group) : 0;
}

void step_cursor(AppState& s, int delta) {
    const int n = cursor_phase_count(s);
    if (n == 0) return;
    s.cursor.phase = std::clamp(s.cursor.phase + delta, 0, n - 1);
    s.cursor.progress = 1.0;
}

void advance_cursor(AppState& s, double dt) {
    Cursor& c = s.cursor;
    const int n = cursor_phase_count(s);
    if (!c.playing || n == 0) return;
    // progress runs 0 -> 1 through an interval (work-items storing into local memory),
    // then holds briefly at 1 before the next interval
    c.progress += dt * c.speed * 1.25;
    if (c.progress >= 1.25) {
        c.progress = 0;
        c.phase = (c.phase + 1) % n;
    }
}

void handle_cursor_keys(AppState& s) {
    if (ImGui::GetIO().WantTextInput) return;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Space), false)) s.cursor.playing = !s.cursor.playing;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) step_cursor(s, +1);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) step_cursor(s, -1);
}

namespace {

// |< Back Play Step >, speed, the phase slider and the group's phase count.
void draw_controls(AppState& s, int n, const GroupTrace* g) {
    Cursor& c = s.cursor;
    if (ImGui::Button("|<")) step_cursor(s, -1000000);
    ImGui::SameLine();
    if (ImGui::Button("< Back")) step_cursor(s, -1);
    ImGui::SameLine();
    if (ImGui::Button(c.playing ? "Pause" : "Play", ImVec2(ImGui::GetFontSize() * 4, 0))) c.playing = !c.playing;
    ImGui::SameLine();
    if (ImGui::Button("Step >")) step_cursor(s, +1);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
    ImGui::SliderFloat("##speed", &c.speed, 0.1f, 8.f, "%.1f phase/s", ImGuiSliderFlags_Logarithmic);
    ImGui::SameLine();
    int phase = c.phase;
    ImGui::SetNextItemWidth(std::max(80.f, ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 12.5f));
    if (n > 0 && ImGui::SliderInt("##phase", &phase, 0, n - 1, "phase %d")) {
        c.phase = phase;
        c.progress = 1.0;
    }
    ImGui::SameLine();
    if (g) {
        ImGui::Text("group (%u,%u): %d phases", c.group[0], c.group[1], n);
    } else {
        ImGui::TextDisabled("no group detail");
    }
}

}  // namespace

void draw_timeline_panel(AppState& s, float height) {
    const Palette& pal = theme().pal;
    Cursor& c = s.cursor;
    const int n = cursor_phase_count(s);
    const GroupTrace* g = s.main.trace ? s.main.trace->find_group(c.group) : nullptr;
    draw_controls(s, n, g);

    // Segments: one per interval, equal widths; bars inside show its traffic.
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x, h = std::max(30.f, height - (p0.y - ImGui::GetWindowPos().y) - 8);
    ImGui::InvisibleButton("##timeline", ImVec2(w, h));
    if (!g || n == 0) return;
    const float fh = ImGui::GetFontSize();
    const float seg = w / float(n);
    uint64_t max_bytes = 1;
    for (const BarrierInterval& in : g->intervals)
        max_bytes = std::max<uint64_t>(max_bytes, std::max(in.global.load_bytes + in.global.store_bytes, in.local.load_bytes + in.local.store_bytes));
    const float bar_top = p0.y + fh * 1.3f, bar_h = h - fh * 2.6f;
    for (int i = 0; i < n; ++i) {
        const BarrierInterval& in = g->intervals[size_t(i)];
        const float x0 = p0.x + seg * i, x1 = x0 + seg;
        const bool current = i == c.phase;
        dl->AddRectFilled(ImVec2(x0 + 1, p0.y), ImVec2(x1 - 1, p0.y + h), current ? IM_COL32(255, 235, 150, 255) : IM_COL32(232, 232, 232, 255));
        const float gb = bar_h * float(double(in.global.load_bytes + in.global.store_bytes) / double(max_bytes));
        const float lb = bar_h * float(double(in.local.load_bytes + in.local.store_bytes) / double(max_bytes));
        const float bw = std::min(seg * 0.3f, fh * 2);
        const float cx = (x0 + x1) / 2;
        dl->AddRectFilled(ImVec2(cx - bw - 1, bar_top + bar_h - gb), ImVec2(cx - 1, bar_top + bar_h), pal.global_bar);
        dl->AddRectFilled(ImVec2(cx + 1, bar_top + bar_h - lb), ImVec2(cx + bw + 1, bar_top + bar_h), pal.local_bar);
        char buf[32];
        std::snprintf(buf, sizeof buf, "%d", i);
        if (seg > fh * 1.2f) dl->AddText(ImVec2(x0 + 4, p0.y + 1), pal.text, buf);
        // the barrier that closes the interval
        if (in.end_line > 0) {
            dl->AddLine(ImVec2(x1, p0.y), ImVec2(x1, p0.y + h), pal.outline, theme().line);
            std::snprintf(buf, sizeof buf, "L%d", in.end_line);
            if (seg > fh * 2.2f) dl->AddText(ImVec2(x1 - ImGui::CalcTextSize(buf).x - 3, p0.y + h - fh - 2), pal.text, buf);
        }
        if (current)
            dl->AddRect(ImVec2(x0 + 1, p0.y), ImVec2(x1 - 1, p0.y + h), pal.hover, 0, 0, theme().line);
        if (ImGui::IsItemHovered() && ImGui::GetMousePos().x >= x0 && ImGui::GetMousePos().x < x1) {
            ImGui::BeginTooltip();
            ImGui::Text("phase %d: global %llu B loaded, %llu B stored; local %llu B loaded, %llu B stored", i,
                        (unsigned long long)in.global.load_bytes, (unsigned long long)in.global.store_bytes,
                        (unsigned long long)in.local.load_bytes, (unsigned long long)in.local.store_bytes);
            if (in.end_line) ImGui::Text("ends at the barrier on line %d", in.end_line);
            else ImGui::Text("ends when the work-group finishes");
            ImGui::EndTooltip();
            if (ImGui::IsMouseClicked(0)) {
                c.phase = i;
                c.progress = 1.0;
            }
        }
    }
    // playing: a thin bar shows how far through the interval the work-items are
    if (c.playing) {
        const float x = p0.x + seg * (c.phase + float(std::min(1.0, c.progress)));
        dl->AddLine(ImVec2(x, p0.y), ImVec2(x, p0.y + h), pal.hover, 2.f);
    }
}

}  // namespace tilescope::ui
