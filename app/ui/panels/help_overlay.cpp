#include "ui/panels/help_overlay.h"

#include <imgui.h>

#include "ui/widgets/theme.h"

namespace tilescope::ui {
namespace {

struct KeyHelp {
    const char* key;
    const char* what;
};

// Every key handled in App::handle_keys, handle_cursor_keys and the emulation view.
constexpr KeyHelp kKeys[] = {
    {"Space", "play / pause: the parts of each phase in turn"},
    {"Right / Left", "step: the next / previous iteration of a use part, else part"},
    {"Down / Up", "next / previous part of a phase (load, use, store), whole"},
    {"Click a tile of P", "show that work-group"},
    {"Mouse wheel", "zoom the matrices (Home: back to fit)"},
    {"Drag", "pan the zoomed matrices"},
    {"F5", "presenter mode: large text, the matrices take the window"},
    {"H", "hide / show the side panel"},
    {"F11", "fullscreen on / off (Escape leaves)"},
    {"F12", "save the window as a PNG (its path is shown below the view)"},
    {"F1", "this help (Escape closes it)"},
};

}  // namespace

void HelpOverlay::draw() {
    if (!open_) return;
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x * 0.5f, vp->Pos.y + vp->Size.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowBgAlpha(0.97f);
    if (!ImGui::Begin("Keys (F1)", &open_, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
        ImGui::End();
        return;
    }
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
        for (const KeyHelp& k : kKeys) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::PushFont(theme().big);
            ImGui::TextUnformatted(k.key);
            ImGui::PopFont();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(k.what);
        }
        ImGui::EndTable();
    }
    ImGui::End();
}

}  // namespace tilescope::ui
