#pragma once
// The emulation view, a widget in the ImPlot manner: A left of C, B above C (as on the
// slides), the selected group's strips outlined, the tiles it loads in the current phase
// filled, its local arrays beside C filling as work-items store. Heatmap mode colours A
// and B by how often each element was fetched from global memory, on one absolute scale.
//
// The caller owns the data (trace snapshot, roles, cursor) and the zoom/pan; the view
// paints them and says what the user did (clicked group, hovered cell) and where each
// matrix landed. It holds only its GPU textures, so one view per configuration.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>

#include "core/teach/lesson.h"
#include "core/trace/frame.h"
#include "core/trace/trace.h"
#include "core/trace/view_model.h"
#include "gfx/matrix_grid.h"

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

enum EmulationViewFlags_ : int {
    EmulationViewFlags_None = 0,
    EmulationViewFlags_Heatmap = 1 << 0,  // A and B coloured by global loads per element
    EmulationViewFlags_Compact = 1 << 1,  // no legend, no phase text, short labels (compare)
    EmulationViewFlags_NoInput = 1 << 2,  // no hover, no click (a pinned hover still shows)
    EmulationViewFlags_SideLegend = 1 << 3,  // with Compact: the legend in the free column right of the matrices, where one is
    EmulationViewFlags_CornerLocals = 1 << 4,  // the local arrays in the corner above A (compare at a projector)
};
using EmulationViewFlags = int;

// What the view paints; owned by the caller and read only during draw().
struct EmulationViewData {
    const Trace* trace = nullptr;           // null: nothing to draw yet (see empty_text)
    const MatrixRoles* roles = nullptr;
    uint64_t version = 0;                   // changes whenever *trace does (cell colours are cached on it)
    GroupId group{0, 0, 0};                 // the cursor: group, part (barrier interval), how far through it (0..1)
    int interval = 0;
    double progress = 1.0;
    bool tracing = false;                   // a trace is on its way (said beside a group without detail)
    std::string empty_text;                 // shown when trace is null
    std::optional<std::pair<int64_t, int64_t>> pinned_hover;  // a cell of C whose hover stays shown
    // The core's frame for the cursor (core/trace/frame.h): each cell's role at the selected
    // part or iteration and the element a local cell holds; null without an access log.
    const ::tilescope::Frame* frame = nullptr;
    std::optional<FrameRequest> request;  // what `frame` was built for (a hovered cell's sum so far)
    Naming naming = Naming::Slides;        // names drawn on cells: M0,1 or A0,1
    HiddenFigures hidden;                  // figures a lesson question waiting for Reveal keeps back
};

// Where a matrix landed on screen (for hit-testing, tests and the --layout file).
struct MatrixPlacement {
    std::string name, role;  // buffer name; "A", "B", "C" or "local"
    ImVec2 p0{}, p1{};       // screen rectangle of the cells
    int rows = 0, cols = 0;
};

struct HoveredCell {
    std::string role, name;  // as in MatrixPlacement
    int64_t row = 0, col = 0;
};

struct EmulationViewResult {
    std::optional<GroupId> clicked_group;  // a cell of C was clicked: the group computing it
    std::optional<WorkItemId> clicked_item;  // ... and its work-item (local id), when traced
    std::optional<HoveredCell> hovered;
};

// One legend table, read by the same layout pass that measures it and paints it, so
// the room kept for the legend is always the room it takes.
struct LegendEntry {
    enum class Kind { Key, Line, HeatScale };
    Kind kind = Kind::Key;  // Key: colour box + text, flowing; Line: text on its own row; HeatScale: the ramp with ticks
    ImU32 colour = 0;
    std::string text;
    std::string short_text;  // where room is short (a projector); empty: `text`
    std::vector<uint32_t> marks;  // HeatScale: counts marked above the ramp (this run's)
    bool unlabelled = false;      // HeatScale: the ramp without its counts (they answer a question waiting for Reveal)
};
using Legend = std::vector<LegendEntry>;
// Lays `legend` out in `width` pixels; paints it at `at` when `dl` is given. Returns the height.
float lay_out_legend(const Legend& legend, float width, ImDrawList* dl = nullptr, ImVec2 at = {}, bool short_texts = false);
// Where a side legend went (presenter mode): one piece per free area it was flowed into, in
// order (below the lesson strip first, then the column below the local arrays, then a band
// below the matrices, which shrink to make it), each with the entries' texts as drawn.
struct LegendPiece {
    std::array<float, 4> box{};  // x0, y0, x1, y1 on screen
    std::vector<std::string> texts;
};
struct LegendLayout {
    std::vector<LegendPiece> pieces;
    size_t entries = 0;  // the legend's entries (without the phase sentence)
    size_t dropped = 0;  // entries that found no room anywhere (0 unless the window is tiny)
    bool phase_sentence = false;  // the part in words went first (dropped before any entry)
};
// A cell's label sits on a light plate only while the plate covers at most this share of
// the cell (the fill is the point); past it the label goes bare, in an ink that reads on the fill.
inline constexpr float kMostPlate = 0.4f;
// The share of a `cell` px square a label's plate covers (its lines `top`, `bottom` in px; a
// bottom of width 0: one line).
float label_plate_share(float cell, ImVec2 top, ImVec2 bottom);
// A fill on which black text does not read (white does).
bool dark_fill(ImU32 colour);
// The colour of a count of global loads per element (heatmap), the same in every run.
ImU32 heat_colour(uint32_t loads);

class EmulationView {
public:
    // Paints into the rectangle at `origin` of `size` (inside the current ImGui window).
    EmulationViewResult draw(const EmulationViewData& data, ImVec2 origin, ImVec2 size, EmulationViewFlags flags = 0,
                             const ViewTransform& transform = {});
    const std::vector<MatrixPlacement>& placements() const { return placements_; }
    // Where the last draw put its legend (x0, y0, x1, y1 on screen); none when it drew none.
    const std::optional<std::array<float, 4>>& legend_box() const { return legend_box_; }
    // Filling the window: every piece of the side legend and what each holds.
    const LegendLayout& legend_layout() const { return legend_layout_; }
    // Filling the window (SideLegend): where the legend goes instead of the column the
    // matrices leave free (x0, y0, x1, y1): below the presenter's lesson strip.
    void set_side_legend_area(std::optional<std::array<float, 4>> area) { side_area_ = area; }

private:
    struct Grid {
        gfx::GridTexture texture;
        std::vector<uint32_t> rgba;
    };
    struct Frame;  // one draw call's inputs and layout
    static Legend legend_of(const Frame& f);
    static void tile_room(Frame& f);  // cells to leave past the edges for tiles hanging over them
    static void lay_out_matrices(Frame& f);
    static float local_cell(const Frame& f, size_t i);  // a local array's cell size, before zoom and pan
    static float locals_end(const Frame& f);           // where the column of local arrays ends, before zoom and pan
    void place_side_legend(Frame& f);                  // flows the legend into the free areas (filling the window)
    void paint_cells(const Frame& f);
    static void paint_annotations(const Frame& f);
    void paint_cell_names(const Frame& f) const;  // element names on cells large enough to read them
    static void paint_wrong_cells(const Frame& f);  // every cell of P that differs from the CPU reference
    void paint_locals(const Frame& f);
    static EmulationViewResult handle_hover(const Frame& f);
    Grid a_, b_, c_;
    std::vector<std::unique_ptr<Grid>> locals_;
    std::vector<MatrixPlacement> placements_;
    std::optional<std::array<float, 4>> legend_box_;
    LegendLayout legend_layout_;
    std::optional<std::array<float, 4>> side_area_;
    std::string cache_key_;
};

}  // namespace tilescope::ui
