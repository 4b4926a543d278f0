#pragma once
// The performance view: GFLOP/s bars of every rung, GFLOP/s against size, tile sweep,
// roofline; all measured on a real device.
#include <imgui.h>

#include "ui/state/app_state.h"

namespace tilescope::ui {

void draw_performance_view(AppState& state, ImVec2 size);
// Starts the measurements the performance view shows (on the worker).
void start_performance(AppState& state);

}  // namespace tilescope::ui
