#pragma once
// The timeline: the selected group's phases and their parts (one barrier interval each)
// as segments with barrier markers and traffic bars; play, pause, step, back, scrub,
// speed. Keys: space, left, right.
#include <vector>

#include "ui/state/app_state.h"

namespace tilescope::ui {

void draw_timeline_panel(AppState& state, float height);
// Where the last draw put the parts' pieces (screen pixels), for --layout and its tests.
struct TimelineLayout {
    float bar_room = 0;  // height the traffic bars may take (between the parts' names and the foot)
    struct Segment {
        float x0 = 0, x1 = 0;
        float line_label_x0 = 0;  // left edge of the barrier's "L30" at the foot; 0: none drawn
        float boxes_x1 = 0;       // right edge of the iteration boxes at the foot; 0: none drawn
        float global_bar_h = 0, local_bar_h = 0;
    };
    std::vector<Segment> segments;  // the parts drawn one by one
    bool held = false;  // the later parts drawn as one block until Reveal (a phase-count question)
};
const TimelineLayout& last_timeline_layout();
void forget_timeline_layout();  // a frame that draws no timeline
// Advances the cursor while playing (call once per frame with the frame's seconds).
void advance_cursor(AppState& state, double dt);
// One step as the slides step: the next (delta > 0) or previous iteration of a use part,
// else the next or previous part (a use part is entered at its first or last iteration).
// |delta| > 1 moves that many parts.
void step_cursor(AppState& state, int delta);
// Part by part (the whole part on show, no iteration).
void step_part(AppState& state, int delta);
// Iterations of the selected group's part `interval` (0: it reads no local memory).
int part_iterations(const AppState& state, int interval);
// The selected group's parts (barrier intervals).
int cursor_interval_count(const AppState& state);
// A pending --phase / --interval / --iteration or a lesson step's becomes the cursor's place once
// the selected group's detail of the set-up asked for is in (call once per frame). Returns false
// when the group has no such place (the request stays), saying why in `problem`, each value named
// `naming` + its name ("--phase 9: group (0,0) has 4 phases; accepted: 0..3").
bool resolve_wanted_phase(AppState& state, std::string* problem = nullptr, const std::string& naming = "--");
// The part on show in the slides' words: "phase 1 of 2, use"; "" without detail.
std::string cursor_part_text(const AppState& state);
// Space / arrows, when no text field has the keyboard.
void handle_cursor_keys(AppState& state);

}  // namespace tilescope::ui
