#pragma once
// The emulation view: A left of C, B above C (as on the slides), the selected group's
// strips outlined, the tiles it loads in the current phase filled, its local arrays
// beside C filling as work-items store. Heatmap mode colours A and B by how often each
// element was fetched from global memory. Used twice in compare mode.
#include <memory>
#include <string>
#include <vector>

#include <imgui.h>

#include "gfx/matrix_grid.h"
#include "ui/app_state.h"

namespace tilescope::ui {

// Zoom and pan of the matrices, owned by whoever handles the input (the App); the view
// only applies it: a point p of the unzoomed layout is drawn at origin + offset +
// (p - origin) * scale.
struct ViewTransform {
    float scale = 1.f;     // 1: the whole layout fits the view
    ImVec2 offset{0, 0};   // pan in screen pixels
    ImVec2 apply(ImVec2 origin, ImVec2 p) const {
        return ImVec2(origin.x + offset.x + (p.x - origin.x) * scale, origin.y + offset.y + (p.y - origin.y) * scale);
    }
};

// Where a matrix landed on screen (for hit-testing, tests and the --layout file).
struct MatrixPlacement {
    std::string name, role;  // buffer name; "A", "B", "C" or "local"
    ImVec2 p0{}, p1{};       // screen rectangle of the cells
    int rows = 0, cols = 0;
};

class EmulationView {
public:
    // Paints `slot` into the rectangle at `origin` of `size`. `interactive`: hover and
    // click select (off for a second canvas in compare mode when asked).
    void draw(AppState& state, TraceSlot& slot, ImVec2 origin, ImVec2 size, bool heatmap, bool interactive = true,
              bool compact = false);  // compact: no legend, short labels (compare mode)
    const std::vector<MatrixPlacement>& placements() const { return placements_; }

private:
    struct Grid {
        gfx::GridTexture texture;
        std::vector<uint32_t> rgba;
    };
    void draw_matrix(ImDrawList* dl, Grid& g, const MatrixPlacement& m, float tile);
    Grid a_, b_, c_;
    std::vector<std::unique_ptr<Grid>> locals_;
    std::vector<MatrixPlacement> placements_;
    std::string cache_key_;
    uint64_t version_ = 0;
};

}  // namespace tilescope::ui
