#pragma once
// The one window of the GUI: GLFW + an OpenGL 3.3 core context, glad loaded. The only
// place besides main.cpp that knows GLFW exists.
#include <string>

struct GLFWwindow;

namespace tilescope::gfx {

struct WindowOptions {
    int width = 1280;          // logical size asked for
    int height = 800;
    bool vsync = true;         // off for --frame-stats (frame time, not refresh rate)
    std::string title = "tilescope";
};

class Window {
public:
    // Throws std::runtime_error with one readable line when no display or no GL 3.3.
    explicit Window(const WindowOptions& options);
    ~Window();
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

    GLFWwindow* handle() const { return window_; }
    bool should_close() const;
    void request_close();
    void poll_events();
    void wait_events(double timeout_s);  // idle: sleep until input or timeout
    void swap();
    // Presents only a region of the back buffer (GLX_MESA_copy_sub_buffer, Mesa's
    // software GL): the back buffer then persists between frames, so a frame need only
    // repaint what changed. False when the extension is missing (use swap()).
    bool can_present_region() const { return copy_sub_buffer_ != nullptr; }
    void present_region(int x, int y, int w, int h);  // GL window coordinates, origin bottom-left
    // True once after the window system asked for a repaint (exposed, resized).
    bool take_refresh_request();
    void framebuffer_size(int& w, int& h) const;
    std::string gl_renderer() const;

    // True when a display can be opened at all (checked without creating a window).
    static bool display_available(std::string& why);

private:
    GLFWwindow* window_ = nullptr;
    void* copy_sub_buffer_ = nullptr;  // glXCopySubBufferMESA
    void* display_ = nullptr;
    unsigned long drawable_ = 0;
};

// Viewport and clear colour (an ImGui colour) before ImGui paints.
void begin_frame(int width, int height, unsigned clear_rgba);

double now_seconds();  // monotonic clock the frame loop uses

}  // namespace tilescope::gfx
