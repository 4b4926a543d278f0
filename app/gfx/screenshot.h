#pragma once
// The window's pixels as a PNG (glReadPixels of the back buffer after the last frame).
#include <string>

namespace tilescope::gfx {

// Reads the current framebuffer (w x h) and writes `path` atomically (temp + rename).
// Returns false with `error` set when there is nothing to save; throws InputError when the
// target is refused and OutputError when it cannot be written whole (atomic_file.h). `max_width` > 0 scales down (box filter)
// so docs screenshots stay small.
bool save_png(const std::string& path, int w, int h, std::string& error, int max_width = 0,
              const std::string& option = "screenshot");

}  // namespace tilescope::gfx
