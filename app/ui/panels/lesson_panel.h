#pragma once
// Lessons (assets/lessons/*.json): the Lessons menu of built-in lessons, and the open
// lesson's step: its title, the instructor script, and a predict-then-reveal question
// whose answer comes from the trace on show, beside its closed form. PgDn / PgUp move
// between steps; a typed guess is kept with how far it was.
#include <map>
#include <memory>
#include <string>

#include "core/teach/lesson.h"
#include "ui/shell/gui_options.h"
#include "ui/panels/side_panel.h"

namespace tilescope::ui {

class LessonPanel : public SidePanel {
public:
    // `lesson`: opened by --lesson at `step` (null: none yet, the menu is shown).
    LessonPanel(std::shared_ptr<const Lesson> lesson, int step);
    const char* title() const override { return "Lesson"; }
    void draw(AppState& state) override;
    bool folds_in_presenter_mode() const override { return false; }  // the script is what the room reads

    // Opens step `step` of the lesson on show: its state becomes the app's (traces start).
    void open_step(AppState& state, int step);

private:
    void draw_menu(AppState& state);
    void draw_step(AppState& state);
    void draw_question(AppState& state, const LessonStep& step);
    void handle_keys(AppState& state);

    std::shared_ptr<const Lesson> lesson_;
    int step_ = 0;
    bool revealed_ = false;
    char guess_[32] = "";
    std::map<std::pair<std::string, int>, std::string> guesses_;  // (lesson, step) -> "guessed 8: off by ..."
};

// A lesson step's state applied to the app: configurations traced, cursor, view, presenter.
void apply_step_options(AppState& state, const GuiOptions& options);

}  // namespace tilescope::ui
