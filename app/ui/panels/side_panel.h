#pragma once
// A section of the side panel (set-up, counters, lessons, caches...): drawn under a
// collapsing header, in its own file, with its own state as members. App owns them.
#include "ui/state/app_state.h"

namespace tilescope::ui {

class SidePanel {
public:
    virtual ~SidePanel() = default;
    virtual const char* title() const = 0;
    virtual void draw(AppState& state) = 0;
    // Presenter mode folds the section so the matrices get the room.
    virtual bool folds_in_presenter_mode() const { return true; }
};

}  // namespace tilescope::ui
