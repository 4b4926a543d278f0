#include "gfx/backend.h"


#include <dlfcn.h>

#include <atomic>

#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <cstdlib>
#include <stdexcept>

#include "gfx/damage_renderer.h"
#include "gfx/screenshot.h"

namespace tilescope::gfx {

namespace {
// A switch or a display named in the environment; its value is only tested, never used.
bool set_and_not_empty(const char* name) {
    const char* v = std::getenv(name);
    return v && *v;
}
}  // namespace
namespace {

std::string g_glfw_error;
void on_glfw_error(int, const char* text) { g_glfw_error = text ? text : ""; }

Backend* owner(GLFWwindow* w) { return static_cast<Backend*>(glfwGetWindowUserPointer(w)); }

// Every way the window system can invalidate what is on screen is full damage: the
// partial present copies a region of a back buffer that must match the window.
void install_damage_callbacks(GLFWwindow* w) {
    glfwSetWindowRefreshCallback(w, [](GLFWwindow* w) { owner(w)->mark_full_damage(); });
    glfwSetFramebufferSizeCallback(w, [](GLFWwindow* w, int, int) { owner(w)->mark_full_damage(); });
    glfwSetWindowSizeCallback(w, [](GLFWwindow* w, int, int) { owner(w)->mark_full_damage(); });
    glfwSetWindowIconifyCallback(w, [](GLFWwindow* w, int) { owner(w)->mark_full_damage(); });
    glfwSetWindowMaximizeCallback(w, [](GLFWwindow* w, int) { owner(w)->mark_full_damage(); });
    glfwSetWindowContentScaleCallback(w, [](GLFWwindow* w, float, float) { owner(w)->mark_full_damage(); });
}

// GLX_MESA_copy_sub_buffer, looked up without X11 headers: GLX entry points by name.
void find_copy_sub_buffer(void*& copy_fn, void*& display, unsigned long& drawable) {
    if (!glfwExtensionSupported("GLX_MESA_copy_sub_buffer") || set_and_not_empty("TILESCOPE_FULL_REDRAW")) return;
    using GetDisplay = void* (*)();
    using GetDrawable = unsigned long (*)();
    auto get_display = reinterpret_cast<GetDisplay>(glfwGetProcAddress("glXGetCurrentDisplay"));
    auto get_drawable = reinterpret_cast<GetDrawable>(glfwGetProcAddress("glXGetCurrentDrawable"));
    void* copy = reinterpret_cast<void*>(glfwGetProcAddress("glXCopySubBufferMESA"));
    if (!get_display || !get_drawable || !copy) return;
    display = get_display();
    drawable = get_drawable();
    if (display && drawable) copy_fn = copy;
}

// Xlib, looked up by name like GLX above (no X11 headers): the layout of XErrorEvent is
// part of Xlib's ABI.
struct XErrorEventAbi {
    int type;
    void* display;
    unsigned long resourceid, serial;
    unsigned char error_code, request_code, minor_code;
};
using XErrorHandlerFn = int (*)(void*, XErrorEventAbi*);
using XSetErrorHandlerFn = XErrorHandlerFn (*)(XErrorHandlerFn);
using XGetGeometryFn = int (*)(void*, unsigned long, unsigned long*, int*, int*, unsigned*, unsigned*, unsigned*, unsigned*);
XErrorHandlerFn g_previous_x_handler = nullptr;
std::atomic<bool> g_present_lost{false};

// A window resized while a frame was in flight: Mesa presents a region of a back buffer
// of the old size, and the X server refuses it with BadValue on MIT-SHM's ShmPutImage
// (an extension request, minor 3). Xlib's default handler would end the process; the
// frame is lost instead, and the next one is drawn whole. Every other error goes on to
// the handler that was there before.
int tolerate_lost_present(void* display, XErrorEventAbi* e) {
    constexpr unsigned char kBadValue = 2, kShmPutImage = 3;
    if (e && e->error_code == kBadValue && e->request_code >= 128 && e->minor_code == kShmPutImage) {
        g_present_lost = true;
        return 0;
    }
    return g_previous_x_handler ? g_previous_x_handler(display, e) : 0;
}

}  // namespace

bool Backend::display_available(std::string& why) {
    if (!set_and_not_empty("DISPLAY") && !set_and_not_empty("WAYLAND_DISPLAY")) {
        why = "no display (DISPLAY is not set); run under X11 or Xvfb, or use `tilescope tour`";
        return false;
    }
    return true;
}

Backend::Backend(const BackendOptions& o) {
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit())
        throw std::runtime_error("cannot open the display (" + g_glfw_error + "); run under X11 or Xvfb, or use `tilescope tour`");
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    window_ = glfwCreateWindow(o.width, o.height, o.title.c_str(), nullptr, nullptr);
    if (!window_) {
        glfwTerminate();
        throw std::runtime_error("cannot create an OpenGL 3.3 core window (" + g_glfw_error + ")");
    }
    glfwMakeContextCurrent(window_);
    if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress))) {
        glfwDestroyWindow(window_);
        glfwTerminate();
        throw std::runtime_error("cannot load OpenGL 3.3 functions");
    }
    glfwSwapInterval(o.vsync ? 1 : 0);
    glfwSetWindowUserPointer(window_, this);
    install_damage_callbacks(window_);  // before ImGui's, which chain to nothing of these
    find_copy_sub_buffer(copy_sub_buffer_, display_, drawable_);
    if (copy_sub_buffer_) {
        if (auto set = reinterpret_cast<XSetErrorHandlerFn>(dlsym(RTLD_DEFAULT, "XSetErrorHandler")))
            g_previous_x_handler = set(&tolerate_lost_present);
        get_geometry_ = dlsym(RTLD_DEFAULT, "XGetGeometry");
        // The X window itself: GLX's drawable may be a GLXWindow, which XGetGeometry refuses.
        using GetX11Window = unsigned long (*)(GLFWwindow*);
        if (auto get_window = reinterpret_cast<GetX11Window>(dlsym(RTLD_DEFAULT, "glfwGetX11Window")))
            x_window_ = get_window(window_);
        if (!x_window_) get_geometry_ = nullptr;
    }
    renderer_ = std::make_unique<DamageRenderer>();

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui_ImplGlfw_InitForOpenGL(window_, true);
    ImGui_ImplOpenGL3_Init("#version 330 core");
}

Backend::~Backend() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    renderer_.reset();
    if (window_) glfwDestroyWindow(window_);
    glfwTerminate();
}

void Backend::mark_full_damage() {
    full_frames_ = 2;
    frames_since_change_ = 0;
}

void Backend::begin_frame() {
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    if (w != fb_w_ || h != fb_h_) mark_full_damage();  // a change whose event we missed
    if (g_present_lost.exchange(false)) mark_full_damage();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
}

void Backend::render(uint32_t clear_rgba) {
    ImDrawData* dd = ImGui::GetDrawData();
    fb_w_ = int(dd->DisplaySize.x * dd->FramebufferScale.x);
    fb_h_ = int(dd->DisplaySize.y * dd->FramebufferScale.y);
    // After a change of size, Mesa's software back buffer keeps its old size until the
    // next full swap; presenting a region of it then reads outside it (X BadValue from
    // XShmPutImage when growing, a shifted picture when shrinking). So: the first frame
    // after a change swaps everything, the next repaints everything, then partial again.
    const bool full = full_frames_ > 0 || !partial_repaint();
    swap_this_frame_ = full_frames_ == 2 || !partial_repaint();
    if (full_frames_ > 0) --full_frames_;
    ++frames_since_change_;
    if (full) renderer_->invalidate();
    const DamageRenderer::Region r = renderer_->render(dd, fb_w_, fb_h_, clear_rgba, !full);
    damage_x_ = r.x;
    damage_y_ = r.y;
    damage_w_ = r.w;
    damage_h_ = r.h;
}

bool Backend::png(std::string& out, std::string& error, int max_width) {
    return gfx::framebuffer_png(fb_w_, fb_h_, out, error, max_width);
}

void Backend::present() {
    if (swap_this_frame_) {
        glfwSwapBuffers(window_);
        return;
    }
    // The window may have changed size since this frame began (its events come with the
    // next poll): present a region only of a back buffer that still has the window's size.
    if (get_geometry_ && damage_w_ > 0 && damage_h_ > 0) {
        unsigned long root = 0;
        int x = 0, y = 0;
        unsigned w = 0, h = 0, border = 0, depth = 0;
        if (reinterpret_cast<XGetGeometryFn>(get_geometry_)(display_, x_window_, &root, &x, &y, &w, &h, &border, &depth) &&
            (int(w) != fb_w_ || int(h) != fb_h_)) {
            mark_full_damage();
            glfwSwapBuffers(window_);
            return;
        }
    }
    using Copy = void (*)(void*, unsigned long, int, int, int, int);
    if (damage_w_ > 0 && damage_h_ > 0)
        reinterpret_cast<Copy>(copy_sub_buffer_)(display_, drawable_, damage_x_, damage_y_, damage_w_, damage_h_);
    glFlush();
}

void Backend::set_fullscreen(bool on) {
    if (on == fullscreen_) return;
    if (on) {
        glfwGetWindowPos(window_, &windowed_[0], &windowed_[1]);
        glfwGetWindowSize(window_, &windowed_[2], &windowed_[3]);
        GLFWmonitor* monitor = glfwGetPrimaryMonitor();
        const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
        if (!mode) return;
        glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
    } else {
        glfwSetWindowMonitor(window_, nullptr, windowed_[0], windowed_[1], windowed_[2], windowed_[3], 0);
    }
    fullscreen_ = on;
    mark_full_damage();
}

bool Backend::should_close() const { return glfwWindowShouldClose(window_); }
void Backend::request_close() { glfwSetWindowShouldClose(window_, GLFW_TRUE); }
void Backend::poll_events() { glfwPollEvents(); }
void Backend::wait_events(double t) { glfwWaitEventsTimeout(t); }
void Backend::framebuffer_size(int& w, int& h) const { glfwGetFramebufferSize(window_, &w, &h); }
void Backend::set_window_size(int w, int h) { glfwSetWindowSize(window_, w, h); }
float Backend::last_damage_fraction() const { return renderer_->last_damage_fraction(); }
std::string Backend::gl_renderer() const {
    const GLubyte* r = glGetString(GL_RENDERER);
    return r ? reinterpret_cast<const char*>(r) : "";
}

double now_seconds() { return glfwGetTime(); }

}  // namespace tilescope::gfx
