#pragma once
// One truth per screen (issue 33): what a lesson step's text says against what the screen
// shows when the step opens and as it is stepped (→ iterations, ↓ parts). The frame model
// (core/trace/frame.h) is the screen's truth; a figure the screen cannot show (a timing on
// another device, a size the emulator cannot trace) must name where it comes from.
#include <optional>
#include <string>
#include <vector>

#include "core/teach/lesson.h"
#include "core/trace/frame.h"

namespace tilescope {

// The frame a step opens (its state's group, phase, part, iteration, item, naming); nullopt
// for a step that opens no frame (no phase in its state). Throws InputError when the trace
// kept no detail for the step's group or the state names a part it does not have.
std::optional<Frame> step_frame(const LessonStep& step, const Trace& trace);

// The heading the lesson strip shows: the step's title while its own frame is on show;
// once → or ↓ moved to another frame, that frame's title (the step's title no longer
// describes the screen), with the step's title after it.
std::string step_heading(const LessonStep& step, const std::string& opened_title, const std::string& shown_title);

// Every disagreement between the step's text (title, script, question) and the screen: a
// phase, block, iteration, part, size, tile, PAD or local id the title names that the frame
// does not show; an element name (M0,2) in the text that no cell, sum or work-item story of
// the frame holds; a size other than the step's or a measured figure (a time, "faster",
// Nsight) in a sentence that names no source (a docs/*.md page or a tilescope command).
// `trace`: the step's set-up traced (with the detail of its group), needed by a step that
// opens a frame; without it only the sizes, tiles, PAD and sources are checked (from the
// step's launch and its compare launch). Empty: they agree.
std::vector<std::string> step_disagreements(const LessonStep& step, const Trace* trace = nullptr);

// The same for the frame reached by stepping (`shown`): the heading (step_heading) must name
// the frame's phase, block, part and iteration.
std::vector<std::string> heading_disagreements(const std::string& heading, const Frame& shown);

}  // namespace tilescope
