#pragma once
// The panels around the views drawn by free functions (those with state of their own
// are classes with their own header: setup_panel.h, help_overlay.h); they share AppState.
#include <imgui.h>

#include "ui/app_state.h"

namespace tilescope::ui {

// Global/local bytes, loads per FLOP, compute-to-global ratio, coalescing, bank
// conflicts: traced values with the closed form beside them, for the group and NDRange.
void draw_counters_panel(AppState& state, const TraceSlot& slot);

// The selected group's barrier intervals as segments with barrier markers and traffic
// bars; play, pause, step, back, scrub, speed. Keys: space, left, right.
void draw_timeline_panel(AppState& state, float height);
// Advances the cursor while playing (call once per frame with the frame's seconds).
void advance_cursor(AppState& state, double dt);
// Space / arrows, when no text field has the keyboard.
void handle_cursor_keys(AppState& state);

// The kernel source, barrier lines marked, the current interval's closing barrier
// highlighted; diagnostics with their lines.
void draw_source_view(AppState& state, ImVec2 size);

// GFLOP/s bars of every rung, GFLOP/s against size, tile sweep, roofline.
void draw_performance_view(AppState& state, ImVec2 size);
// Starts the measurements the performance view shows (on the worker).
void start_performance(AppState& state);

// Two configurations side by side with one phase cursor.
void draw_compare_view(AppState& state, ImVec2 size);
void start_compare_measurements(AppState& state);

}  // namespace tilescope::ui
