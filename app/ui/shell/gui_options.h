#pragma once
// `tilescope gui`'s command line, checked completely before a window opens: the set-up
// to trace, where the cursor starts, and what a scripted run (--frames, --screenshot,
// --layout, --frame-stats) should produce.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/kernel/launch_config.h"
#include "core/trace/frame.h"
#include "core/teach/lesson.h"
#include "core/io/trace_file.h"
#include "ui/state/app_state.h"
#include "ui/state/settings.h"

namespace tilescope::ui {

extern const char* const kGuiHelp;

struct GuiOptions {
    std::optional<LaunchConfig> config;    // from the command line or a scene; else the last session's
    bool setup_given = false;              // the set-up came from the command line (not settings)
    std::optional<LaunchConfig> compare;   // compare mode's second configuration
    std::optional<GroupId> group;
    std::optional<std::pair<int64_t, int64_t>> hover;
    std::optional<int> phase;              // --phase: the slides' phase (trip round the tile loop)
    std::optional<std::string> part;       // --part: which part of it ("load", "use", ...); default the first
    std::optional<int> interval;           // --interval: the raw barrier interval (instead of --phase)
    std::optional<int> iteration;          // --iteration: in a use part, the iteration on show
    std::optional<WorkItemId> item;        // --item X,Y: the work-item whose story is told (local id)
    std::optional<Naming> naming;          // --naming slides|abc
    std::optional<View> view;
    std::string device;                    // --device as given ("" = not given)
    std::string source_path;               // --source as given
    bool play = false, presenter = false, frame_stats = false;
    bool presenter_by_lesson = false;      // presenter from the lesson's first step, not typed: not saved as a setting
    bool timings = false;                  // --timings: when the first picture and the whole trace were drawn
    std::optional<std::string> screenshot, layout, control, text;
    bool reveal = false;                   // --reveal: the lesson step's question revealed
    std::optional<int> frames;
    int screenshot_width = 0;
    int width = 1280, height = 800;        // the docs' width; llvmpipe's cost grows with pixels
    bool help = false;
    std::shared_ptr<const Lesson> lesson;      // --lesson: shown in the lesson panel
    int lesson_step = 0;                       // --step N, from 0
    std::shared_ptr<const TraceFile> opened;   // --open: shown instead of tracing
    std::optional<std::string> record;         // --record OUT.gif

    bool scripted() const { return frames || screenshot || frame_stats || text; }
};

// Compare mode's second configuration from `K[:T]` ("": the same kernel at twice the tile,
// main's parameters; a named kernel: its own defaults), then `params` ("NAME=V", checked
// against that kernel).
LaunchConfig compare_config(const LaunchConfig& main, const std::string& spec, const std::vector<std::string>& params = {});

// Throws InputError naming the option, the value and what is accepted. `last` (the
// last session's settings) supplies the set-up of an interactive run whose command line
// gives none; a stale one is ignored.
GuiOptions parse_gui_options(const std::vector<std::string>& args, const Settings& last);

// A lesson step's state as options, exactly as `--lesson FILE --step N` reads it.
GuiOptions lesson_step_options(const Lesson& lesson, int step);

}  // namespace tilescope::ui
