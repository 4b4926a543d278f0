#pragma once
// The window saved as a PNG file: gfx encodes the last frame, core's one output writer writes it.
#include <string>

namespace tilescope::gfx {
class Backend;
}

namespace tilescope::ui {

// Returns false with `error` set when there is no frame to save; throws InputError when the
// target is refused (an input of this run, a device, a FIFO, a folder) and OutputError when it
// cannot be written whole (core/base/atomic_file.h). `option` names the target in messages.
bool save_window_png(gfx::Backend& backend, const std::string& path, std::string& error, int max_width,
                     const std::string& option);

}  // namespace tilescope::ui
