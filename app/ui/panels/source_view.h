#pragma once
// The kernel source of the trace on screen, barrier lines marked (||), the barrier that
// closes the current phase highlighted (>>) and kept in view; Oclgrind's diagnostics
// with their lines below.
#include <imgui.h>

#include "ui/state/app_state.h"

namespace tilescope::ui {

// The barrier toggle: removes the barrier on `line` of the main kernel, or restores it,
// and traces again (the class watches the race and the wrong cells appear).
void toggle_barrier(AppState& state, int line);

class SourceView {
public:
    void draw(AppState& state, ImVec2 size);

private:
    void draw_diagnostics(const AppState& state, const Trace& trace);
    int scrolled_to_ = -1;  // the barrier line last scrolled into view
};

}  // namespace tilescope::ui
