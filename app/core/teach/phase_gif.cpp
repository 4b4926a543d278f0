#include "core/teach/phase_gif.h"

#include "core/teach/palette.h"
#include "core/trace/frame.h"
#include "core/trace/phases.h"

#include <cctype>
#include <gif_lib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <sstream>

#include <stb/stb_easy_font.h>  // header-only, static functions

#include "core/base/atomic_file.h"
#include "core/base/errors.h"

namespace tilescope {
namespace {

enum PhaseGifColour : uint8_t {
    White, Grid, Empty, AStrip, ALoaded, BStrip, BLoaded, CBlock, CStored, Wrong, Ink, Outline,
    LocalEmpty, LocalFilled, LocalHeld, LocalRead, Hover, PastEdge
};
// The few colours a frame uses, from the one palette (core/teach/palette.h): painting
// palette indices keeps the GIF exact. Order = PhaseGifColour.
std::vector<GifColorType> gif_colours() {
    const palette::Colours& p = palette::light();
    const palette::Rgb grid{214, 214, 214};  // the GUI's translucent grid line over an empty cell, made opaque
    const palette::Rgb white{255, 255, 255};
    const palette::Rgb list[] = {white,       grid,           p.cell_empty,   p.a_strip,    p.a_loaded,   p.b_strip,
                                 p.b_loaded,  p.c_block,      p.c_stored,     p.wrong,      p.text,       p.outline,
                                 p.local_empty, p.local_filled, p.local_held, p.local_read, p.hover,
                                 palette::Rgb{200, 200, 200}};  // past the matrix's edge: a mid grey, no element there
    std::vector<GifColorType> out;
    for (const palette::Rgb& c : list) out.push_back({c.r, c.g, c.b});
    out.resize(32, GifColorType{255, 255, 255});  // a colour map holds a power of two (18 used)
    return out;
}

constexpr int kLineHeight = 12;  // stb_easy_font's line at scale 1 (text ~7 px, descenders, spacing)

int text_width(const std::string& s, int scale) { return stb_easy_font_width(const_cast<char*>(s.c_str())) * scale; }

struct Canvas {
    int w = 0, h = 0;
    std::vector<uint8_t> px;
    void fill(int x0, int y0, int x1, int y1, uint8_t c) {  // [x0, x1) x [y0, y1)
        x0 = std::max(x0, 0), y0 = std::max(y0, 0), x1 = std::min(x1, w), y1 = std::min(y1, h);
        for (int y = y0; y < y1; ++y) std::fill(px.begin() + y * w + x0, px.begin() + y * w + std::max(x0, x1), c);
    }
    // stb_easy_font's quads, scaled by `scale`: plain text with no font file.
    void text(int x, int y, const std::string& s, int scale, uint8_t colour = Ink) {
        std::vector<char> buffer(s.size() * 64 * 40 + 64);  // at most ~40 quads per character
        const int quads = stb_easy_font_print(0, 0, const_cast<char*>(s.c_str()), nullptr, buffer.data(), int(buffer.size()));
        for (int q = 0; q < quads; ++q) {
            const float* v = reinterpret_cast<const float*>(buffer.data() + q * 64);
            const float x0 = v[0], y0 = v[1], x1 = v[8], y1 = v[9];  // vertices 0 and 2 (16 bytes each)
            fill(x + int(x0 * scale), y + int(y0 * scale), x + int(x1 * scale), y + int(y1 * scale), colour);
        }
    }
};

struct Box {
    int x = 0, y = 0, rows = 0, cols = 0, cell = 1;
    int right() const { return x + cols * cell + 1; }
    int bottom() const { return y + rows * cell + 1; }
};

void paint_rects(Canvas& c, const Box& b, const std::vector<Rect>& rects, uint8_t colour) {
    for (const Rect& r : rects)
        c.fill(b.x + int(r.c0) * b.cell, b.y + int(r.r0) * b.cell, b.x + int(r.c1 + 1) * b.cell, b.y + int(r.r1 + 1) * b.cell, colour);
}

void paint_grid(Canvas& c, const Box& b) {
    const int x1 = b.x + b.cols * b.cell, y1 = b.y + b.rows * b.cell;
    if (b.cell >= 5) {
        for (int i = 0; i <= b.rows; ++i) c.fill(b.x, b.y + i * b.cell, x1, b.y + i * b.cell + 1, Grid);
        for (int j = 0; j <= b.cols; ++j) c.fill(b.x + j * b.cell, b.y, b.x + j * b.cell + 1, y1, Grid);
    }
    c.fill(b.x, b.y, x1 + 1, b.y + 1, Outline), c.fill(b.x, y1, x1 + 1, y1 + 1, Outline);
    c.fill(b.x, b.y, b.x + 1, y1 + 1, Outline), c.fill(x1, b.y, x1 + 1, y1 + 1, Outline);
}

std::string group_text(const GroupId& g) { return "(" + std::to_string(g[0]) + "," + std::to_string(g[1]) + ")"; }

}  // namespace

// Breaks `text` at spaces into lines no wider than `width` at `scale`; a word wider than a
// line stays whole on a line of its own (drawn smaller by the caller), never cut.
std::vector<std::string> wrap_caption(const std::string& text, int width, int scale) {
    std::vector<std::string> lines;
    std::istringstream words(text);
    std::string word, line;
    while (words >> word) {
        const std::string longer = line.empty() ? word : line + " " + word;
        if (line.empty() || text_width(longer, scale) <= width) line = longer;
        else lines.push_back(line), line = word;
    }
    if (!line.empty()) lines.push_back(line);
    return lines;
}

namespace {

// Draws `lines` from y at scale 2 (a line too wide at 2, one long word, at 1); returns the y after.
int draw_lines(Canvas& c, int x, int y, int width, const std::vector<std::string>& lines) {
    for (const std::string& l : lines) {
        c.text(x, y, l, text_width(l, 2) <= width ? 2 : 1);
        y += 2 * kLineHeight;
    }
    return y;
}

struct Key {
    uint8_t colour;
    const char* text;
};

// The colour key, left to right, wrapping; returns its height (drawn only when `draw`).
// Text at scale 2 (~14 px, as the captions): at scale 1 it was ~7 px, unreadable on a slide.
int paint_key(Canvas& c, int x0, int y0, int width, bool draw) {
    static const Key keys[] = {{AStrip, "A strip"},        {ALoaded, "A now"},        {BStrip, "B strip"},
                               {BLoaded, "B now"},         {CBlock, "C block"},        {CStored, "C now"},
                               {LocalFilled, "local now"}, {LocalHeld, "local held"}, {LocalRead, "local read"},
                               {PastEdge, "past the edge"}, {Hover, "0 written (ring)"}, {Wrong, "wrong"}};
    constexpr int kScale = 2, kSwatch = 18, kRow = 26;
    int x = x0, y = y0;
    for (const Key& k : keys) {
        const int w = kSwatch + 6 + text_width(k.text, kScale) + 16;
        if (x > x0 && x + w > x0 + width) x = x0, y += kRow;
        if (draw) {
            c.fill(x, y, x + kSwatch, y + kSwatch, k.colour);
            c.fill(x, y, x + kSwatch, y + 1, Outline), c.fill(x, y + kSwatch - 1, x + kSwatch, y + kSwatch, Outline);
            c.fill(x, y, x + 1, y + kSwatch, Outline), c.fill(x + kSwatch - 1, y, x + kSwatch, y + kSwatch, Outline);
            c.text(x + kSwatch + 6, y + 2, k.text, kScale);
        }
        x += w;
    }
    return y + kRow - y0;
}

}  // namespace

namespace {

// One picture of the GIF: a part, or one iteration of a use part.
struct GifFrame {
    const GroupPhaseView* view = nullptr;
    std::optional<Frame> frame;  // the core's frame (labels, roles, zeros, tiles); none without an access log
};

// Cells a matrix's tiles reach past its edge, over every frame: the room to leave right of
// and below it (the slides draw the whole tile hanging past the edge).
struct Overhang {
    int right = 0, below = 0;
};

// A cell label in the cell at (x, y) of `cell` px: scale 2 where it fits, else 1, else none.
void cell_label(Canvas& c, int x, int y, int cell, const std::string& text) {
    if (text.empty()) return;
    for (int scale : {2, 1}) {
        const int w = text_width(text, scale), h = 7 * scale;
        if (w + 4 > cell || h + 4 > cell) continue;
        const int tx = x + (cell - w) / 2 + 1, ty = y + (cell - h) / 2 + 1;
        c.fill(tx - 2, ty - 2, tx + w + 1, ty + h + 2, White);  // a light plate: the name reads on any fill
        c.text(tx, ty, text, scale);
        return;
    }
}

void ring(Canvas& c, int x0, int y0, int x1, int y1, int thickness, uint8_t colour) {
    c.fill(x0, y0, x1, y0 + thickness, colour), c.fill(x0, y1 - thickness, x1, y1, colour);
    c.fill(x0, y0, x0 + thickness, y1, colour), c.fill(x1 - thickness, y0, x1, y1, colour);
}

// A dashed outline of cells [r0, r1] x [c0, c1] of `b` (inclusive; may pass the matrix's edge).
void dashed(Canvas& c, const Box& b, const Rect& r, uint8_t colour) {
    const int x0 = b.x + int(r.c0) * b.cell, y0 = b.y + int(r.r0) * b.cell;
    const int x1 = b.x + int(r.c1 + 1) * b.cell, y1 = b.y + int(r.r1 + 1) * b.cell;
    constexpr int dash = 6;
    for (int x = x0; x < x1; x += 2 * dash) c.fill(x, y0, std::min(x + dash, x1), y0 + 2, colour), c.fill(x, y1 - 1, std::min(x + dash, x1), y1 + 1, colour);
    for (int y = y0; y < y1; y += 2 * dash) c.fill(x0, y, x0 + 2, std::min(y + dash, y1), colour), c.fill(x1 - 1, y, x1 + 1, std::min(y + dash, y1), colour);
}

}  // namespace

std::string phase_gif_file_name(const Trace& trace, const GroupId& group) {
    std::string kernel;
    for (const char c : trace.kernel) {
        if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') kernel += c;
        else if (!kernel.empty() && kernel.back() != '-') kernel += '-';
        if (kernel.size() >= 64) break;
    }
    while (!kernel.empty() && kernel.back() == '-') kernel.pop_back();
    return "tilescope-" + (kernel.empty() ? std::string("kernel") : kernel) + "-" + trace.size.label() + "-group-" +
           std::to_string(group[0]) + "-" + std::to_string(group[1]) + (group[2] ? "-" + std::to_string(group[2]) : "") + ".gif";
}

int write_phase_gif(const Trace& t, const MatrixRoles& roles, const GroupId& group, const std::string& path,
                    const PhaseGifOptions& options) {
    const int parts = interval_count(t, group);
    if (parts == 0)
        throw InputError("--record: work-group " + group_text(group) + " has no phase detail in this trace; pick a group the trace kept (--group)");
    const int M = int(t.size.M), N = int(t.size.N), K = int(t.size.K);
    const int margin = 16, gap = 12, label_h = 2 * kLineHeight;
    std::vector<GroupPhaseView> views;
    for_each_phase_view(t, roles, group, [&](const GroupPhaseView& v) { views.push_back(v); });  // one walk, not one per part

    // Frames: one per part, and one per iteration of a part that reads local memory (the
    // slides' "Phase 0 Use for Block (0,0) (iteration 1)"), from the core's frame model.
    const GroupFrames gf(t, roles, group);
    const PhasePlan& plan = gf.plan();
    std::vector<GifFrame> frames;
    int with_iterations = 0;
    for (int p = 0; p < parts; ++p) with_iterations += std::max(1, gf.iterations(p));
    const bool per_iteration = with_iterations <= options.max_frames;
    for (int p = 0; p < parts; ++p) {
        const PhasePart* part = plan.part_at(p);
        const int iterations = per_iteration ? gf.iterations(p) : 0;
        const auto frame_at = [&](std::optional<int> it) -> std::optional<Frame> {
            if (!part) return std::nullopt;
            Frame f = gf.frame(FrameRequest{group, part->phase, part->name, it, std::nullopt, Naming::Slides}, false);
            if (f.interval != p || !f.has_log) return std::nullopt;  // a second part of one name: the part alone
            return f;
        };
        if (iterations > 0 && frame_at(0))
            for (int it = 0; it < iterations; ++it) frames.push_back({&views[size_t(p)], frame_at(it)});
        else
            frames.push_back({&views[size_t(p)], frame_at(std::nullopt)});
    }

    // Room past the edges for tiles that hang over them (A: right, towards C; B: below, towards C).
    Overhang oa, ob;
    for (const GifFrame& g : frames)
        if (g.frame)
            for (const TileInMatrix& tm : g.frame->tiles) {
                Overhang& o = tm.matrix == "A" ? oa : ob;
                const int64_t rows = tm.matrix == "A" ? M : K, cols = tm.matrix == "A" ? K : N;
                if (tm.matrix != "A" && tm.matrix != "B") continue;
                o.right = std::max(o.right, int(std::clamp<int64_t>(tm.rect.c1 + 1 - cols, 0, 64)));
                o.below = std::max(o.below, int(std::clamp<int64_t>(tm.rect.r1 + 1 - rows, 0, 64)));
            }
    const int pad_x = oa.right, pad_y = ob.below;               // between A and C, between B and C
    const int pad_right = ob.right, pad_below = oa.below;       // right of B (and C), below A (and C)

    // The local arrays stand in a column right of B and C, cells as large as the matrices'.
    int local_cols = 0;
    for (const LocalArrayView& la : views[0].locals) local_cols = std::max(local_cols, la.cols);
    const int extra = local_cols > 0 ? 2 * gap : 0;
    const int span = K + pad_x + N + pad_right + local_cols;
    // Cells up to 72 px: the slides' 4x4 and 3x3 examples then carry their names at ~14 px.
    const int cell = std::max(1, std::min(72, (options.max_width - 2 * margin - gap - extra - 1) / std::max(1, span)));
    Canvas c;
    c.w = std::max(2 * margin + gap + extra + span * cell + 1, options.min_width);
    const int text_w = c.w - 2 * margin;

    // Captions: the slides' title first, then the run, the part's traffic and any zeros written;
    // wrapped to the width, never cut; every frame gets the band of the longest.
    std::vector<std::vector<std::string>> captions;
    size_t caption_lines = 0;
    for (const GifFrame& g : frames) {
        const GroupPhaseView& v = *g.view;
        const std::string end = v.end_line ? "ends at the barrier on line " + std::to_string(v.end_line) : "runs to the end";
        std::vector<std::string> paras;
        const std::string title = g.frame ? g.frame->title
                                          : (plan.phases > 0 ? "Phase " + std::to_string(v.phase) + " " : std::string()) + v.part +
                                                " for Block " + group_text(group);
        paras.push_back(title);
        paras.push_back(t.kernel + " " + t.size.label() + " TS " + std::to_string(t.tile) + "; " +
                        (plan.phases > 0 ? "phase " + std::to_string(v.phase) + " of " + std::to_string(plan.phases) + ", part: " + v.part
                                         : std::string("no phases (no barrier), part: ") + v.part) +
                        (g.frame && g.frame->iteration
                             ? ", iteration " + std::to_string(*g.frame->iteration) + " of " + std::to_string(g.frame->iterations)
                             : std::string()) +
                        "; " + end);
        paras.push_back("the whole part: " + std::to_string(v.global.load_bytes / 4) + " floats from global, " +
                        std::to_string(v.local.load_bytes / 4) + " from local, " + std::to_string(v.local.store_bytes / 4) +
                        " stored to local");
        if (g.frame)
            for (const std::string& z : zero_write_lines(*g.frame)) paras.push_back(z);
        std::vector<std::string> lines;
        for (const std::string& para : paras) {
            const auto w = wrap_caption(para, text_w, 2);
            lines.insert(lines.end(), w.begin(), w.end());
        }
        caption_lines = std::max(caption_lines, lines.size());
        captions.push_back(std::move(lines));
    }
    const int caption = 8 + int(caption_lines) * 2 * kLineHeight + 4;
    const Box b{margin + (K + pad_x) * cell + gap, caption + label_h, K, N, cell};
    const Box a{margin, b.y + (K + pad_y) * cell + 1 + gap + label_h, M, K, cell};
    const Box cbox{b.x, a.y, M, N, cell};
    std::vector<Box> locals;
    int ly = b.y;
    for (const LocalArrayView& la : views[0].locals) {
        locals.push_back(Box{b.x + (N + pad_right) * cell + 1 + 2 * gap - 1, ly, la.rows, la.cols, cell});
        ly = locals.back().bottom() + gap + label_h;
    }
    const int body_bottom = std::max(cbox.bottom() + pad_below * cell, locals.empty() ? 0 : locals.back().bottom());
    const int key_h = paint_key(c, margin, 0, text_w, false);
    c.h = body_bottom + gap + key_h + margin / 2;

    // Encoded in memory, then written by the one output writer (core/base/atomic_file.h).
    std::string bytes;
    const OutputFunc append = [](GifFileType* g, const GifByteType* data, int n) {
        static_cast<std::string*>(g->UserData)->append(reinterpret_cast<const char*>(data), size_t(n));
        return n;
    };
    int err = 0;
    GifFileType* gif = EGifOpen(&bytes, append, &err);
    if (!gif) throw InputError("--record '" + path + "': cannot write (" + GifErrorString(err) + ")");
    const std::vector<GifColorType> colours = gif_colours();
    ColorMapObject* map = GifMakeMapObject(int(colours.size()), colours.data());
    bool ok = EGifPutScreenDesc(gif, c.w, c.h, 8, White, map) == GIF_OK;
    GifFreeMapObject(map);
    // Loop forever (the NETSCAPE2.0 application extension).
    const unsigned char loop[3] = {1, 0, 0};
    ok = ok && EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK &&
         EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0") == GIF_OK && EGifPutExtensionBlock(gif, 3, loop) == GIF_OK &&
         EGifPutExtensionTrailer(gif) == GIF_OK;
    const bool names = M * K <= 64 * 64 && K * N <= 64 * 64;
    for (size_t fi = 0; fi < frames.size() && ok; ++fi) {
        const GroupPhaseView& v = *frames[fi].view;
        const Frame* fr = frames[fi].frame ? &*frames[fi].frame : nullptr;
        c.px.assign(size_t(c.w) * c.h, White);
        // Tiles past the edge: their cells outside the matrix in light grey, "0" in each (the
        // zero the work-item writes instead), the whole tile dashed.
        if (fr)
            for (const TileInMatrix& tm : fr->tiles) {
                if ((tm.matrix != "A" && tm.matrix != "B") || tm.outside.empty()) continue;
                const Box& m = tm.matrix == "A" ? a : b;
                for (const auto& [r, col] : tm.outside)
                    if (r >= 0 && col >= 0 && r < m.rows + 64 && col < m.cols + 64) {
                        c.fill(m.x + int(col) * cell + 1, m.y + int(r) * cell + 1, m.x + int(col + 1) * cell, m.y + int(r + 1) * cell, PastEdge);
                        cell_label(c, m.x + int(col) * cell, m.y + int(r) * cell, cell, "0");
                    }
            }
        for (const Box& x : {a, b, cbox}) c.fill(x.x, x.y, x.x + x.cols * cell, x.y + x.rows * cell, Empty);
        paint_rects(c, a, v.a_strip, AStrip), paint_rects(c, b, v.b_strip, BStrip), paint_rects(c, cbox, v.c_block, CBlock);
        paint_rects(c, a, v.a_loaded, ALoaded), paint_rects(c, b, v.b_loaded, BLoaded);
        paint_rects(c, cbox, v.c_stored, CStored);
        for (const auto& w : t.wrong_cells) paint_rects(c, cbox, {{w[0], w[1], w[0], w[1]}}, Wrong);  // filled red
        for (const Box& x : {a, b, cbox}) paint_grid(c, x);
        if (names) {  // the elements' names, where a cell holds one at a readable size
            const std::pair<const Box*, char> named[] = {{&a, 'A'}, {&b, 'B'}, {&cbox, 'C'}};
            for (const auto& [box, role] : named)
                for (int r = 0; r < box->rows; ++r)
                    for (int col = 0; col < box->cols; ++col)
                        cell_label(c, box->x + col * cell, box->y + r * cell, cell, element_name(role, r, col, Naming::Slides));
        }
        if (fr) {
            for (const TileInMatrix& tm : fr->tiles)
                if ((tm.matrix == "A" || tm.matrix == "B") && !tm.outside.empty()) dashed(c, tm.matrix == "A" ? a : b, tm.rect, Outline);
        }
        // The group's local arrays, each word in its state's colour (as the emulation view); at an
        // iteration, only the words read then are "read"; each labelled with what it holds.
        for (size_t i = 0; i < locals.size() && i < v.locals.size(); ++i) {
            const LocalArrayView& la = v.locals[i];
            const Box& lb = locals[i];
            const FrameArray* fa = fr ? fr->find(la.name) : nullptr;
            for (int r = 0; r < la.rows; ++r)
                for (int col = 0; col < la.cols; ++col) {
                    const size_t w = size_t(r) * size_t(la.cols) + size_t(col);
                    uint8_t colour = LocalEmpty;
                    if (!fa) {
                        if (w < la.writer.size() && la.writer[w] >= 0) colour = la.fresh[w] ? LocalFilled : LocalHeld;
                        if (w < la.read.size() && la.read[w]) colour = LocalRead;
                    }
                    c.fill(lb.x + col * cell, lb.y + r * cell, lb.x + (col + 1) * cell, lb.y + (r + 1) * cell, colour);
                }
            if (fa)
                for (const FrameCell& fc : fa->cells) {
                    const uint8_t colour = fc.role == CellRole::Read ? LocalRead : fc.role == CellRole::Stored ? LocalFilled : LocalHeld;
                    c.fill(lb.x + int(fc.col) * cell, lb.y + int(fc.row) * cell, lb.x + int(fc.col + 1) * cell, lb.y + int(fc.row + 1) * cell, colour);
                }
            paint_grid(c, lb);
            if (fa)
                for (const FrameCell& fc : fa->cells) cell_label(c, lb.x + int(fc.col) * cell, lb.y + int(fc.row) * cell, cell, fc.label);
            if (fr)  // the cells zeroed in this part, ringed: their work-items are the slides' "special treatment"
                for (const ZeroWrite& z : fr->zero_writes)
                    if (z.cell.array == la.name)
                        ring(c, lb.x + int(z.cell.col) * cell, lb.y + int(z.cell.row) * cell, lb.x + int(z.cell.col + 1) * cell + 1,
                             lb.y + int(z.cell.row + 1) * cell + 1, std::max(2, cell / 12), Hover);
            const std::string name = "local " + la.name + " " + std::to_string(la.rows) + "x" + std::to_string(la.cols);
            c.text(lb.x, lb.y - label_h + 2, name, lb.x + text_width(name, 2) <= c.w - 4 ? 2 : 1);
        }
        draw_lines(c, margin, 8, text_w, captions[fi]);
        c.text(a.x, a.y - label_h + 2, "M (A)", 2), c.text(b.x, b.y - label_h + 2, "N (B)", 2),
            c.text(cbox.x, cbox.y - label_h + 2, "P (C)", 2);
        paint_key(c, margin, body_bottom + gap, text_w, true);
        GraphicsControlBlock gcb{};
        gcb.DelayTime = options.delay_ms / 10;
        gcb.TransparentColor = NO_TRANSPARENT_COLOR;
        GifByteType ext[4];
        EGifGCBToExtension(&gcb, ext);
        ok = EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, ext) == GIF_OK &&
             EGifPutImageDesc(gif, 0, 0, c.w, c.h, false, nullptr) == GIF_OK;
        for (int y = 0; y < c.h && ok; ++y) ok = EGifPutLine(gif, c.px.data() + size_t(y) * c.w, c.w) == GIF_OK;
    }
    if (EGifCloseFile(gif, &err) != GIF_OK) ok = false;
    if (!ok) throw InputError("--record '" + shown_path(path) + "': cannot encode the GIF");
    write_file_atomically(path, bytes, "--record");
    return int(frames.size());
}

}  // namespace tilescope
