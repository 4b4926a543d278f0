#pragma once
// Matrices as GPU-drawn grids: one texture of per-cell colours per matrix, painted by
// shaders/grid.frag on a single quad (8x8 and 256x256 cost the same). The UI fills the
// colours; painting happens inside ImGui's draw list through a callback, so grids
// respect window order and clipping.
#include <cstdint>
#include <memory>
#include <vector>

struct ImDrawList;

namespace tilescope::gfx {

// A rows x cols grid of RGBA8 colours (0xAABBGGRR, ImGui's packing).
class GridTexture {
public:
    GridTexture() = default;
    ~GridTexture();
    GridTexture(const GridTexture&) = delete;
    GridTexture& operator=(const GridTexture&) = delete;

    // Uploads when the contents changed (the caller says so through `version`).
    void upload(int rows, int cols, const std::vector<uint32_t>& rgba, uint64_t version);
    int rows() const { return rows_; }
    int cols() const { return cols_; }
    unsigned id() const { return tex_; }
    uint64_t version() const { return version_; }

private:
    unsigned tex_ = 0;
    int rows_ = 0, cols_ = 0;
    uint64_t version_ = ~0ull;
};

struct GridStyle {
    float tile = 0;                    // cells per tile line; 0: none
    uint32_t line = 0x40000000;        // cell separator (ImGui colour)
    uint32_t tile_line = 0xC0000000;   // tile separator
};

// Paints `texture` into the screen rectangle (x0,y0)-(x1,y1) (ImGui coordinates) as part
// of `list`. Call once the GL context exists.
void draw_grid(ImDrawList* list, const GridTexture& texture, float x0, float y0, float x1, float y1,
               const GridStyle& style);

// Frees GL objects; call before the context goes.
void shutdown_grids();

}  // namespace tilescope::gfx
