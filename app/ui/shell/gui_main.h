#pragma once
// The GUI's entry point: `tilescope` with a display, or `tilescope gui [options]`.
#include <string>
#include <vector>

namespace tilescope::ui {

// Arguments after "gui". Returns the exit status: 0, or 2 for bad input or no display.
int gui_main(const std::vector<std::string>& args);

}  // namespace tilescope::ui
