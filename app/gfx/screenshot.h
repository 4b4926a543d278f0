#pragma once
// The window's pixels as a PNG (glReadPixels of the back buffer after the last frame).
#include <string>

namespace tilescope::gfx {

// Reads the current framebuffer (w x h) and writes `path` atomically (temp + rename).
// Returns false with `error` set on failure. `max_width` > 0 scales down (box filter)
// so docs screenshots stay small.
bool save_png(const std::string& path, int w, int h, std::string& error, int max_width = 0);

}  // namespace tilescope::gfx
