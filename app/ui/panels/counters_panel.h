#pragma once
// The counters panel: global/local bytes, loads per FLOP, compute-to-global ratio,
// coalescing, bank conflicts: traced values with the closed form beside them, for the
// group and the NDRange. Its rows are plain data in ui/state/counters.h.
#include "ui/state/app_state.h"

namespace tilescope::ui {

void draw_counters_panel(AppState& state, const TraceSlot& slot);

}  // namespace tilescope::ui
