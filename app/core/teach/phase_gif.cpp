#include "core/teach/phase_gif.h"

#include "core/trace/phases.h"

#include <gif_lib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include <stb/stb_easy_font.h>  // header-only, static functions

#include "core/base/errors.h"

namespace tilescope {
namespace {

// The few colours a frame uses: painting palette indices keeps the GIF exact.
enum Colour : uint8_t { White, Grid, Strip, Loaded, Stored, Wrong, Ink, Outline, Count };
constexpr GifColorType kPalette[8] = {{255, 255, 255}, {214, 214, 214}, {219, 230, 245}, {59, 125, 216},
                                      {46, 158, 91},   {221, 34, 34},   {34, 34, 34},    {29, 79, 145}};

struct Canvas {
    int w = 0, h = 0;
    std::vector<uint8_t> px;
    void fill(int x0, int y0, int x1, int y1, uint8_t c) {  // [x0, x1) x [y0, y1)
        x0 = std::max(x0, 0), y0 = std::max(y0, 0), x1 = std::min(x1, w), y1 = std::min(y1, h);
        for (int y = y0; y < y1; ++y) std::fill(px.begin() + y * w + x0, px.begin() + y * w + std::max(x0, x1), c);
    }
    // stb_easy_font's quads, scaled by `scale`: plain text with no font file. A line too
    // wide for the canvas at `scale` is drawn at scale 1 (never cut).
    void text(int x, int y, const std::string& s, int scale = 2) {
        while (scale > 1 && x + stb_easy_font_width(const_cast<char*>(s.c_str())) * scale > w - 4) --scale;
        std::vector<char> buffer(s.size() * 64 * 40 + 64);  // at most ~40 quads per character
        const int quads = stb_easy_font_print(0, 0, const_cast<char*>(s.c_str()), nullptr, buffer.data(), int(buffer.size()));
        for (int q = 0; q < quads; ++q) {
            const float* v = reinterpret_cast<const float*>(buffer.data() + q * 64);
            const float x0 = v[0], y0 = v[1], x1 = v[8], y1 = v[9];  // vertices 0 and 2 (16 bytes each)
            fill(x + int(x0 * scale), y + int(y0 * scale), x + int(x1 * scale), y + int(y1 * scale), Ink);
        }
    }
};

struct Box {
    int x = 0, y = 0, rows = 0, cols = 0;
};

void paint_rects(Canvas& c, const Box& b, int cell, const std::vector<Rect>& rects, uint8_t colour) {
    for (const Rect& r : rects)
        c.fill(b.x + int(r.c0) * cell, b.y + int(r.r0) * cell, b.x + int(r.c1 + 1) * cell, b.y + int(r.r1 + 1) * cell, colour);
}

void paint_grid(Canvas& c, const Box& b, int cell) {
    const int x1 = b.x + b.cols * cell, y1 = b.y + b.rows * cell;
    if (cell >= 5) {
        for (int i = 0; i <= b.rows; ++i) c.fill(b.x, b.y + i * cell, x1, b.y + i * cell + 1, Grid);
        for (int j = 0; j <= b.cols; ++j) c.fill(b.x + j * cell, b.y, b.x + j * cell + 1, y1, Grid);
    }
    c.fill(b.x, b.y, x1 + 1, b.y + 1, Ink), c.fill(b.x, y1, x1 + 1, y1 + 1, Ink);
    c.fill(b.x, b.y, b.x + 1, y1 + 1, Ink), c.fill(x1, b.y, x1 + 1, y1 + 1, Ink);
}

std::string group_text(const GroupId& g) { return "(" + std::to_string(g[0]) + "," + std::to_string(g[1]) + ")"; }

}  // namespace

int write_phase_gif(const Trace& t, const MatrixRoles& roles, const GroupId& group, const std::string& path,
                    const PhaseGifOptions& options) {
    const int phases = interval_count(t, group);  // frames: one per part (barrier interval)
    if (phases == 0)
        throw InputError("--record: work-group " + group_text(group) + " has no phase detail in this trace; pick a group the trace kept (--group)");
    const int M = int(t.size.M), N = int(t.size.N), K = int(t.size.K);
    const int margin = 16, gap = 12, caption = 88;
    const PhasePlan plan = phase_plan(t, group);
    const int cell = std::max(1, std::min(24, (options.max_width - 2 * margin - gap) / std::max(1, K + N)));
    Canvas c;
    c.w = 2 * margin + gap + (K + N) * cell + 1;
    c.h = caption + margin + gap + (K + M) * cell + 1 + 24;
    c.w = std::max(c.w, 560);
    const Box a{margin, caption + K * cell + gap, M, K}, b{margin + K * cell + gap, caption, K, N},
              cbox{margin + K * cell + gap, caption + K * cell + gap, M, N};

    const std::string tmp = path + ".tmp-" + std::to_string(getpid());
    int err = 0;
    GifFileType* gif = EGifOpenFileName(tmp.c_str(), false, &err);
    if (!gif) throw InputError("--record '" + path + "': cannot write (" + GifErrorString(err) + ")");
    ColorMapObject* map = GifMakeMapObject(8, kPalette);
    bool ok = EGifPutScreenDesc(gif, c.w, c.h, 8, White, map) == GIF_OK;
    GifFreeMapObject(map);
    // Loop forever (the NETSCAPE2.0 application extension).
    const unsigned char loop[3] = {1, 0, 0};
    ok = ok && EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK &&
         EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0") == GIF_OK && EGifPutExtensionBlock(gif, 3, loop) == GIF_OK &&
         EGifPutExtensionTrailer(gif) == GIF_OK;
    for (int p = 0; p < phases && ok; ++p) {
        const GroupPhaseView v = group_phase_view(t, roles, group, p);
        c.px.assign(size_t(c.w) * c.h, White);
        paint_rects(c, a, cell, v.a_strip, Strip), paint_rects(c, b, cell, v.b_strip, Strip), paint_rects(c, cbox, cell, v.c_block, Strip);
        paint_rects(c, a, cell, v.a_loaded, Loaded), paint_rects(c, b, cell, v.b_loaded, Loaded);
        paint_rects(c, cbox, cell, v.c_stored, Stored);
        for (const auto& w : t.wrong_cells) paint_rects(c, cbox, cell, {{w[0], w[1], w[0], w[1]}}, Wrong);
        for (const Box& x : {a, b, cbox}) paint_grid(c, x, cell);
        const std::string end = v.end_line ? "ends at the barrier on line " + std::to_string(v.end_line) : "runs to the end";
        c.text(margin, 8, t.kernel + " " + t.size.label() + " TS " + std::to_string(t.tile) + ", work-group " + group_text(group));
        c.text(margin, 32, plan.phases > 0 ? "phase " + std::to_string(v.phase) + " of " + std::to_string(plan.phases) + ": " + v.part
                                           : std::string("no phases (no barrier)"));
        c.text(margin, 56, end + "; " + std::to_string(v.global.load_bytes / 4) + " floats from global, " +
                               std::to_string(v.local.load_bytes / 4) + " from local");
        c.text(a.x, a.y - 14, "M (A)", 1), c.text(b.x, b.y - 10, "N (B)", 1), c.text(cbox.x, cbox.y - 10, "P (C)", 1);
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
    std::error_code ec;
    if (ok) std::filesystem::rename(tmp, path, ec);
    if (!ok || ec) {
        std::remove(tmp.c_str());
        throw InputError("--record '" + path + "': cannot write the GIF");
    }
    return phases;
}

}  // namespace tilescope
