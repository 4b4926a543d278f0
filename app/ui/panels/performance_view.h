#pragma once
// The performance view: GFLOP/s bars of every rung, GFLOP/s against size, tile sweep,
// roofline; all measured on a real device.
#include <imgui.h>

#include "ui/state/app_state.h"

namespace tilescope::ui {

// `projector`: presenter mode with the panels away: the short texts, no tuning strip.
void draw_performance_view(AppState& state, ImVec2 size, bool projector = false);
// Starts the measurements the performance view shows (on the worker).
// The plan is core's (core/tasks/performance.h performance_plan): the one
// `tilescope bench --plan performance` runs.
void start_performance(AppState& state);
// Takes a finished measurement into `perf` (its result or its error).
void poll_performance(Performance& perf);

}  // namespace tilescope::ui
