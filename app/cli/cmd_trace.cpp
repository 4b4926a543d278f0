#include <iostream>

#include "cli/cli.h"

namespace tilescope::cli {

// Wired to the emulator trace once app/trace lands (issue 3).
int cmd_trace(const std::vector<std::string>& args) {
    std::cerr << "tilescope trace: the emulator trace is not part of this build yet\n";
    return 2;
}

}  // namespace tilescope::cli
