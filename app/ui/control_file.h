#pragma once
// `tilescope gui --control FILE`: a running GUI can be driven from outside (tests,
// scripts, a lesson remote). Write FILE with one command per line; the GUI reads it
// within a quarter second, deletes it, and carries the commands out:
//   screenshot PATH   save the window as PNG at PATH (written whole: PATH.tmp, renamed)
//   quit              close the window as the close button would
// Unknown lines are reported on stderr and skipped.
#include <string>
#include <vector>

namespace tilescope::ui {

struct ControlCommand {
    enum class Kind { Screenshot, Quit } kind;
    std::string argument;
};

class ControlFile {
public:
    explicit ControlFile(std::string path) : path_(std::move(path)) {}
    // The commands written since the last call (none when the file is absent).
    std::vector<ControlCommand> take();

private:
    std::string path_;
};

}  // namespace tilescope::ui
