#pragma once
// Presenter mode's controls when the matrices take the whole window: what is traced,
// the group and phase, Back / Play / Step, and the keys, in the free corner above M (A)
// and left of N (B) (where nothing else is drawn), so nothing covers a matrix.
#include <vector>

#include <imgui.h>

#include "ui/state/app_state.h"
#include "ui/widgets/emulation_view.h"

namespace tilescope::ui {

class PresenterBar {
public:
    // `view_origin`: the view's top-left; `matrices`: where the view drew them last frame;
    // `zoomed`: the matrices may lie under the bar, so it gets a background.
    void draw(AppState& state, ImVec2 view_origin, const std::vector<MatrixPlacement>& matrices, bool zoomed);
};

}  // namespace tilescope::ui
