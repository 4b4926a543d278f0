#pragma once
// Class mode in the GUI (issue 34): a Class section under the open lesson. Start traces the
// lesson's set-ups once on the worker (tasks::lesson_page_data), then serves it (app/net)
// on the server's own threads; the panel only reads the class's counts each frame. The
// room follows the lesson step on show and the Reveal; the section shows the URL, the
// join code, a QR code, who joined and answered, and the spread of the guesses.
#include <optional>

#include "core/classroom/class_room.h"
#include "ui/state/app_state.h"

namespace tilescope::ui {

// Draws the Class section (start/stop, URL, QR, counts, spread) for the open lesson.
void draw_class_section(AppState& state);
// Every frame, drawn or not: the room follows the lesson's step, the window's place in it
// (group, phase, part, iteration) and Reveal.
void sync_class(AppState& state);
// The window's place in the step's trace, as the class publishes it: a snapshot of the
// cursor once it has settled (its trace traced, its phase resolved); none before.
std::optional<classroom::Place> window_place(const AppState& state);
// The control file's `class ADDR:PORT` (start, as the button) and `class stop`.
void control_class(AppState& state, const std::string& argument);
// Stops a running class (the window closes): nothing is left listening.
void stop_class();

}  // namespace tilescope::ui
