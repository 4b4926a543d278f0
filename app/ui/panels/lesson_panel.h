#pragma once
// Lessons (assets/lessons/*.json): the Lessons menu of built-in lessons, and the open
// lesson's step (AppState::lesson): its title, the instructor script, and a
// predict-then-reveal question whose answer comes from the trace on show, beside its
// closed form. PgDn / PgUp move between steps, R reveals; a typed guess is judged exact,
// close or off. In presenter mode the lesson strip shows the step to the room (number,
// title, question, and the answer after Reveal) without the instructor's script.
#include <imgui.h>

#include "core/teach/lesson.h"
#include "ui/shell/gui_options.h"
#include "ui/panels/side_panel.h"

namespace tilescope::ui {

class LessonPanel : public SidePanel {
public:
    const char* title() const override { return "Lesson"; }
    void draw(AppState& state) override;
    bool folds_in_presenter_mode() const override { return false; }  // the script is what the instructor reads

private:
    void draw_menu(AppState& state);
    void draw_step(AppState& state);
};

// Opens step `step` of the lesson on show: its state becomes the app's (traces start),
// its question waits for Reveal again.
void open_lesson_step(AppState& state, int step);
// PgDn / PgUp / R, whether or not a lesson panel or strip is drawn this frame.
void handle_lesson_keys(AppState& state);
// Reveals the step's answer (the Reveal button, R, --reveal, the control file's `reveal`).
void reveal_answer(AppState& state);
// The lesson step's heading as the strip shows it now ("" without a lesson): the step's
// title, or once the cursor moved on, the title of the frame on show (issue 33).
std::string lesson_heading(const AppState& state);

// Whether "Record GIF of this group" may run now: not while the phase count is held for
// Reveal (the GIF holds every phase, and its message counts the frames).
bool record_gif_allowed(const AppState& state);

// The presenter's lesson strip, in the rectangle [pos, pos + size): lesson and step
// number, the step's title, its question and guess, the answer once revealed; no script.
// Returns the height it used.
float draw_lesson_strip(AppState& state, ImVec2 pos, ImVec2 size);
// The width the strip takes beside the matrices in a window `window_w` wide.
// The strip's width: 30 % of the window beside the matrices; 24 % beside a view with two
// configurations or plots (compare, performance), which need the width more.
float lesson_strip_width(float window_w, bool narrow = false);

// A lesson step's state applied to the app: configurations traced, cursor, view, presenter.
void apply_step_options(AppState& state, const GuiOptions& options);

}  // namespace tilescope::ui
