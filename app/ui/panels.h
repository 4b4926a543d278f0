#pragma once
// The panels around the views drawn by free functions (those with state of their own
// are classes with their own header: setup_panel.h, help_overlay.h); they share AppState.
#include <imgui.h>

#include "ui/app_state.h"
#include "ui/emulation_view.h"

namespace tilescope::ui {

// Global/local bytes, loads per FLOP, compute-to-global ratio, coalescing, bank
// conflicts: traced values with the closed form beside them, for the group and NDRange.
void draw_counters_panel(AppState& state, const TraceSlot& slot);

// The selected group's barrier intervals as segments with barrier markers and traffic
// bars; play, pause, step, back, scrub, speed. Keys: space, left, right.
void draw_timeline_panel(AppState& state, float height);
// Advances the cursor while playing (call once per frame with the frame's seconds).
void advance_cursor(AppState& state, double dt);
// Moves the phase cursor by `delta` phases (clamped); the phases of the selected group.
void step_cursor(AppState& state, int delta);
int cursor_phase_count(const AppState& state);
// Space / arrows, when no text field has the keyboard.
void handle_cursor_keys(AppState& state);

// GFLOP/s bars of every rung, GFLOP/s against size, tile sweep, roofline.
void draw_performance_view(AppState& state, ImVec2 size);
// Starts the measurements the performance view shows (on the worker).
void start_performance(AppState& state);

// Compare mode's measurements of both configurations (its panel: ui/compare_view.h).
void start_compare_measurements(AppState& state);

// The emulation view's data for one configuration at the shared cursor.
EmulationViewData view_data(const AppState& state, const TraceSlot& slot);
// A group chosen in a view: the cursor moves to it; a group the trace kept no detail for
// is traced (with the groups it has).
void select_group(AppState& state, TraceSlot& slot, const GroupId& group);

}  // namespace tilescope::ui
