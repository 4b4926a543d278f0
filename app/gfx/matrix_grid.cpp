#include "gfx/matrix_grid.h"

#include "gfx/damage_renderer.h"

#include <glad/gl.h>
#include <imgui.h>

#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

namespace tilescope::gfx {
namespace shaders {
extern const char* const grid_vert;
extern const char* const grid_frag;
}  // namespace shaders

namespace {

struct GridProgram {
    GLuint program = 0, vao = 0;
    GLint rect = -1, viewport = -1, cells = -1, size = -1, cell_px = -1, tile = -1, line = -1, tile_line = -1;
};
GridProgram g_prog;

GLuint compile(GLenum type, const char* src) {
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, nullptr);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048];
        glGetShaderInfoLog(s, sizeof log, nullptr, log);
        throw std::runtime_error(std::string("grid shader does not compile: ") + log);
    }
    return s;
}

void ensure_program() {
    if (g_prog.program) return;
    GLuint vs = compile(GL_VERTEX_SHADER, shaders::grid_vert);
    GLuint fs = compile(GL_FRAGMENT_SHADER, shaders::grid_frag);
    GLuint p = glCreateProgram();
    glAttachShader(p, vs);
    glAttachShader(p, fs);
    glLinkProgram(p);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) throw std::runtime_error("grid shader does not link");
    g_prog.program = p;
    g_prog.rect = glGetUniformLocation(p, "u_rect");
    g_prog.viewport = glGetUniformLocation(p, "u_viewport");
    g_prog.cells = glGetUniformLocation(p, "u_cells");
    g_prog.size = glGetUniformLocation(p, "u_size");
    g_prog.cell_px = glGetUniformLocation(p, "u_cell_px");
    g_prog.tile = glGetUniformLocation(p, "u_tile");
    g_prog.line = glGetUniformLocation(p, "u_line");
    g_prog.tile_line = glGetUniformLocation(p, "u_tile_line");
    glGenVertexArrays(1, &g_prog.vao);
}

// What one callback paints; lives in the draw list's frame.
struct GridDraw {
    unsigned tex;
    uint64_t version;  // texture contents
    int rows, cols;
    float x0, y0, x1, y1;
    GridStyle style;
};
std::vector<GridDraw> g_draws;  // reset each frame by draw_grid when the frame changes
int g_draws_frame = -1;

void set_colour(GLint loc, uint32_t c) {
    glUniform4f(loc, (c & 0xff) / 255.f, ((c >> 8) & 0xff) / 255.f, ((c >> 16) & 0xff) / 255.f, ((c >> 24) & 0xff) / 255.f);
}

void paint(const ImDrawList* list, const ImDrawCmd* cmd) {
    const GridDraw& d = g_draws[reinterpret_cast<size_t>(cmd->UserCallbackData) - 1];
    ensure_program();
    ImDrawData* dd = ImGui::GetDrawData();
    const float sx = dd ? dd->FramebufferScale.x : 1.f, sy = dd ? dd->FramebufferScale.y : 1.f;
    const float ox = dd ? dd->DisplayPos.x : 0.f, oy = dd ? dd->DisplayPos.y : 0.f;
    const float vw = dd ? dd->DisplaySize.x * sx : 1.f, vh = dd ? dd->DisplaySize.y * sy : 1.f;
    glUseProgram(g_prog.program);
    glBindVertexArray(g_prog.vao);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, d.tex);
    glDisable(GL_BLEND);
    // the callback may be the first command of its list: the scissor in effect is the
    // previous list's, so set ours from the command's clip rectangle
    glEnable(GL_SCISSOR_TEST);
    glScissor(int((cmd->ClipRect.x - ox) * sx), int(vh - (cmd->ClipRect.w - oy) * sy), int((cmd->ClipRect.z - cmd->ClipRect.x) * sx),
              int((cmd->ClipRect.w - cmd->ClipRect.y) * sy));
    const float x0 = (d.x0 - ox) * sx, y0 = (d.y0 - oy) * sy, x1 = (d.x1 - ox) * sx, y1 = (d.y1 - oy) * sy;
    glUniform4f(g_prog.rect, x0, y0, x1, y1);
    glUniform2f(g_prog.viewport, vw, vh);
    glUniform1i(g_prog.cells, 0);
    glUniform2f(g_prog.size, float(d.cols), float(d.rows));
    glUniform2f(g_prog.cell_px, (x1 - x0) / d.cols, (y1 - y0) / d.rows);
    glUniform1f(g_prog.tile, d.style.tile);
    set_colour(g_prog.line, d.style.line);
    set_colour(g_prog.tile_line, d.style.tile_line);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glEnable(GL_BLEND);
}

}  // namespace

GridTexture::~GridTexture() {
    if (tex_) glDeleteTextures(1, &tex_);
}

void GridTexture::upload(int rows, int cols, const std::vector<uint32_t>& rgba, uint64_t version) {
    if (rows <= 0 || cols <= 0 || rgba.size() < size_t(rows) * size_t(cols)) return;
    if (!tex_) {
        glGenTextures(1, &tex_);
        glBindTexture(GL_TEXTURE_2D, tex_);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    }
    if (version == version_ && rows == rows_ && cols == cols_) return;
    glBindTexture(GL_TEXTURE_2D, tex_);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    if (rows != rows_ || cols != cols_)
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, cols, rows, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    else
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, cols, rows, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    rows_ = rows;
    cols_ = cols;
    version_ = version;
}

void draw_grid(ImDrawList* list, const GridTexture& t, float x0, float y0, float x1, float y1, const GridStyle& style) {
    if (!t.id()) return;
    const int frame = ImGui::GetFrameCount();
    if (frame != g_draws_frame) {
        g_draws.clear();
        g_draws_frame = frame;
    }
    g_draws.push_back({t.id(), t.version(), t.rows(), t.cols(), x0, y0, x1, y1, style});
    list->AddCallback(paint, reinterpret_cast<void*>(g_draws.size()));  // 1-based: null is not an index
    list->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
}

uint64_t grid_callback_signature(const void* user_data) {
    const size_t i = reinterpret_cast<size_t>(user_data);
    if (i == 0 || i > g_draws.size()) return 0;
    const GridDraw& d = g_draws[i - 1];
    uint64_t h = 1469598103934665603ull;
    auto mix = [&h](uint64_t v) { h = (h ^ v) * 1099511628211ull; };
    mix(d.tex);
    mix(d.version);
    mix(uint64_t(d.rows) << 32 | uint32_t(d.cols));
    float f[4] = {d.x0, d.y0, d.x1, d.y1};
    uint64_t bits[2];
    std::memcpy(bits, f, sizeof f);
    mix(bits[0]);
    mix(bits[1]);
    mix(uint64_t(d.style.line) << 32 | d.style.tile_line);
    mix(uint64_t(d.style.tile * 16));
    return h;
}

void shutdown_grids() {
    if (g_prog.program) glDeleteProgram(g_prog.program);
    if (g_prog.vao) glDeleteVertexArrays(1, &g_prog.vao);
    g_prog = {};
}

}  // namespace tilescope::gfx
