#include "ui/panels/presenter_bar.h"

#include <algorithm>
#include <string>

#include "ui/panels/timeline_panel.h"
#include "ui/widgets/theme.h"

namespace tilescope::ui {
namespace {

// The free corner: from the view's top-left to the left edge of B and the top of A's label.
ImVec2 corner_size(ImVec2 origin, const std::vector<MatrixPlacement>& ms) {
    float right = origin.x + ImGui::GetFontSize() * 11, bottom = origin.y + ImGui::GetFontSize() * 9;
    for (const MatrixPlacement& m : ms) {
        if (m.role == "B") right = m.p0.x - ImGui::GetFontSize() * 0.5f;
        if (m.role == "A") bottom = m.p0.y - ImGui::GetFontSize() * 1.6f;
    }
    return ImVec2(std::max(right - origin.x, ImGui::GetFontSize() * 9), std::max(bottom - origin.y, ImGui::GetFontSize() * 5));
}

// On one line where the corner is wide enough, else the buttons wrap (a legend band below
// the matrices narrows the corner): a button cut at B's edge cannot be read or hit.
void draw_controls(AppState& s) {
    if (ImGui::Button("< Back")) step_cursor(s, -1);
    const char* play = s.cursor.playing ? "Pause" : "Play";
    same_line_if_fits(button_width(play));
    if (ImGui::Button(play)) s.cursor.playing = !s.cursor.playing;
    same_line_if_fits(button_width("Step >"));
    if (ImGui::Button("Step >")) step_cursor(s, +1);
}

}  // namespace

void PresenterBar::draw(AppState& s, ImVec2 origin, const std::vector<MatrixPlacement>& matrices, bool zoomed) {
    const ImVec2 room = corner_size(origin, zoomed ? std::vector<MatrixPlacement>{} : matrices);
    ImGui::SetNextWindowPos(origin);
    ImGui::SetNextWindowSize(room);
    ImGui::SetNextWindowBgAlpha(zoomed ? 0.9f : 0.f);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, zoomed ? 1.f : 0.f);
    ImGui::Begin("##presenter", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoScrollWithMouse);
    const Palette& pal = theme().pal;
    ImGui::PushTextWrapPos(0);
    if (s.main.shown) {  // the trace on screen, which a trace in flight does not change yet
        ImGui::PushFont(theme().big);
        ImGui::TextUnformatted(config_label(*s.main.shown).c_str());
        ImGui::PopFont();
    }
    if (cursor_interval_count(s) > 0) {
        // Broken only after its commas where the corner is narrow: "phase 1 of 2" stays whole
        // (issue 33: a narrowed corner broke it as "phase 1 of" over "2, load").
        const std::string line = "group (" + std::to_string(s.cursor.group[0]) + "," + std::to_string(s.cursor.group[1]) + "), " +
                                 cursor_part_text(s);
        size_t from = 0;
        for (bool first = true; from < line.size(); first = false) {
            const size_t comma = line.find(", ", from);
            const size_t to = comma == std::string::npos ? line.size() : comma + 1;
            const std::string piece = line.substr(from, to - from);
            if (!first) same_line_if_fits(ImGui::CalcTextSize(piece.c_str()).x);
            ImGui::TextUnformatted(piece.c_str());
            from = comma == std::string::npos ? line.size() : comma + 2;
        }
    }
    if (s.main.busy()) ImGui::TextColored(ImColor(pal.race), "tracing %s...", s.main.config ? config_label(*s.main.config).c_str() : "");
    else if (!s.main.error.empty()) ImGui::TextColored(ImColor(pal.race), "%s", s.main.error.c_str());  // the set-up panel is away
    draw_controls(s);
    ImGui::TextColored(ImColor(pal.faint_text), "F1 keys · F5 leave · H panel");
    if (!s.message.empty()) ImGui::TextUnformatted(s.message.c_str());  // where F12 saved
    ImGui::PopTextWrapPos();
    ImGui::End();
    ImGui::PopStyleVar();
}

}  // namespace tilescope::ui
