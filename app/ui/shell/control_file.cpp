#include "ui/shell/control_file.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <sys/stat.h>

#include "core/base/errors.h"
#include "core/base/untrusted_file.h"

namespace tilescope::ui {

std::vector<ControlCommand> ControlFile::take() {
    std::vector<ControlCommand> out;
    struct stat st{};
    // lstat: only a regular file is taken; a directory, FIFO or link of that name is left
    // where it is (renaming it would move something that is not ours), said once.
    if (::lstat(path_.c_str(), &st) != 0) return out;
    if (!S_ISREG(st.st_mode)) {
        if (!warned_)
            std::cerr << "tilescope gui: --control '" << shown_path(path_)
                      << "': is not a regular file; left alone (accepted: a file of command lines)\n";
        warned_ = true;
        return out;
    }
    // Renamed first so a writer that is still writing a new file is never half-read twice.
    const std::string taken = path_ + ".taken";
    std::error_code ec;
    std::filesystem::rename(path_, taken, ec);
    if (ec) return out;
    std::string text;
    try {
        text = read_untrusted_file(taken, kMaxControlFileBytes, "--control '" + shown_path(path_) + "'");
    } catch (const InputError& e) {
        std::cerr << "tilescope gui: " << e.what() << "; ignored\n";
    }
    std::filesystem::remove(taken, ec);
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string verb, arg;
        words >> verb;
        std::getline(words >> std::ws, arg);
        if (verb == "screenshot" && !arg.empty()) out.push_back({ControlCommand::Kind::Screenshot, arg});
        else if (verb == "quit") out.push_back({ControlCommand::Kind::Quit, ""});
        else if (verb == "measure" && !arg.empty()) out.push_back({ControlCommand::Kind::Measure, arg});
        else if (verb == "state" && !arg.empty()) out.push_back({ControlCommand::Kind::State, arg});
        else if (verb == "text" && !arg.empty()) out.push_back({ControlCommand::Kind::Text, arg});
        else if (verb == "reveal") out.push_back({ControlCommand::Kind::Reveal, ""});
        else if (verb == "class" && !arg.empty()) out.push_back({ControlCommand::Kind::Class, arg});
        else if (verb == "lesson-step" && !arg.empty()) out.push_back({ControlCommand::Kind::LessonStep, arg});
        else if (verb == "step" && !arg.empty()) out.push_back({ControlCommand::Kind::Step, arg});
        else if (verb == "part" && !arg.empty()) out.push_back({ControlCommand::Kind::Part, arg});
        else if (!verb.empty())
            std::cerr << "tilescope gui: --control: '" << shown(line)
                      << "' is not a command; accepted: screenshot PATH, quit, measure N, state PATH, text PATH, reveal, class ADDR:PORT|stop, lesson-step N, step N, part N\n";
    }
    return out;
}

}  // namespace tilescope::ui
