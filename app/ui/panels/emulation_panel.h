#pragma once
// The emulation view's panel: the widget's data for one configuration at the shared
// cursor, and what choosing a group in it does.
#include "ui/state/app_state.h"
#include "ui/widgets/emulation_view.h"

namespace tilescope::ui {

// The emulation view's data for one configuration at the shared cursor.
EmulationViewData view_data(const AppState& state, const TraceSlot& slot);
// A group chosen in a view: the cursor moves to it; a group the trace kept no detail for
// is traced (with the groups it has).
void select_group(AppState& state, TraceSlot& slot, const GroupId& group);

}  // namespace tilescope::ui
