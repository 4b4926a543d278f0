#include "ui/widgets/zoom_pan.h"

#include <algorithm>
#include <cmath>

#include "gfx/backend.h"

namespace tilescope::ui {

void ZoomPan::handle_input(ImVec2 origin, ImVec2 size) {
    const ImGuiIO& io = ImGui::GetIO();
    const ImVec2 m = io.MousePos;
    const bool over = ImGui::IsWindowHovered() && m.x >= origin.x && m.y >= origin.y && m.x < origin.x + size.x && m.y < origin.y + size.y;
    if (over && io.MouseWheel != 0.f) {
        // zoom about the pointer: the layout point under it stays under it
        const float next = std::clamp(t_.scale * std::pow(1.25f, io.MouseWheel), 1.f, 64.f);
        const ImVec2 p((m.x - origin.x - t_.offset.x) / t_.scale, (m.y - origin.y - t_.offset.y) / t_.scale);
        t_.scale = next;
        t_.offset = ImVec2(m.x - origin.x - p.x * next, m.y - origin.y - p.y * next);
        if (next == 1.f) t_.offset = ImVec2(0, 0);
    }
    if (over && ImGui::IsMouseDragging(ImGuiMouseButton_Left) && io.MouseClickedPos[0].x >= origin.x && io.MouseClickedPos[0].y >= origin.y) {
        dragged_ = true;
        t_.offset.x += io.MouseDelta.x;
        t_.offset.y += io.MouseDelta.y;
    }
    if (!io.WantTextInput && ImGui::IsKeyPressed(gfx::key::Home, false)) reset();
}

std::optional<GroupId> ZoomPan::filter_click(const std::optional<GroupId>& clicked) {
    if (clicked) {
        pending_ = clicked;
        dragged_ = false;
    }
    if (!pending_ || !ImGui::IsMouseReleased(ImGuiMouseButton_Left)) return std::nullopt;
    std::optional<GroupId> out;
    if (!dragged_) out = pending_;
    pending_.reset();
    dragged_ = false;
    return out;
}

}  // namespace tilescope::ui
