#pragma once
// `tilescope gui --control FILE`: a running GUI can be driven from outside (tests,
// scripts, a lesson remote). Write FILE whole (write FILE.tmp, rename it) with one
// command per line; the GUI reads it within a quarter second, deletes it, and obeys:
//   screenshot PATH   once the traces in flight are in and the window has settled after
//                     a resize, save it as PNG at PATH (PATH.tmp renamed) and print
//                     "saved PATH" on stdout
//   quit              close the window as the close button would
//   measure N         show the performance view and measure every rung at N (as its
//                     size field and Measure button would)
//   state PATH        write what the performance view shows as JSON at PATH (PATH.tmp
//                     renamed), at once: its rows and their tuning, the "Tune this
//                     device" offer and where its button is, a tuning run's progress
//   text PATH         write the text the next frame draws at PATH (PATH.tmp renamed)
//                     (and "place": the window's place as a class publishes it)
//   reveal            reveal the lesson step's answer, as R would
//   class ADDR:PORT   start a class for the open lesson, as the Class section's button
//                     would (class stop: stop it)
//   lesson-step N     open the lesson's step N (from 0), as PgDn/PgUp would
//   step N, part N    the timeline's Step > (an iteration, else a part) or Part >> N
//                     times; a negative N goes back (< Back, Up)
// Unknown lines are reported on stderr and skipped.
#include <string>
#include <vector>

namespace tilescope::ui {

// A control file is a few short lines; a bigger one is ignored with a line on stderr.
inline constexpr unsigned long kMaxControlFileBytes = 64 * 1024;

struct ControlCommand {
    enum class Kind { Screenshot, Quit, Measure, State, Text, Reveal, Class, LessonStep, Step, Part } kind;
    std::string argument;
};

class ControlFile {
public:
    explicit ControlFile(std::string path) : path_(std::move(path)) {}
    // The commands written since the last call (none when the file is absent).
    std::vector<ControlCommand> take();

private:
    std::string path_;
    bool warned_ = false;
};

}  // namespace tilescope::ui
