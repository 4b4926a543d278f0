#pragma once
// Zoom and pan of the matrices (mouse wheel about the pointer, drag, Home to fit): the
// input side of ViewTransform, which the emulation view applies. A press that turns
// into a drag pans and selects nothing; a click without a drag selects as before.
#include <optional>

#include <imgui.h>

#include "core/trace/trace.h"
#include "ui/widgets/emulation_view.h"

namespace tilescope::ui {

class ZoomPan {
public:
    // Call after drawing the view into the rectangle at `origin` of `size`: reads the
    // wheel, drag and Home key while the pointer is over it.
    void handle_input(ImVec2 origin, ImVec2 size);
    // A group the view reported clicked: applied on release unless the press became a drag.
    std::optional<GroupId> filter_click(const std::optional<GroupId>& clicked);
    const ViewTransform& transform() const { return t_; }
    void reset() { t_ = ViewTransform{}; }

private:
    ViewTransform t_;
    std::optional<GroupId> pending_;
    bool dragged_ = false;
};

}  // namespace tilescope::ui
