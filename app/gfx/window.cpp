#include "gfx/window.h"

#include <glad/gl.h>
#include <GLFW/glfw3.h>

#include <cstdlib>
#include <stdexcept>

namespace tilescope::gfx {
namespace {
std::string g_glfw_error;
bool g_refresh = true;
void on_refresh(GLFWwindow*) { g_refresh = true; }
void on_glfw_error(int, const char* text) { g_glfw_error = text ? text : ""; }
}  // namespace

bool Window::display_available(std::string& why) {
    const char* d = std::getenv("DISPLAY");
    const char* w = std::getenv("WAYLAND_DISPLAY");
    if ((!d || !*d) && (!w || !*w)) {
        why = "no display (DISPLAY is not set); run under X11 or Xvfb, or use `tilescope tour`";
        return false;
    }
    return true;
}

Window::Window(const WindowOptions& o) {
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
    glfwSetWindowRefreshCallback(window_, on_refresh);
    // GLX_MESA_copy_sub_buffer, looked up without X11 headers: GLX entry points by name.
    if (glfwExtensionSupported("GLX_MESA_copy_sub_buffer") && !std::getenv("TILESCOPE_FULL_REDRAW")) {
        using GetDisplay = void* (*)();
        using GetDrawable = unsigned long (*)();
        auto get_display = reinterpret_cast<GetDisplay>(glfwGetProcAddress("glXGetCurrentDisplay"));
        auto get_drawable = reinterpret_cast<GetDrawable>(glfwGetProcAddress("glXGetCurrentDrawable"));
        void* copy = reinterpret_cast<void*>(glfwGetProcAddress("glXCopySubBufferMESA"));
        if (get_display && get_drawable && copy) {
            display_ = get_display();
            drawable_ = get_drawable();
            if (display_ && drawable_) copy_sub_buffer_ = copy;
        }
    }
}

void Window::present_region(int x, int y, int w, int h) {
    using Copy = void (*)(void*, unsigned long, int, int, int, int);
    if (w > 0 && h > 0) reinterpret_cast<Copy>(copy_sub_buffer_)(display_, drawable_, x, y, w, h);
    glFlush();
}

bool Window::take_refresh_request() {
    const bool r = g_refresh;
    g_refresh = false;
    return r;
}

Window::~Window() {
    if (window_) glfwDestroyWindow(window_);
    glfwTerminate();
}

bool Window::should_close() const { return glfwWindowShouldClose(window_); }
void Window::request_close() { glfwSetWindowShouldClose(window_, GLFW_TRUE); }
void Window::poll_events() { glfwPollEvents(); }
void Window::wait_events(double t) { glfwWaitEventsTimeout(t); }
void Window::swap() { glfwSwapBuffers(window_); }
void Window::framebuffer_size(int& w, int& h) const { glfwGetFramebufferSize(window_, &w, &h); }
std::string Window::gl_renderer() const {
    const GLubyte* r = glGetString(GL_RENDERER);
    return r ? reinterpret_cast<const char*>(r) : "";
}

void begin_frame(int w, int h, unsigned c) {
    glViewport(0, 0, w, h);
    glClearColor((c & 0xff) / 255.f, ((c >> 8) & 0xff) / 255.f, ((c >> 16) & 0xff) / 255.f, 1.f);
    glClear(GL_COLOR_BUFFER_BIT);
}

double now_seconds() { return glfwGetTime(); }

}  // namespace tilescope::gfx
