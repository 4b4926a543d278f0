#pragma once
// The window-system seam (as Tracy's Backend.hpp): the one window, GLFW, the OpenGL 3.3
// context, ImGui's GLFW and OpenGL3 back-ends and the partial repaint. Nothing outside
// app/gfx sees GLFW or a GLFWwindow*. The UI calls, per frame:
//   begin_frame(); ImGui::NewFrame(); ...panels...; ImGui::Render();
//   render(clear); [png(...)]; present();
#include <cstdint>
#include <memory>
#include <string>

struct GLFWwindow;

namespace tilescope::gfx {

class DamageRenderer;

struct BackendOptions {
    int width = 1280;          // logical size asked for
    int height = 800;
    bool vsync = true;         // off for --frame-stats (frame time, not refresh rate)
    std::string title = "tilescope";
};

// Keys as ImGui 1.86 indexes them with the GLFW back-end (GLFW key codes), so the UI
// can ask ImGui::IsKeyPressed without knowing GLFW.
namespace key {
inline constexpr int H = 72, F1 = 290, F5 = 294, F11 = 300, F12 = 301, Escape = 256, Home = 268;
inline constexpr int R = 82, PageUp = 266, PageDown = 267;  // GLFW's codes, as the others
}

class Backend {
public:
    // Opens the window and creates the ImGui context with both back-ends attached.
    // Throws std::runtime_error with one readable line when no display or no GL 3.3.
    explicit Backend(const BackendOptions& options);
    ~Backend();  // detaches the back-ends, destroys the ImGui context and the window
    Backend(const Backend&) = delete;
    Backend& operator=(const Backend&) = delete;

    // True when a display can be opened at all (checked without creating a window).
    static bool display_available(std::string& why);

    bool should_close() const;
    void request_close();
    void poll_events();
    void wait_events(double timeout_s);  // idle: sleep until input or timeout

    void begin_frame();                 // the back-ends' NewFrame; then ImGui::NewFrame()
    void render(uint32_t clear_rgba);   // after ImGui::Render(): paints the damage into the back buffer
    // The frame just rendered, as a PNG (call between render and present). False with
    // `error` set on failure. `max_width` > 0 scales the image down.
    // The last frame as PNG bytes (false with `error` when there is none); the UI writes them.
    bool png(std::string& out, std::string& error, int max_width = 0);
    void present();                     // shows the frame

    // False for a few frames after a size, minimise or DPI change: until the back buffer
    // has the window's size again, and ImGui's layout (which sizes scrollbars and tables
    // from the frame before) has caught up. A screenshot before then shows neither.
    bool settled() const { return frames_since_change_ >= 4; }
    void framebuffer_size(int& w, int& h) const;
    void set_window_size(int w, int h);
    void set_fullscreen(bool on);
    bool fullscreen() const { return fullscreen_; }
    bool partial_repaint() const { return copy_sub_buffer_ != nullptr; }
    float last_damage_fraction() const;  // share of the window the last frame repainted
    std::string gl_renderer() const;

    void mark_full_damage();  // repaint and present the whole window for the next frames

private:
    GLFWwindow* window_ = nullptr;
    std::unique_ptr<DamageRenderer> renderer_;
    void* copy_sub_buffer_ = nullptr;  // glXCopySubBufferMESA
    void* display_ = nullptr;
    unsigned long drawable_ = 0;
    void* get_geometry_ = nullptr;     // XGetGeometry: the window's size just before a partial present
    unsigned long x_window_ = 0;       // the X window (glfwGetX11Window)
    int full_frames_ = 2;             // frames left that repaint and swap everything
    int frames_since_change_ = 0;
    bool swap_this_frame_ = true;
    int damage_x_ = 0, damage_y_ = 0, damage_w_ = 0, damage_h_ = 0;
    int fb_w_ = 0, fb_h_ = 0;         // the size the last frame was rendered at
    bool fullscreen_ = false;
    int windowed_[4] = {0, 0, 0, 0};  // x, y, w, h to restore after fullscreen
};

double now_seconds();  // monotonic clock the frame loop uses

}  // namespace tilescope::gfx
