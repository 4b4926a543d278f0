#pragma once
// One truth per screen (issue 33): what a lesson step's text says against what the screen
// shows when the step opens and as it is stepped (→ iterations, ↓ parts). The frame model
// (core/trace/frame.h) is the screen's truth; a figure the screen cannot show (a timing on
// another device, a size the emulator cannot trace) must name where it comes from.
#include <functional>
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
//
// Every number (digits, or a number word: "four", "half", "quadruples") is checked too: one
// inside a construct checked above (an element name, a size, a phase, an iteration, a block,
// a line of the kernel's source, TS, PAD) by that check; one in a sentence naming a docs/*.md
// page must appear in that page (`read_doc`, given the page's path "docs/caches.md", returns
// its text; without it the page is trusted); one in a sentence naming another source (a
// tilescope command, the performance view, this machine's device, the slides) is that
// source's; any other must be one of the step's facts (step_facts): a size, TS, a count of
// work-groups, work-items or phases, a ratio between the two sides, a traced bank-conflict
// degree (`compare`: the step's compare configuration traced), a constant of the model (4
// bytes per float, 32 lanes, 32-byte sectors). A count followed by "work-items",
// "work-groups"/"groups"/"blocks" or "phases" must be a count of that noun.
using DocReader = std::function<std::optional<std::string>(const std::string& path)>;
std::vector<std::string> step_disagreements(const LessonStep& step, const Trace* trace = nullptr, const Trace* compare = nullptr,
                                            const DocReader& read_doc = {});

// The numbers a step's text may state without naming a source, each with what it is
// ("TS", "work-groups", "bank-conflict degree (right)"): from its launch, its compare
// launch, and the traces when given.
std::vector<std::pair<double, std::string>> step_facts(const LessonStep& step, const Frame* frame, const Trace* trace,
                                                       const Trace* compare);

// The same for the frame reached by stepping (`shown`): the heading (step_heading) must name
// the frame's phase, block, part and iteration.
std::vector<std::string> heading_disagreements(const std::string& heading, const Frame& shown);

}  // namespace tilescope
