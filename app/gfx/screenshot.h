#pragma once
// The window's pixels as a PNG (glReadPixels of the back buffer after the last frame).
#include <string>

namespace tilescope::gfx {

// Reads the current framebuffer (w x h) and encodes it as PNG bytes into `png`. Returns false
// with `error` set when there is nothing to encode. Writing the bytes is the caller's (the UI
// writes every output through core's one writer). `max_width` > 0 scales down (box filter)
// so docs screenshots stay small.
bool framebuffer_png(int w, int h, std::string& png, std::string& error, int max_width = 0);

}  // namespace tilescope::gfx
