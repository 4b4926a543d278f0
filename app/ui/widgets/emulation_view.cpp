#include "ui/widgets/emulation_view.h"

#include <algorithm>
#include <optional>
#include <cfloat>
#include <cmath>
#include <cstdio>

#include "ui/widgets/theme.h"

namespace tilescope::ui {
namespace {

// Cells past a matrix's edge under a tile that hangs over it: a faint grey on any background
// (no element lives there; the GIF uses the same light grey).
constexpr ImU32 kPastEdge = IM_COL32(0, 0, 0, 20);

uint64_t next_version() {
    static uint64_t v = 0;
    return ++v;
}

// Clipped to the grid: a rectangle from a file (or a view model's arithmetic on one) never
// writes outside it, however far out it lies (issue 23: rectangles at +-2^62).
void fill(std::vector<uint32_t>& px, int cols, const Rect& r, ImU32 colour) {
    if (cols <= 0 || px.empty()) return;
    const int64_t rows = int64_t(px.size()) / cols;
    const int64_t r0 = std::max<int64_t>(r.r0, 0), r1 = std::min<int64_t>(r.r1, rows - 1);
    const int64_t c0 = std::max<int64_t>(r.c0, 0), c1 = std::min<int64_t>(r.c1, int64_t(cols) - 1);
    for (int64_t i = r0; i <= r1; ++i)
        for (int64_t j = c0; j <= c1; ++j) px[size_t(i) * size_t(cols) + size_t(j)] = colour;
}

ImVec2 cell_pos(const MatrixPlacement& m, double row, double col) {
    const float cw = (m.p1.x - m.p0.x) / float(m.cols), ch = (m.p1.y - m.p0.y) / float(m.rows);
    return ImVec2(m.p0.x + float(col) * cw, m.p0.y + float(row) * ch);
}

void outline(ImDrawList* dl, const MatrixPlacement& m, const Rect& r0, ImU32 colour, float thickness) {
    // Clipped like fill: float coordinates of 2^62 would draw nothing useful and can overflow.
    const Rect r{std::max<int64_t>(r0.r0, 0), std::max<int64_t>(r0.c0, 0), std::min<int64_t>(r0.r1, m.rows - 1),
                 std::min<int64_t>(r0.c1, m.cols - 1)};
    if (r.r0 > r.r1 || r.c0 > r.c1) return;
    const ImVec2 a = cell_pos(m, double(r.r0), double(r.c0));
    const ImVec2 b = cell_pos(m, double(r.r1 + 1), double(r.c1 + 1));
    dl->AddRect(a, b, colour, 0.f, 0, thickness);
}

// The whole tile a clipped rectangle belongs to, when the tile hangs past the matrix's
// right or bottom edge (the slides' 3x3 example: M's second tile would be columns 2 and 3 of
// a 3-column matrix): the clipped rectangle starts on a tile boundary, ends at the edge and
// is narrower than a tile. Empty when nothing hangs past.
std::optional<Rect> tile_past_edge(const Rect& r, int64_t rows, int64_t cols, int64_t tile_h, int64_t tile_w) {
    if (tile_h <= 0 || tile_w <= 0) return std::nullopt;
    Rect full = r;
    if (r.c1 == cols - 1 && r.c0 % tile_w == 0 && r.cols() < tile_w) full.c1 = r.c0 + tile_w - 1;
    if (r.r1 == rows - 1 && r.r0 % tile_h == 0 && r.rows() < tile_h) full.r1 = r.r0 + tile_h - 1;
    if (full == r) return std::nullopt;
    return full;
}

// A dashed outline of `r`, which may reach past the matrix (drawn there, as the slides do).
// It reaches at most `room` px past the matrix: the layout leaves a gap, not a whole tile,
// between matrices, and an outline running over the next matrix would mislead.
// A cell the picked work-item touches (the slides' thread of a "major case"): ringed in the
// hover colour as its cell of P is, with a dark inner line that tells it from the rings of
// the zeros written in the part.
void item_ring(ImDrawList* dl, ImVec2 p, float size, ImU32 colour) {
    const float w = std::clamp(size * 0.08f, 1.f, theme().line * 2.5f);
    dl->AddRect(ImVec2(p.x + 1, p.y + 1), ImVec2(p.x + size - 1, p.y + size - 1), colour, 0.f, 0, w);
    if (size >= 4 * w + 10)  // 2 px: a 1 px line blurs to nothing on a projector
        dl->AddRect(ImVec2(p.x + 2 + w + 1, p.y + 2 + w + 1), ImVec2(p.x + size - 3 - w, p.y + size - 3 - w), IM_COL32(30, 30, 30, 255),
                    0.f, 0, 2.f);
}

void dashed_outline(ImDrawList* dl, const MatrixPlacement& m, const Rect& r, ImU32 colour, float thickness, float room) {
    const ImVec2 a = cell_pos(m, double(r.r0), double(r.c0));
    ImVec2 b = cell_pos(m, double(r.r1 + 1), double(r.c1 + 1));
    b.x = std::min(b.x, m.p1.x + room), b.y = std::min(b.y, m.p1.y + room);
    const float dash = std::max(4.f, thickness * 3);
    auto seg = [&](ImVec2 p, ImVec2 q) {
        const float len = std::hypot(q.x - p.x, q.y - p.y);
        for (float t = 0; t < len; t += 2 * dash) {
            const float u = std::min(len, t + dash);
            dl->AddLine(ImVec2(p.x + (q.x - p.x) * t / len, p.y + (q.y - p.y) * t / len),
                        ImVec2(p.x + (q.x - p.x) * u / len, p.y + (q.y - p.y) * u / len), colour, thickness);
        }
    };
    // The side cut by `room` is left open: the tile goes on.
    const bool cut_x = b.x < cell_pos(m, double(r.r1 + 1), double(r.c1 + 1)).x - 0.5f;
    const bool cut_y = b.y < cell_pos(m, double(r.r1 + 1), double(r.c1 + 1)).y - 0.5f;
    seg(a, ImVec2(b.x, a.y)), seg(ImVec2(a.x, b.y), a);
    if (!cut_x) seg(ImVec2(b.x, a.y), b);
    if (!cut_y) seg(b, ImVec2(a.x, b.y));
}

// Cell under the mouse, or false.
bool hit(const MatrixPlacement& m, ImVec2 mouse, int64_t& row, int64_t& col) {
    if (mouse.x < m.p0.x || mouse.y < m.p0.y || mouse.x >= m.p1.x || mouse.y >= m.p1.y) return false;
    col = std::clamp<int64_t>(int64_t((mouse.x - m.p0.x) / (m.p1.x - m.p0.x) * m.cols), 0, m.cols - 1);
    row = std::clamp<int64_t>(int64_t((mouse.y - m.p0.y) / (m.p1.y - m.p0.y) * m.rows), 0, m.rows - 1);
    return true;
}

std::string group_text(const GroupId& g, int dims) {
    char b[48];
    if (dims >= 3) std::snprintf(b, sizeof b, "(%u,%u,%u)", g[0], g[1], g[2]);
    else if (dims == 2) std::snprintf(b, sizeof b, "(%u,%u)", g[0], g[1]);
    else std::snprintf(b, sizeof b, "(%u)", g[0]);
    return b;
}

// A name inside a cell of `size` pixels at `at`, on a light plate so it reads on any fill;
// nothing where it would not fit.
// Names in cells: "M0,1" on one line where it fits at 10 px or more (the body text at
// most), else on two lines ("M" over "0,1"), so 8x8 matrices in a 1280x720 window, and in
// presenter mode, stay named. One size per array, from its widest name.
}  // namespace

float label_plate_share(float cell, ImVec2 top, ImVec2 bottom) {
    if (cell <= 0) return 1.f;
    return ((top.x + 2) * top.y + (bottom.x > 0 ? (bottom.x + 2) * bottom.y : 0.f)) / (cell * cell);
}

bool dark_fill(ImU32 c) {
    const float r = float(c & 0xff), g = float((c >> 8) & 0xff), b = float((c >> 16) & 0xff);
    return 0.299f * r + 0.587f * g + 0.114f * b < 128.f;
}

namespace {

struct LabelFit {
    float px = 0;         // text height; 0: too small to read
    bool two_lines = false;
};

std::pair<std::string, std::string> label_lines(const std::string& text) {
    const size_t digit = text.find_first_of("0123456789");
    if (digit == std::string::npos || digit == 0) return {text, ""};
    return {text.substr(0, digit), text.substr(digit)};
}

LabelFit label_fit(float size, const std::string& widest) {
    ImFont* font = ImGui::GetFont();
    // Big cells keep a margin of a ninth of the cell each side, so neighbouring labels never
    // touch and the fill shows round each (issue 33: 2x2 labels touched); small ones (8x8
    // tiles) keep their 1.5 px, else their two-line labels would not fit at all.
    const float body = ImGui::GetFontSize(), room = size >= 36 ? size * (7.f / 9.f) - 1 : size - 3;
    const float one = body * room / std::max(1.f, font->CalcTextSizeA(body, FLT_MAX, 0, widest.c_str()).x);
    if (std::min(one, room) >= 10) return {std::min({body, one, room}), false};
    const auto [top, bottom] = label_lines(widest);
    const float wide = std::max(font->CalcTextSizeA(body, FLT_MAX, 0, top.c_str()).x, font->CalcTextSizeA(body, FLT_MAX, 0, bottom.c_str()).x);
    const float two = std::min({body, body * room / std::max(1.f, wide), room / 2});
    return two >= 9 ? LabelFit{two, true} : LabelFit{};
}

// A label on `fill` (the cell's colour, 0: unknown): on a light plate where the plate leaves
// most of the cell's colour showing; where it would not (small cells: the 8x8 tiles' names,
// two lines of "M" over "0,1"), no plate, in black or white, whichever reads on the fill
// (issue 33: white plates hid the colours that are the point of the picture).
void cell_label(ImDrawList* dl, ImVec2 at, float size, const std::string& text, LabelFit fit = {}, ImU32 fill = 0) {
    ImFont* font = ImGui::GetFont();
    if (fit.px <= 0) fit = label_fit(size, text);
    if (fit.px <= 0) return;
    const auto [top, bottom] = fit.two_lines ? label_lines(text) : std::make_pair(text, std::string());
    const ImVec2 a = font->CalcTextSizeA(fit.px, FLT_MAX, 0, top.c_str());
    const ImVec2 b = bottom.empty() ? ImVec2(0, 0) : font->CalcTextSizeA(fit.px, FLT_MAX, 0, bottom.c_str());
    const bool plated = !fill || label_plate_share(size, a, b) <= kMostPlate;
    const ImU32 plate = IM_COL32(255, 255, 255, 150);  // the fill shows through
    const ImU32 ink = plated || !dark_fill(fill) ? theme().pal.text : IM_COL32(255, 255, 255, 255);
    float y = at.y + (size - a.y - b.y) * 0.5f;
    for (const auto& [line, need] : {std::make_pair(&top, a), std::make_pair(&bottom, b)}) {
        if (line->empty()) continue;
        const ImVec2 p(at.x + (size - need.x) * 0.5f, y);
        if (plated) dl->AddRectFilled(ImVec2(p.x - 1, p.y), ImVec2(p.x + need.x + 1, p.y + need.y), plate, 2.f);
        dl->AddText(font, fit.px, p, ink, line->c_str());
        y += need.y;
    }
}

void draw_matrix(ImDrawList* dl, const gfx::GridTexture& texture, const MatrixPlacement& m, float tile) {
    const Palette& pal = theme().pal;
    gfx::GridStyle st;
    const float cell_px = (m.p1.x - m.p0.x) / float(std::max(1, m.cols));
    st.tile = (tile > 0 && cell_px * tile >= 6.f) ? tile : 0.f;
    st.line = pal.grid_line;
    st.tile_line = pal.tile_line;
    gfx::draw_grid(dl, texture, m.p0.x, m.p0.y, m.p1.x, m.p1.y, st);
    dl->AddRect(ImVec2(m.p0.x - 1, m.p0.y - 1), ImVec2(m.p1.x + 1, m.p1.y + 1), pal.outline, 0.f, 0, 1.f);
}

std::string reuse_sentence(const ReuseLine& r, const char* role) {
    char buf[400];
    if (!r.formula.empty())
        std::snprintf(buf, sizeof buf, "%s: %s; traced %u..%u %s", role, r.formula.c_str(), r.min_loads, r.max_loads,
                      r.formula_matches ? "(matches)" : "(differs!)");
    else
        std::snprintf(buf, sizeof buf, "%s: each element loaded %u..%u times, mean %.2f (traced)", role, r.min_loads, r.max_loads,
                      r.mean_loads);
    return buf;
}

// The part on show in words (its phase, what it does, what it loads), for the free
// corner above A.
std::string phase_sentence(const GroupPhaseView& v, int dims, const HiddenFigures& hide) {
    auto rect_lines = [](const char* m, const std::vector<Rect>& rs) {
        std::string out;
        for (const Rect& r : rs) {
            char b[96];
            std::snprintf(b, sizeof b, "  %s rows %lld..%lld, cols %lld..%lld\n", m, (long long)r.r0, (long long)r.r1, (long long)r.c0,
                          (long long)r.c1);
            out += b;
        }
        return out;
    };
    std::string text = "Work-group " + group_text(v.group, dims) +
                       (v.phases > 0 ? ", phase " + std::to_string(v.phase) +
                                           (hide(Figure::PhaseCount) ? std::string(" (how many: ") + kHiddenUntilReveal + ")"
                                                                     : " of " + std::to_string(v.phases)) +
                                           ": " + v.part
                                     : std::string(": no phases (no barrier)")) +
                       "\n";
    const std::string loads = rect_lines("M", v.a_loaded) + rect_lines("N", v.b_loaded);
    if (!loads.empty()) text += "loads from global memory:\n" + loads;
    // The whole part's reads (every iteration of it), not the one iteration a frame may show.
    if (v.local.loads) text += "reads " + std::to_string(v.local.loads) + " floats from local memory in this whole part\n";
    if (!v.c_stored.empty()) text += "stores to global memory:\n" + rect_lines("P", v.c_stored);
    text += v.end_line ? "ends at the barrier on line " + std::to_string(v.end_line) : std::string("ends when the group finishes");
    return text;
}

bool has_race_marks(const Trace& t) {
    for (const Diagnostic& d : t.diagnostics)
        if ((d.kind == DiagnosticKind::Race || d.kind == DiagnosticKind::Divergence) && !d.work_items.empty()) return true;
    return false;
}

// `text` with line breaks at spaces so that each line fits `width` where it can: ImGui's own
// wrapping also breaks after '.', which cuts a range such as "8..15" in two.
std::string wrap_at_spaces(const std::string& text, float width) {
    std::string out, line;
    size_t i = 0;
    while (i <= text.size()) {
        const size_t nl = std::min(text.find('\n', i), text.size());
        std::string rest = text.substr(i, nl - i);
        const size_t indent = rest.find_first_not_of(' ');
        const std::string lead = indent == std::string::npos ? rest : rest.substr(0, indent);
        line = lead;
        size_t j = lead.size();
        while (j < rest.size()) {
            const size_t sp = std::min(rest.find(' ', j), rest.size());
            const std::string word = rest.substr(j, sp - j);
            const std::string tried = line.size() > lead.size() ? line + " " + word : line + word;
            if (line.size() > lead.size() && ImGui::CalcTextSize(tried.c_str()).x > width) {
                out += line + "\n";
                line = lead + "  " + word;  // a continued line: indented a little more
            } else {
                line = tried;
            }
            j = sp + 1;
        }
        out += line;
        if (nl < text.size()) out += "\n";
        i = nl + 1;
    }
    return out;
}

}  // namespace

ImU32 heat_colour(uint32_t loads) {
    const float p = heat_position(loads);
    return p < 0 ? theme().pal.cell_empty : heat(p);
}

float lay_out_legend(const Legend& legend, float width, ImDrawList* dl, ImVec2 at, bool short_texts) {
    const Palette& pal = theme().pal;
    const float fh = ImGui::GetFontSize(), row_h = fh * 1.5f;
    float x = 0, y = 0;
    auto new_row = [&] {
        if (x > 0) y += row_h;
        x = 0;
    };
    for (const LegendEntry& entry : legend) {
        LegendEntry e = entry;
        if (short_texts && !e.short_text.empty()) e.text = e.short_text;
        const float tw = ImGui::CalcTextSize(e.text.c_str()).x;
        if (e.kind == LegendEntry::Kind::Key) {
            const float w = fh * 2.f + tw;
            if (x > 0 && x + w > width) new_row();
            if (dl) {
                const ImVec2 p(at.x + x, at.y + y);
                dl->AddRectFilled(ImVec2(p.x, p.y + 2), ImVec2(p.x + fh, p.y + fh + 2), e.colour);
                dl->AddRect(ImVec2(p.x, p.y + 2), ImVec2(p.x + fh, p.y + fh + 2), pal.outline);
                dl->AddText(ImVec2(p.x + fh * 1.4f, p.y), pal.text, e.text.c_str());
            }
            x += w;
        } else if (e.kind == LegendEntry::Kind::Line) {
            new_row();
            if (dl) dl->AddText(nullptr, 0.f, ImVec2(at.x, at.y + y), e.colour ? e.colour : pal.text, e.text.c_str(), nullptr, width);
            y += ImGui::CalcTextSize(e.text.c_str(), nullptr, false, width).y + fh * 0.5f;
        } else {  // the ramp, its ticks below it, the text to its right (below it in a narrow column)
            new_row();
            const std::vector<uint32_t> ticks = heat_ticks();
            const float tick_w = ImGui::CalcTextSize("4096+").x * 1.25f;  // half the last label hangs past the ramp's end
            const float ramp_w = std::max(fh * 4, std::min(tick_w * float(ticks.size()), width - fh - tick_w * 0.4f));
            const bool caption_below = width - ramp_w - fh * 2 < fh * 8;
            const float caption_w = caption_below ? width : std::max(fh * 4, width - ramp_w - fh * 2);
            if (dl) {
                const ImVec2 p(at.x + fh * 0.5f, at.y + y + fh * 0.5f);  // room above for the marks
                for (uint32_t m : e.marks) {  // this run's counts, as a notch above the ramp
                    const float mx = p.x + ramp_w * std::max(0.f, heat_position(m));
                    dl->AddTriangleFilled(ImVec2(mx - fh * 0.35f, p.y - fh * 0.5f), ImVec2(mx + fh * 0.35f, p.y - fh * 0.5f),
                                          ImVec2(mx, p.y + 1), pal.outline);
                }
                for (int i = 0; i < 64; ++i) {
                    const float x0 = p.x + ramp_w * float(i) / 64.f, x1 = p.x + ramp_w * float(i + 1) / 64.f;
                    dl->AddRectFilled(ImVec2(x0, p.y + 2), ImVec2(x1 + 0.5f, p.y + fh + 2), heat(float(i) / 63.f));
                }
                dl->AddRect(ImVec2(p.x, p.y + 2), ImVec2(p.x + ramp_w, p.y + fh + 2), pal.outline);
                // A squeezed ramp labels only the ticks that do not collide; the last one,
                // the scale's end, is always labelled (its neighbour gives way).
                struct Label {
                    float x0, x1;
                    std::string text;
                };
                std::vector<Label> labels;
                for (uint32_t t : ticks) {
                    const float tx = p.x + ramp_w * heat_position(t);
                    std::string s = std::to_string(t) + (t == kHeatMaxLoads ? "+" : "");
                    const float lw = ImGui::CalcTextSize(s.c_str()).x;
                    dl->AddLine(ImVec2(tx, p.y + fh + 2), ImVec2(tx, p.y + fh + 6), pal.outline);
                    const bool last = t == ticks.back();
                    while (last && !labels.empty() && tx - lw * 0.5f < labels.back().x1 + fh * 0.3f) labels.pop_back();
                    if (labels.empty() || tx - lw * 0.5f >= labels.back().x1 + fh * 0.3f)
                        labels.push_back({tx - lw * 0.5f, tx + lw * 0.5f, std::move(s)});
                }
                if (!e.unlabelled)
                    for (const Label& l : labels) dl->AddText(ImVec2(l.x0, p.y + fh + 5), pal.text, l.text.c_str());
                const ImVec2 caption_at = caption_below ? ImVec2(at.x, p.y + fh * 2.6f) : ImVec2(p.x + ramp_w + fh, p.y - fh * 0.5f);
                dl->AddText(nullptr, 0.f, caption_at, pal.text, e.text.c_str(), nullptr, caption_w);
            }
            const float caption_h = ImGui::CalcTextSize(e.text.c_str(), nullptr, false, caption_w).y;
            y += caption_below ? fh * 3.1f + caption_h + fh * 0.5f : std::max(fh * 3.3f, fh * 0.5f + caption_h + fh * 0.3f);
        }
    }
    if (x > 0) y += row_h;
    return y;
}

struct EmulationView::Frame {
    const EmulationViewData& d;
    const Trace& t;
    const TracedBuffer *A, *B, *C;
    GroupPhaseView v;
    bool heatmap, compact, no_input;
    ImVec2 origin, size;
    ViewTransform xf;
    ImDrawList* dl;
    float fh, lh, gap;
    MatrixPlacement pa, pb, pc;
    bool show_locals = false, races = false;
    float local_w = 0;
    ImVec2 locals_at{};  // top-left of the local arrays' column, before zoom and pan
    Legend legend;
    float legend_h = 0;
    bool short_legend = false;
    float content_right = 0;  // right edge of the matrices and local arrays, before zoom and pan
    float right_limit = 0;    // what is right of it belongs to the side legend
    bool corner_locals = false;  // the local arrays in the free corner above A, left of B
    bool pin_hover = false;      // --hover's cell honoured: not in compare's two views (both would show it)
    float locals_bottom = 0;     // where the local arrays' room ends, before zoom and pan
    // Cells left free past the matrices' edges for tiles that hang over them (the slides'
    // 3x3 example): K's past A's right and B's bottom, M's below A and C, N's right of B and C.
    int pad_k = 0, pad_m = 0, pad_n = 0;
    float matrices_bottom = 0;  // below A and C (with their pads), before zoom and pan
    EmulationViewFlags flags = 0;
    // The side legend's pieces as they will be painted (filling the window).
    struct Piece {
        Legend entries;
        ImVec2 at{};
        float w = 0, h = 0;
        bool short_texts = false;
        bool outside = false;  // in the area given from outside this window (below the lesson strip)
    };
    std::vector<Piece> side;
};

EmulationViewResult EmulationView::draw(const EmulationViewData& d, ImVec2 origin, ImVec2 size, EmulationViewFlags flags,
                                        const ViewTransform& xf) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Palette& pal = theme().pal;
    placements_.clear();
    if (!d.trace || !d.roles) {
        dl->AddText(ImVec2(origin.x + 20, origin.y + 20), pal.faint_text, d.empty_text.c_str());
        return {};
    }
    const Trace& t = *d.trace;
    Frame f{d, t, t.find_buffer(d.roles->a), t.find_buffer(d.roles->b), t.find_buffer(d.roles->c), {},
            (flags & EmulationViewFlags_Heatmap) != 0, (flags & EmulationViewFlags_Compact) != 0,
            (flags & EmulationViewFlags_NoInput) != 0, origin, size, xf, dl, ImGui::GetFontSize(), 0, 0, {}, {}, {}};
    if (!f.A || !f.B || !f.C) {
        dl->AddText(ImVec2(origin.x + 20, origin.y + 20), pal.faint_text,
                    "This kernel has no A, B and C matrices to draw (a custom kernel names them with C=A*B).");
        return {};
    }
    f.v = group_phase_view(t, *d.roles, d.group, d.interval, d.progress);
    tile_room(f);
    // The presenter's one view is compact too (its legend at the side): --hover works there.
    f.pin_hover = !f.compact || (flags & EmulationViewFlags_SideLegend);
    f.lh = f.fh * 1.5f;
    f.gap = std::max(12.f, f.fh);
    f.races = has_race_marks(t);
    f.show_locals = !f.heatmap && !f.v.locals.empty();
    f.corner_locals = f.show_locals && (flags & EmulationViewFlags_CornerLocals);
    if (f.corner_locals) f.gap = std::max(12.f, f.fh * 0.5f);  // two views side by side: the matrices want every pixel
    f.local_w = f.show_locals ? std::min(size.x * (f.compact ? 0.16f : 0.22f), 300.f * (theme().presenter ? 1.4f : 1.f)) : 0.f;
    if (!f.compact) {  // a sixth of the view at most: short texts, else none (the matrices come first)
        f.legend = legend_of(f);
        f.legend_h = lay_out_legend(f.legend, size.x - f.gap * 2) + f.fh * 0.5f;
        const float most = f.heatmap ? size.y / 3 : size.y / 6;  // the heatmap's scale is what makes its colours readable
        if (f.legend_h > most) {
            f.short_legend = true;
            f.legend_h = lay_out_legend(f.legend, size.x - f.gap * 2, nullptr, {}, true) + f.fh * 0.5f;
        }
        if (f.legend_h > most) {
            f.legend.clear();
            f.legend_h = 0;
        }
    }
    lay_out_matrices(f);
    legend_box_.reset();
    f.right_limit = origin.x + size.x;
    f.flags = flags;
    legend_layout_ = {};
    if (f.compact && (flags & EmulationViewFlags_SideLegend)) place_side_legend(f);  // may shrink the matrices
    placements_ = {f.pa, f.pb, f.pc};

    // zoomed matrices stay inside the view; the legend below them (or beside them) stays put
    dl->PushClipRect(origin, ImVec2(f.right_limit, origin.y + size.y - f.legend_h), true);
    paint_cells(f);
    paint_annotations(f);
    paint_cell_names(f);
    dl->PopClipRect();
    if (f.show_locals) paint_locals(f);
    if (!f.legend.empty())
        lay_out_legend(f.legend, size.x - f.gap * 2, dl, ImVec2(origin.x + f.gap, origin.y + size.y - f.legend_h + f.fh * 0.3f), f.short_legend);
    for (const Frame::Piece& p : f.side) {
        // an area given from outside (below the lesson strip) lies beyond this window's clip
        dl->PushClipRect(p.at, ImVec2(p.at.x + p.w, p.at.y + p.h), !p.outside);
        if (!p.outside && (xf.scale != 1.f || xf.offset.x != 0 || xf.offset.y != 0))  // zoomed matrices may run under it
            dl->AddRectFilled(p.at, ImVec2(p.at.x + p.w, p.at.y + p.h), ImGui::GetColorU32(ImGuiCol_WindowBg));
        lay_out_legend(p.entries, p.w, dl, p.at, p.short_texts);
        dl->PopClipRect();
    }
    return handle_hover(f);
}

Legend EmulationView::legend_of(const Frame& f) {
    const Palette& pal = theme().pal;
    using K = LegendEntry::Kind;
    if (f.heatmap) {
        const ReuseLine ra = reuse_line(f.t, f.d.roles->a, "A"), rb = reuse_line(f.t, f.d.roles->b, "B");
        // Short enough for one line each in the column below a 720p lesson strip (with the
        // answer and the scale above them, a two-line pair pushed N's off the window).
        char a_short[64], b_short[64];
        auto short_line = [](char* out, size_t n, const char* role, const ReuseLine& r) {
            if (r.min_loads == r.max_loads) std::snprintf(out, n, "%s: %u times each", role, r.min_loads);
            else std::snprintf(out, n, "%s: %u..%u times each", role, r.min_loads, r.max_loads);
        };
        short_line(a_short, sizeof a_short, "M (A)", ra);
        short_line(b_short, sizeof b_short, "N (B)", rb);
        std::vector<uint32_t> marks = {ra.min_loads, ra.max_loads, rb.min_loads, rb.max_loads};
        marks.erase(std::remove(marks.begin(), marks.end(), 0u), marks.end());
        if (f.d.hidden(Figure::LoadsPerElement)) {  // the colours stay (flat or not); the counts wait for Reveal
            const std::string hidden = std::string("loads per element of M and N: ") + kHiddenUntilReveal;
            LegendEntry scale{K::HeatScale, 0, "global loads per element (traced), the same scale in every run; its counts: " +
                                                   std::string(kHiddenUntilReveal) + "; white: never loaded",
                              "loads per element", {}};
            scale.unlabelled = true;  // a colour read against the labelled ramp would give the count away
            return {scale, {K::Line, 0, hidden, hidden}};
        }
        return {{K::HeatScale, 0, "global loads per element (traced), the same scale in every run; marks: this run; white: never loaded",
                 "loads per element", marks},
                {K::Line, 0, reuse_sentence(ra, "M (A)"), a_short},
                {K::Line, 0, reuse_sentence(rb, "N (B)"), b_short}};
    }
    Legend l = {{K::Key, pal.a_strip, "strip of A read by the group", "A strip"}, {K::Key, pal.a_loaded, "A tile loaded now", "A now"},
                {K::Key, pal.b_loaded, "B tile loaded now", "B now"},              {K::Key, pal.c_block, "group's block of C", "C block"},
                {K::Key, pal.c_stored, "C stored now", "C now"}};
    if (f.races) l.push_back({K::Key, pal.race, "work-items in a race / divergence", "race"});
    if (!f.t.wrong_cells.empty() && !f.d.hidden(Figure::WrongCells)) l.push_back({K::Key, pal.wrong, "wrong cell of P (filled; against the CPU reference)", "wrong"});
    if (f.show_locals) {
        l.push_back({K::Key, pal.local_filled, "local: stored now", "local now"});
        l.push_back({K::Key, pal.local_held, "local: held from an earlier part", "local held"});
        l.push_back({K::Key, pal.local_read, "local: read now", "local read"});
    }
    if (f.d.frame && (f.pad_k || f.pad_m || f.pad_n))
        for (const TileInMatrix& tm : f.d.frame->tiles)
            if (!tm.outside.empty()) {
                l.push_back({K::Key, kPastEdge, "past the matrix's edge: 0 loaded instead", "past edge: 0"});
                break;
            }
    if (f.d.frame && (!f.d.frame->zero_writes.empty() || f.d.frame->item)) {
        l.push_back({K::Key, pal.hover, "ringed: the 0s written now; the work-item picked", "ringed: 0s, item"});
        const std::vector<std::string> full = zero_write_lines(*f.d.frame), brief = zero_write_lines_brief(*f.d.frame);
        for (size_t i = 0; i < full.size(); ++i) l.push_back({K::Line, 0, full[i], i < brief.size() ? brief[i] : full[i]});
    }
    return l;
}

// Room for tiles past the edges: a square work-group's tiles (the tiled rungs) may hang past
// every edge by up to a tile less one, when the frame finds its local arrays holding tiles of
// A or B at all. The sizes come from the launch, not the frame, so the layout stays put as
// the frames go by.
void EmulationView::tile_room(Frame& f) {
    const int64_t tile = int64_t(f.t.local[0]);
    bool tiles = false;
    if (f.d.frame && !f.heatmap)
        for (const TileInMatrix& tm : f.d.frame->tiles) tiles = tiles || tm.matrix == "A" || tm.matrix == "B";
    if (tiles && f.t.dims >= 2 && f.t.local[0] == f.t.local[1] && tile > 1 && tile <= 64) {
        const auto past = [&](int64_t n) { return int((tile - n % tile) % tile); };
        f.pad_k = past(f.A->cols), f.pad_m = past(f.C->rows), f.pad_n = past(f.C->cols);
    }
}

// B above C, A left of C, local arrays right of C; then the caller's zoom and pan.
void EmulationView::lay_out_matrices(Frame& f) {
    const float K = float(f.A->cols + f.pad_k), M = float(f.C->rows + f.pad_m), N = float(f.C->cols + f.pad_n),
                Kb = float(f.B->rows + f.pad_k);
    const float gap = f.gap, lh = f.lh;
    const bool column = f.show_locals && !f.corner_locals;     // the local arrays right of B and C
    const float gaps_x = column ? gap * 5 : gap * 3;  // left, A|C, right; locals: two before them, one after
    float s = std::min((f.size.x - (column ? f.local_w : 0.f) - gaps_x) / (K + N), (f.size.y - lh * 2 - gap - f.legend_h - 2) / (Kb + M));  // 2: the outline
    s = std::max(s, 0.25f);
    const float left = f.origin.x + gap, top = f.origin.y + lh;
    const float ctop = top + Kb * s + gap + lh;
    auto place = [&](const TracedBuffer& b, const char* role, ImVec2 p0, ImVec2 p1) {
        return MatrixPlacement{b.name, role, f.xf.apply(f.origin, p0), f.xf.apply(f.origin, p1), int(b.rows), int(b.cols)};
    };
    // Each matrix at its own size; the pads stay free right of and below it.
    const float k = float(f.A->cols), m = float(f.C->rows), n = float(f.C->cols), kb = float(f.B->rows);
    f.pb = place(*f.B, "B", ImVec2(left + K * s + gap, top), ImVec2(left + K * s + gap + n * s, top + kb * s));
    f.pa = place(*f.A, "A", ImVec2(left, ctop), ImVec2(left + k * s, ctop + m * s));
    f.pc = place(*f.C, "C", ImVec2(left + K * s + gap, ctop), ImVec2(left + K * s + gap + n * s, ctop + m * s));
    f.locals_at = ImVec2(left + K * s + gap + N * s + gap * 2, top);
    f.content_right = column ? f.locals_at.x + f.local_w : left + K * s + gap + N * s;
    f.matrices_bottom = ctop + M * s;
    f.locals_bottom = f.origin.y + f.size.y - f.legend_h;
    if (f.corner_locals) {  // above A, left of B: as wide as A, as tall as B
        f.locals_at = ImVec2(left, f.origin.y);
        f.local_w = std::max(10.f, K * s - gap);
        f.locals_bottom = top + Kb * s;
    }
}

float EmulationView::local_cell(const Frame& f, size_t i) {
    const LocalArrayView& la = f.v.locals[i];
    const float avail_h = std::max(20.f, (f.locals_bottom - f.locals_at.y) / float(f.v.locals.size()) - f.lh - f.gap);
    return std::min((f.local_w - f.gap) / float(la.cols), avail_h / float(la.rows));
}

float EmulationView::locals_end(const Frame& f) {
    float y = f.locals_at.y;
    for (size_t i = 0; i < f.v.locals.size(); ++i) y += std::max(1.f, local_cell(f, i)) * float(f.v.locals[i].rows) + f.lh + f.gap;
    return y;
}

namespace {

struct LegendArea {
    ImVec2 at;
    float w = 0, h = 0;
    bool outside = false;
};

// `legend` from entry `from` on, into `areas` in order: each area takes the entries that fit it
// (a key as wide as its text, a line wrapped to its width), the rest go on to the next. Keys
// use their short texts where `short_texts` or where a long one is wider than the area.
// Returns the index of the first entry that found no room (legend.size(): all placed).
template <class Piece>
size_t flow_legend(const Legend& legend, size_t from, const std::vector<LegendArea>& areas, bool short_texts, std::vector<Piece>& out) {
    const float fh = ImGui::GetFontSize();
    size_t i = from;
    for (const LegendArea& a : areas) {
        if (i == legend.size()) break;
        if (a.w < fh * 4 || a.h < fh) continue;
        Piece p;
        p.at = a.at, p.w = a.w, p.outside = a.outside;
        p.short_texts = short_texts;
        for (const LegendEntry& e : legend)  // one key per row at most: the short texts where a long one overflows
            if (e.kind == LegendEntry::Kind::Key && fh * 2 + ImGui::CalcTextSize(e.text.c_str()).x > a.w) p.short_texts = true;
        while (i < legend.size()) {
            LegendEntry e = legend[i];
            if (e.kind == LegendEntry::Kind::Key) {
                const std::string& t = p.short_texts && !e.short_text.empty() ? e.short_text : e.text;
                if (fh * 2 + ImGui::CalcTextSize(t.c_str()).x > a.w) break;  // wider than the area: the next one
            } else if (e.kind == LegendEntry::Kind::Line) {
                e.text = wrap_at_spaces(e.text, a.w);
                if (!e.short_text.empty()) e.short_text = wrap_at_spaces(e.short_text, a.w);
            }
            p.entries.push_back(std::move(e));
            const float h = lay_out_legend(p.entries, a.w, nullptr, {}, p.short_texts);
            if (h > a.h) {
                p.entries.pop_back();
                break;
            }
            p.h = h;
            ++i;
        }
        if (!p.entries.empty()) out.push_back(std::move(p));
    }
    return i;
}

}  // namespace

// Filling the window (a projector), the legend goes where there is room, whole (issue 33: at
// 720p after Reveal the answer took the room below the lesson strip and the last keys, the
// zero-writers' names among them, were dropped). In order: the area given from outside
// (below the lesson strip) or the column the matrices leave free on the right; the column
// right of C below the local arrays; the band below the matrices. The part in words goes
// first when room is short (the presenter bar says where we are too); then, rather than lose
// an entry, the matrices shrink to widen the band below them.
void EmulationView::place_side_legend(Frame& f) {
    Legend legend = legend_of(f);
    legend_layout_.entries = legend.size();
    const bool sentence = !f.heatmap && f.v.has_detail;
    if (sentence) legend.insert(legend.begin(), {LegendEntry::Kind::Line, 0, phase_sentence(f.v, f.t.dims, f.d.hidden), {}, {}});
    const float bottom = f.origin.y + f.size.y;
    auto areas = [&](bool all) {
        std::vector<LegendArea> out;
        float right = f.origin.x + f.size.x - f.gap * 0.5f;  // the in-window areas end here
        if (side_area_) {
            const auto& a = *side_area_;
            out.push_back({ImVec2(a[0], a[1]), a[2] - a[0], a[3] - a[1], true});
        } else {
            const ImVec2 at(f.content_right + f.gap * 1.5f, f.origin.y + f.lh * 0.5f);
            const float w = f.origin.x + f.size.x - at.x - f.gap;
            if (w >= f.fh * 8) {
                out.push_back({at, w, bottom - at.y, false});
                right = at.x - f.gap * 0.5f;
            }
        }
        if (!all) return out;
        // Right of B and C (and of their pads), below the local arrays, down to C's bottom.
        const float cx = f.pc.p0.x + (f.pc.p1.x - f.pc.p0.x) * float(f.C->cols + f.pad_n) / float(std::max<int64_t>(1, f.C->cols));
        const float unzoomed_cx = f.origin.x + (cx - f.origin.x - f.xf.offset.x) / std::max(1e-3f, f.xf.scale);
        const float x0 = unzoomed_cx + f.gap, y0 = (f.show_locals && !f.corner_locals ? locals_end(f) : f.origin.y + f.lh * 0.5f);
        if (right - x0 >= f.fh * 4 && f.matrices_bottom - y0 >= f.fh) out.push_back({ImVec2(x0, y0), right - x0, f.matrices_bottom - y0, false});
        const float by = f.matrices_bottom + f.fh * 0.25f, bx = f.origin.x + f.gap;
        if (bottom - by >= f.fh) out.push_back({ImVec2(bx, by), right - bx, bottom - by, false});
        return out;
    };
    auto place = [&](size_t from, bool all, bool short_texts) {
        f.side.clear();
        return flow_legend(legend, from, areas(all), short_texts, f.side);
    };
    const size_t first = sentence ? 1 : 0;
    size_t from = 0, placed = place(0, false, false);  // one piece, long texts where they fit
    if (placed < legend.size()) placed = place(0, false, true);
    if (placed < legend.size() && sentence) placed = place(from = first, false, true);
    if (placed < legend.size()) placed = place(from = first, true, true);
    if (placed < legend.size()) {
        // Rather than lose an entry, a band below the matrices as wide as the view: the matrices
        // shrink by the least that makes the rest fit (found by halving). They shrink no
        // further than keeps the corner above A as wide as the presenter bar needs (its
        // controls would run over B), nor past 0.6 of the view.
        const float corner0 = f.pb.p0.x - f.origin.x;
        auto corner_kept = [&] { return f.pb.p0.x - f.origin.x >= std::min(corner0, f.fh * 9.5f) - 0.5f; };
        auto fits_at = [&](float h) {
            f.legend_h = h;
            lay_out_matrices(f);
            return corner_kept() && place(first, true, true) == legend.size();
        };
        float most = f.size.y * 0.6f;
        {
            float lo = 0, hi = most;
            f.legend_h = hi;
            lay_out_matrices(f);
            if (!corner_kept()) {
                for (int i = 0; i < 8; ++i) {
                    f.legend_h = (lo + hi) * 0.5f;
                    lay_out_matrices(f);
                    (corner_kept() ? lo : hi) = f.legend_h;
                }
                most = lo;
            }
        }
        float lo = 0, hi = most;
        if (fits_at(hi))
            for (int i = 0; i < 8; ++i) {
                const float mid = (lo + hi) * 0.5f;
                (fits_at(mid) ? hi : lo) = mid;
            }
        f.legend_h = hi;
        lay_out_matrices(f);
        placed = place(first, true, true);
        while (placed < legend.size() && !legend.empty()) {  // a window too small for it all: the last lines go first
            legend.pop_back();
            placed = place(first, true, true);
        }
        legend_layout_.dropped = legend_layout_.entries + first - legend.size();
    }
    legend_layout_.phase_sentence = sentence && from == 0 && placed > 0;
    if (!side_area_ && !f.side.empty() && f.side.front().at.x > f.content_right) f.right_limit = f.side.front().at.x - f.gap * 0.5f;
    for (const Frame::Piece& p : f.side) {
        LegendPiece lp{{p.at.x, p.at.y, p.at.x + p.w, p.at.y + p.h}, {}};
        for (const LegendEntry& e : p.entries) lp.texts.push_back(p.short_texts && !e.short_text.empty() ? e.short_text : e.text);
        legend_layout_.pieces.push_back(std::move(lp));
    }
    if (!f.side.empty()) legend_box_ = legend_layout_.pieces.front().box;
}

// Cell colours, recomputed only when what they show changes.
void EmulationView::paint_cells(const Frame& f) {
    const Palette& pal = theme().pal;
    const GroupPhaseView& v = f.v;
    char key[256];
    std::snprintf(key, sizeof key, "%p|%llu|%d|%u,%u,%u|%d|%d", (const void*)&f.t, (unsigned long long)f.d.version, int(f.heatmap),
                  v.group[0], v.group[1], v.group[2], v.interval, int(theme().presenter));
    if (key != cache_key_) {
        cache_key_ = key;
        auto paint = [&](Grid& g, const TracedBuffer& b, const std::vector<Rect>& strip, const std::vector<Rect>& now, ImU32 strip_c,
                         ImU32 now_c, bool heat_counts) {
            const int rows = int(b.rows), cols = int(b.cols);
            g.rgba.assign(size_t(rows) * cols, pal.cell_empty);
            if (heat_counts && !b.load_counts.empty()) {
                for (int i = 0; i < rows; ++i)
                    for (int j = 0; j < cols; ++j) g.rgba[size_t(i) * cols + j] = heat_colour(b.loads_at(i, j));
            } else {
                for (const Rect& r : strip) fill(g.rgba, cols, r, strip_c);
                for (const Rect& r : now) fill(g.rgba, cols, r, now_c);
            }
            g.texture.upload(rows, cols, g.rgba, next_version());
        };
        paint(a_, *f.A, v.a_strip, v.a_loaded, pal.a_strip, pal.a_loaded, f.heatmap);
        paint(b_, *f.B, v.b_strip, v.b_loaded, pal.b_strip, pal.b_loaded, f.heatmap);
        if (f.heatmap) paint(c_, *f.C, {}, {}, 0, 0, false);
        else paint(c_, *f.C, v.c_block, v.c_stored, pal.c_block, pal.c_stored, false);
    }
    const float tile = float(f.t.tile);
    draw_matrix(f.dl, a_.texture, f.pa, tile);
    draw_matrix(f.dl, b_.texture, f.pb, tile);
    draw_matrix(f.dl, c_.texture, f.pc, tile);
}

// Every cell of P whose value differs from the CPU reference: filled red (palette "wrong"),
// a one-pixel margin left for the grid where cells are large.
void EmulationView::paint_wrong_cells(const Frame& f) {
    if (f.t.wrong_cells.empty() || f.C->rows <= 0 || f.C->cols <= 0 || f.d.hidden(Figure::WrongCells)) return;
    const float cw = (f.pc.p1.x - f.pc.p0.x) / float(f.C->cols), ch = (f.pc.p1.y - f.pc.p0.y) / float(f.C->rows);
    const float inset = std::min(cw, ch) > 6.f ? 1.f : 0.f;
    for (const auto& cell : f.t.wrong_cells) {
        const float x = f.pc.p0.x + float(cell[1]) * cw, y = f.pc.p0.y + float(cell[0]) * ch;
        f.dl->AddRectFilled(ImVec2(x + inset, y + inset), ImVec2(x + cw - inset, y + ch - inset), theme().pal.wrong);
    }
}

// Names, the phase in words, outlines of strips and tiles, cells a race corrupts.
void EmulationView::paint_annotations(const Frame& f) {
    const Palette& pal = theme().pal;
    const GroupPhaseView& v = f.v;
    ImDrawList* dl = f.dl;
    const float line = theme().line;
    ImGui::PushFont(theme().big);
    auto name = [&](const MatrixPlacement& m, const char* n, const char* letter, ImU32 colour) {  // as much as fits above it
        const float room = (m.p1.x - m.p0.x) + f.gap * 0.8f;
        const std::string full = std::string(n) + " " + std::to_string(m.rows) + "x" + std::to_string(m.cols);
        const char* text = ImGui::CalcTextSize(full.c_str()).x <= room ? full.c_str() : ImGui::CalcTextSize(n).x <= room ? n : letter;
        dl->AddText(ImVec2(m.p0.x, m.p0.y - f.lh), colour, text);
    };
    name(f.pa, "M (A)", "M", pal.a_loaded);
    name(f.pb, "N (B)", "N", pal.b_loaded);
    name(f.pc, "P (C)", "P", pal.c_stored);
    ImGui::PopFont();
    if (!f.heatmap && v.has_detail && !f.compact) {  // in the free corner above A, only where it fits
        const std::string text = phase_sentence(v, f.t.dims, f.d.hidden);
        const float wrap = f.pb.p0.x - f.pa.p0.x - f.gap, room = f.pa.p0.y - f.lh - (f.origin.y + f.lh);
        const ImVec2 need = ImGui::CalcTextSize(text.c_str());  // unwrapped: a range broken over two lines misleads
        float used = 0;
        if (need.x <= wrap && need.y <= room) {
            dl->AddText(ImVec2(f.pa.p0.x, f.pa.p0.y - f.lh - room), pal.text, text.c_str());
            used = need.y + f.fh * 0.5f;
        }
        // Below it, just above A: who wrote the zeros of this part, by name (the legend may
        // have no room for them at a projector's 720 lines; the rings alone name nobody).
        if (f.d.frame) {
            std::string zeros;
            for (const std::string& z : zero_write_lines(*f.d.frame)) zeros += (zeros.empty() ? "" : "\n") + wrap_at_spaces(z, wrap);
            const ImVec2 zn = ImGui::CalcTextSize(zeros.c_str());
            if (!zeros.empty() && zn.x <= wrap && zn.y <= room - used)
                dl->AddText(ImVec2(f.pa.p0.x, f.pa.p0.y - f.lh - zn.y - f.fh * 0.3f), pal.hover, zeros.c_str());
        }
    }
    if (!f.heatmap && v.has_detail) {
        for (const Rect& r : v.a_strip) outline(dl, f.pa, r, pal.outline, line);
        for (const Rect& r : v.b_strip) outline(dl, f.pb, r, pal.outline, line);
        for (const Rect& r : v.c_block) outline(dl, f.pc, r, pal.outline, line);
        for (const Rect& r : v.a_loaded) outline(dl, f.pa, r, pal.a_loaded, line);
        for (const Rect& r : v.b_loaded) outline(dl, f.pb, r, pal.b_loaded, line);
        // Square work-groups of the tiled rungs load square tiles: a tile that hangs past
        // the edge is drawn whole, dashed, as the slides draw it (its missing elements are
        // the zeros the work-items write into the local tile instead of loading).
        const int64_t tile = int64_t(f.t.local[0]);
        const bool padded = f.pad_k || f.pad_m || f.pad_n;
        const float cell = (f.pc.p1.x - f.pc.p0.x) / float(std::max(1, f.pc.cols));
        // With room laid out for them the whole tile is drawn (issue 33: the slides' picture);
        // without, as far as the gap between matrices allows.
        const float room = padded ? cell * float(tile) + f.gap * 0.5f : f.gap * 0.75f;
        if (padded && f.d.frame) {
            // The frame's tiles of A and B as the part ends: the cells past the edge grey, each
            // "0" (the zero its work-item writes instead of loading), the whole tile dashed.
            for (const TileInMatrix& tm : f.d.frame->tiles) {
                if ((tm.matrix != "A" && tm.matrix != "B") || tm.outside.empty()) continue;
                const MatrixPlacement& m = tm.matrix == "A" ? f.pa : f.pb;
                const float cw = (m.p1.x - m.p0.x) / float(std::max(1, m.cols));
                const LabelFit fit = label_fit(cw, "0");
                for (const auto& [r, c] : tm.outside) {
                    if (r > m.rows + 64 || c > m.cols + 64) continue;
                    const ImVec2 p = cell_pos(m, double(r), double(c));
                    dl->AddRectFilled(ImVec2(p.x + 1, p.y + 1), ImVec2(p.x + cw - 1, p.y + cw - 1), kPastEdge);
                    if (fit.px > 0 && f.d.progress >= 1.0) cell_label(dl, p, cw, "0", fit, IM_COL32(235, 235, 235, 255));  // once the part has written them
                }
                dashed_outline(dl, m, tm.rect, tm.matrix == "A" ? pal.a_loaded : pal.b_loaded, line, room);
            }
        }
        if (f.t.dims >= 2 && f.t.local[0] == f.t.local[1] && tile > 1) {
            if (!padded || !f.d.frame) {
                for (const Rect& r : v.a_loaded)
                    if (const auto full = tile_past_edge(r, f.pa.rows, f.pa.cols, tile, tile)) dashed_outline(dl, f.pa, *full, pal.a_loaded, line, room);
                for (const Rect& r : v.b_loaded)
                    if (const auto full = tile_past_edge(r, f.pb.rows, f.pb.cols, tile, tile)) dashed_outline(dl, f.pb, *full, pal.b_loaded, line, room);
            }
            for (const Rect& r : v.c_block)
                if (const auto full = tile_past_edge(r, f.pc.rows, f.pc.cols, tile, tile)) dashed_outline(dl, f.pc, *full, pal.outline, line, room);
        }
        // The work-item picked (a lesson step's, or a click's): its cell of C ringed, past C's
        // edge too for one that computes nothing (the slides' Thread(1,0) of Block(1,1), P3,2).
        if (f.d.frame && f.d.frame->item && f.d.frame->item->assigned) {
            const ElementRef& e = *f.d.frame->item->assigned;
            if (e.row >= 0 && e.col >= 0 && e.row < f.pc.rows + f.pad_m + 1 && e.col < f.pc.cols + f.pad_n + 1) {
                const ImVec2 p = cell_pos(f.pc, double(e.row), double(e.col));
                dl->AddRect(p, ImVec2(p.x + cell, p.y + cell), pal.hover, 0.f, 0, std::clamp(cell * 0.1f, 1.f, line * 3));
            }
        }
        // ... and the elements of M and N it loads and of P it stores in the part on show.
        if (f.d.frame)
            for (const ItemCell& ic : item_cells(*f.d.frame)) {
                const MatrixPlacement* m = ic.array == "A" ? &f.pa : ic.array == "B" ? &f.pb : ic.array == "C" ? &f.pc : nullptr;
                if (!m || ic.row < 0 || ic.col < 0 || ic.row >= m->rows || ic.col >= m->cols) continue;
                const float cw = (m->p1.x - m->p0.x) / float(std::max(1, m->cols));
                item_ring(dl, cell_pos(*m, double(ic.row), double(ic.col)), cw, pal.hover);
            }
    }
    int marked = 0;  // ladder convention: global (x,y) = (col,row)
    for (const Diagnostic& d : f.t.diagnostics) {
        if (d.kind != DiagnosticKind::Race && d.kind != DiagnosticKind::Divergence) continue;
        for (const WorkItemId& w : d.work_items) {
            if (marked++ > 256) break;
            const int64_t row = f.t.dims >= 2 ? w[1] : w[0], col = f.t.dims >= 2 ? w[0] : 0;
            if (row >= f.C->rows || col >= f.C->cols) continue;
            outline(dl, f.pc, Rect{row, col, row, f.t.dims >= 2 ? col : f.C->cols - 1}, pal.race, line);
        }
    }
    paint_wrong_cells(f);
    if (f.heatmap && f.t.partial)
        dl->AddText(ImVec2(f.pc.p0.x, f.pc.p1.y + 4), pal.race, "The heatmap is drawn when the launch ends (the emulator is still tracing).");
    else if (!v.has_detail && !f.heatmap) {
        const std::string msg =
            f.t.partial ? "Group " + group_text(f.d.group, f.t.dims) + " is not traced yet: the launch goes on (" +
                              std::to_string(f.t.group_totals.size()) + " of " + std::to_string(f.t.total_groups()) +
                              " work-groups done)"
                        : "Group " + group_text(f.d.group, f.t.dims) + " has no detail in this trace" +
                              (f.d.tracing ? ": tracing it now..." : ": click it in C to trace it.");
        dl->AddText(ImVec2(f.pc.p0.x, f.pc.p1.y + 4), pal.race, msg.c_str());
    }
}

// Element names on the cells of A, B and C (M0,1 ... as on the slides) where a cell is
// large enough to read one, and, at an iteration of a use part, the cells of C whose sums
// grow outlined in the colour of the local cells they read.
void EmulationView::paint_cell_names(const Frame& f) const {
    if (f.heatmap) return;
    const char letters[3] = {'A', 'B', 'C'};
    const MatrixPlacement* places[3] = {&f.pa, &f.pb, &f.pc};
    const Grid* grids[3] = {&a_, &b_, &c_};
    for (int m = 0; m < 3; ++m) {
        const MatrixPlacement& p = *places[m];
        if (p.rows <= 0 || p.cols <= 0 || int64_t(p.rows) * p.cols > 64 * 64) continue;
        const float size = (p.p1.x - p.p0.x) / float(p.cols);
        const LabelFit px = label_fit(size, element_name(letters[m], p.rows - 1, p.cols - 1, f.d.naming));  // one size for the matrix
        if (px.px <= 0) continue;
        for (int r = 0; r < p.rows; ++r)
            for (int c = 0; c < p.cols; ++c) {
                const size_t at = size_t(r) * size_t(p.cols) + size_t(c);
                const ImU32 fill = at < grids[m]->rgba.size() ? grids[m]->rgba[at] : 0;
                cell_label(f.dl, cell_pos(p, double(r), double(c)), size, element_name(letters[m], r, c, f.d.naming), px, fill);
            }
    }
    if (!f.d.frame || !f.d.frame->iteration) return;
    if (const FrameArray* c = f.d.frame->find("C"))
        for (const FrameCell& cell : c->cells)
            if (cell.role == CellRole::Accumulates)
                outline(f.dl, f.pc, Rect{cell.row, cell.col, cell.row, cell.col}, theme().pal.local_read, theme().line * 2);
}

// Local arrays beside C, drawn with their declared rows x cols.
void EmulationView::paint_locals(const Frame& f) {
    const Palette& pal = theme().pal;
    const GroupPhaseView& v = f.v;
    const float lx = f.locals_at.x, top = f.locals_at.y, bottom = f.locals_bottom;
    float ly = top;  // the column right of B and C is free
    // Their own child window, so their own draw list: while work-items fill them only this
    // small region is repainted (gfx/damage_renderer), not the matrices.
    ImGui::PushID(this);
    const ImVec2 at = f.xf.apply(f.origin, ImVec2(lx - 2, ly - 2));
    ImGui::SetCursorScreenPos(at);
    const float room_w = f.corner_locals ? f.local_w + f.gap : f.origin.x + f.size.x - lx;
    ImGui::BeginChild("##locals", ImVec2(std::max(10.f, room_w * f.xf.scale), std::max(10.f, (bottom - ly + 2) * f.xf.scale)),
                      false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoInputs | ImGuiWindowFlags_NoBackground |
                          ImGuiWindowFlags_NoScrollWithMouse);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->PushClipRect(f.origin, ImVec2(f.right_limit, bottom), true);
    while (locals_.size() < v.locals.size()) locals_.push_back(std::make_unique<Grid>());
    for (size_t i = 0; i < v.locals.size(); ++i) {
        const LocalArrayView& la = v.locals[i];
        const float cs = std::max(1.f, local_cell(f, i) * f.xf.scale);
        const ImVec2 p0 = f.xf.apply(f.origin, ImVec2(lx, ly + f.lh));
        const MatrixPlacement pl{la.name, "local", p0, ImVec2(p0.x + cs * la.cols, p0.y + cs * la.rows), la.rows, la.cols};
        char buf[160];
        std::snprintf(buf, sizeof buf, "local %s (%dx%d): %llu stored now", la.name.c_str(), la.rows, la.cols, (unsigned long long)la.stored);
        const float text_room = f.corner_locals ? f.local_w : f.size.x + f.origin.x - pl.p0.x;
        if (f.compact || ImGui::CalcTextSize(buf).x > text_room)  // the name alone where the sentence does not fit
            std::snprintf(buf, sizeof buf, "%s %dx%d", la.name.c_str(), la.rows, la.cols);
        if (ImGui::CalcTextSize(buf).x > text_room) std::snprintf(buf, sizeof buf, "%s", la.name.c_str());
        dl->AddText(ImVec2(pl.p0.x, pl.p0.y - f.lh), pal.text, buf);
        Grid& g = *locals_[i];
        std::vector<uint32_t> rgba(la.writer.size(), pal.local_empty);
        for (size_t w = 0; w < la.writer.size(); ++w) {
            if (la.writer[w] >= 0) rgba[w] = la.fresh[w] ? pal.local_filled : pal.local_held;
            if (la.read[w]) rgba[w] = pal.local_read;
        }
        // Once the part is complete, the frame says each cell's role (at one iteration of a use
        // part: only the cells read then) and which element it holds.
        const FrameArray* fa = f.d.frame && f.d.progress >= 1.0 ? f.d.frame->find(la.name) : nullptr;
        if (fa && fa->rows == la.rows && fa->cols == la.cols) {
            std::fill(rgba.begin(), rgba.end(), pal.local_empty);
            for (const FrameCell& cell : fa->cells) {
                const size_t w = size_t(cell.row) * size_t(la.cols) + size_t(cell.col);
                if (w >= rgba.size()) continue;
                rgba[w] = cell.role == CellRole::Read     ? pal.local_read
                          : cell.role == CellRole::Stored ? pal.local_filled
                                                          : pal.local_held;
            }
        }
        if (rgba != g.rgba || g.texture.rows() != la.rows || g.texture.cols() != la.cols) {  // upload only what changed
            g.rgba = std::move(rgba);
            g.texture.upload(la.rows, la.cols, g.rgba, next_version());
        }
        draw_matrix(dl, g.texture, pl, 0);
        if (fa) {  // what each cell holds: "M0,2", or 0 where the kernel wrote a zero
            std::string widest;
            for (const FrameCell& cell : fa->cells) if (cell.label.size() > widest.size()) widest = cell.label;
            const LabelFit px = label_fit(cs, widest);
            for (const FrameCell& cell : fa->cells)
                if (!cell.label.empty() && cell.row < la.rows && cell.col < la.cols)
                    cell_label(dl, cell_pos(pl, double(cell.row), double(cell.col)), cs, cell.label, px,
                               g.rgba[size_t(cell.row) * size_t(la.cols) + size_t(cell.col)]);
            // The zeros written in this part, ringed: their work-items need the slides' "special treatment".
            for (const ZeroWrite& z : f.d.frame->zero_writes)
                if (z.cell.array == la.name && z.cell.row < la.rows && z.cell.col < la.cols) {
                    const ImVec2 p = cell_pos(pl, double(z.cell.row), double(z.cell.col));
                    dl->AddRect(ImVec2(p.x + 1, p.y + 1), ImVec2(p.x + cs - 1, p.y + cs - 1), pal.hover, 0.f, 0,
                                std::clamp(cs * 0.08f, 1.f, theme().line * 2.5f));  // small cells keep their fill and label
                }
            // The picked work-item's cells: what it stores here, or reads at this iteration.
            for (const ItemCell& ic : item_cells(*f.d.frame))
                if (ic.array == la.name && ic.row < la.rows && ic.col < la.cols)
                    item_ring(dl, cell_pos(pl, double(ic.row), double(ic.col)), cs, pal.hover);
        }
        placements_.push_back(pl);
        ly += cs / f.xf.scale * float(la.rows) + f.lh + f.gap;
    }
    dl->PopClipRect();
    ImGui::EndChild();
    ImGui::PopID();
}

// Hover tooltips on A, B and C; a click on C names the group computing that cell.
EmulationViewResult EmulationView::handle_hover(const Frame& f) {
    EmulationViewResult out;
    const Palette& pal = theme().pal;
    const bool pinned = f.d.pinned_hover.has_value() && f.pin_hover;
    if (!pinned && (f.no_input || !ImGui::IsWindowHovered())) return out;
    ImVec2 mouse = ImGui::GetMousePos();
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float pad = ImGui::GetStyle().WindowPadding.x;
    // Lines wrap inside the tooltip so that it fits the room on its side of the cell.
    float wrap = ImGui::GetFontSize() * 34;
    if (pinned) {
        mouse = cell_pos(f.pc, double(f.d.pinned_hover->first) + 0.5, double(f.d.pinned_hover->second) + 0.5);
        const bool right_half = mouse.x > display.x * 0.5f;  // keep the tooltip on screen
        const float room = right_half ? mouse.x - 16 - 4 : display.x - mouse.x - 16 - 4;
        wrap = std::max(ImGui::GetFontSize() * 8, std::min(wrap, room - 2 * pad));
        const bool lower_half = mouse.y > display.y * 0.5f;  // above the cell there, else it runs off the bottom
        ImGui::SetNextWindowPos(ImVec2(right_half ? mouse.x - 16 : mouse.x + 16, lower_half ? mouse.y - 16 : mouse.y + 16), 0,
                                ImVec2(right_half ? 1.f : 0.f, lower_half ? 1.f : 0.f));
    } else {
        wrap = std::min(wrap, display.x - 2 * pad - 8);
    }
    const float line = theme().line;
    int64_t row = 0, col = 0;
    if (hit(f.pc, mouse, row, col)) {
        out.hovered = HoveredCell{"C", f.pc.name, row, col};
        outline(f.dl, f.pa, Rect{row, 0, row, f.pa.cols - 1}, pal.hover, line);
        outline(f.dl, f.pb, Rect{0, col, f.pb.rows - 1, col}, pal.hover, line);
        outline(f.dl, f.pc, Rect{row, col, row, col}, pal.hover, line);
        const auto info = cell_info(f.t, *f.d.roles, row, col);
        if (!info) return out;
        const CellOwner& o = info->owner;
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(wrap);
        ImGui::Text("P(%lld, %lld) = row %lld of M . column %lld of N", (long long)row, (long long)col, (long long)row, (long long)col);
        ImGui::Text("work-group %s, work-item local (%u,%u) global (%u,%u)", group_text(o.group, f.t.dims).c_str(), o.local[0],
                    o.local[1], o.global[0], o.global[1]);
        if (info->has_detail)
            ImGui::Text("its reads (traced): %llu from global, %llu from local memory (it needs 2K = %llu operands)",
                        (unsigned long long)info->global_loads, (unsigned long long)info->local_loads, (unsigned long long)info->operands);
        else
            ImGui::TextDisabled("its reads: no detail for this group in the trace (click to trace it)");
        if (f.d.hidden(Figure::LoadsPerElement)) {
            ImGui::Text("how often each element of M and N is fetched: %s", kHiddenUntilReveal);
        } else {
            ImGui::Text("row %lld of M: each element fetched from global %.1f times (mean, traced)", (long long)row, info->a_row_mean_loads);
            ImGui::Text("column %lld of N: each element fetched from global %.1f times (mean, traced)", (long long)col, info->b_col_mean_loads);
        }
        // The cursor's frame carries every sum so far: read, not rebuilt per drawn frame (issue 32).
        if (f.d.request && f.d.frame && info->has_detail && o.group == f.d.request->group)
            for (const CellSum& sum : f.d.frame->sums)
                if (sum.row == row && sum.col == col) ImGui::Text("%s so far (traced): %s", sum.label.c_str(), sum.text.c_str());
        ImGui::TextDisabled("click: this work-group, and this work-item's story");
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
        if (!pinned && ImGui::IsMouseClicked(0)) {
            out.clicked_group = o.group;
            if (o.from_trace) out.clicked_item = o.local;
        }
    } else if (hit(f.pa, mouse, row, col) || hit(f.pb, mouse, row, col)) {
        const bool is_a = hit(f.pa, mouse, row, col);
        const MatrixPlacement& m = is_a ? f.pa : f.pb;
        out.hovered = HoveredCell{m.role, m.name, row, col};
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(wrap);
        ImGui::Text("%s(%lld, %lld): loaded from global memory %u times over the whole run (traced)", is_a ? "M" : "N", (long long)row,
                    (long long)col, (is_a ? f.A : f.B)->loads_at(row, col));
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
    return out;
}

}  // namespace tilescope::ui
