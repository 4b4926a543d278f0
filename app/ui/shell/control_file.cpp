#include "ui/shell/control_file.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace tilescope::ui {

std::vector<ControlCommand> ControlFile::take() {
    std::vector<ControlCommand> out;
    std::error_code ec;
    if (!std::filesystem::exists(path_, ec)) return out;
    // Renamed first so a writer that is still writing a new file is never half-read twice.
    const std::string taken = path_ + ".taken";
    std::filesystem::rename(path_, taken, ec);
    if (ec) return out;
    std::ifstream in(taken);
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
        else if (!verb.empty())
            std::cerr << "tilescope gui: --control: '" << line << "' is not a command; accepted: screenshot PATH, quit, measure N, state PATH\n";
    }
    std::filesystem::remove(taken, ec);
    return out;
}

}  // namespace tilescope::ui
