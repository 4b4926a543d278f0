#pragma once
// The timeline: the selected group's barrier intervals as segments with barrier markers
// and traffic bars; play, pause, step, back, scrub, speed. Keys: space, left, right.
#include "ui/state/app_state.h"

namespace tilescope::ui {

void draw_timeline_panel(AppState& state, float height);
// Advances the cursor while playing (call once per frame with the frame's seconds).
void advance_cursor(AppState& state, double dt);
// Moves the phase cursor by `delta` phases (clamped); the phases of the selected group.
void step_cursor(AppState& state, int delta);
int cursor_phase_count(const AppState& state);
// Space / arrows, when no text field has the keyboard.
void handle_cursor_keys(AppState& state);

}  // namespace tilescope::ui
