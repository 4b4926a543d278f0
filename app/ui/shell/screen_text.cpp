#include "ui/shell/screen_text.h"

#include <imgui.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <unordered_map>

namespace tilescope::ui {
namespace {

struct GlyphInfo {
    unsigned codepoint;
    float x0, y0, x1, advance;  // in the font's own pixels
    float font_size;
};

uint64_t uv_key(ImVec2 uv) {
    uint32_t u = 0, v = 0;
    std::memcpy(&u, &uv.x, 4);
    std::memcpy(&v, &uv.y, 4);
    return (uint64_t(u) << 32) | v;
}

// Every visible glyph of every font, by the texture coordinates of its top-left corner.
std::unordered_map<uint64_t, GlyphInfo> glyphs_by_uv() {
    std::unordered_map<uint64_t, GlyphInfo> map;
    const ImFontAtlas* atlas = ImGui::GetIO().Fonts;
    for (const ImFont* font : atlas->Fonts)
        for (const ImFontGlyph& g : font->Glyphs)
            if (g.Visible) map.emplace(uv_key(ImVec2(g.U0, g.V0)), GlyphInfo{g.Codepoint, g.X0, g.Y0, g.X1, g.AdvanceX, font->FontSize});
    return map;
}

void append_utf8(std::string& out, unsigned c) {
    if (c < 0x80) out += char(c);
    else if (c < 0x800) {
        out += char(0xC0 | (c >> 6));
        out += char(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        out += char(0xE0 | (c >> 12));
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    } else {
        out += char(0xF0 | (c >> 18));
        out += char(0x80 | ((c >> 12) & 0x3F));
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    }
}

// Joins glyphs into words and lines from their positions: the pen where the last glyph
// left it, the baseline it sat on.
class TextJoiner {
public:
    void add(const GlyphInfo& g, ImVec2 q0, ImVec2 q1) {
        const float scale = g.x1 > g.x0 ? (q1.x - q0.x) / (g.x1 - g.x0) : 1.f;
        const float px = g.font_size * scale;
        const float pen_x = q0.x - g.x0 * scale, top = q0.y - g.y0 * scale;
        if (started_) {
            const bool same_line = std::fabs(top - top_) < 0.3f * px && pen_x > pen_end_ - 0.25f * px;
            const float gap = pen_x - pen_end_;
            if (!same_line || gap > 4.f * px) out_ += '\n';
            else if (gap > 0.15f * px) out_ += ' ';
        }
        append_utf8(out_, g.codepoint);
        started_ = true;
        top_ = top;
        pen_end_ = pen_x + g.advance * scale;
    }
    std::string take() {
        if (started_) out_ += '\n';
        return std::move(out_);
    }

private:
    std::string out_;
    bool started_ = false;
    float top_ = 0, pen_end_ = 0;
};

bool overlaps(ImVec2 a0, ImVec2 a1, const ImVec4& clip) {
    return a1.x > clip.x && a0.x < clip.z && a1.y > clip.y && a0.y < clip.w;
}

}  // namespace

std::string screen_text(const ImDrawData& dd) {
    static const auto map = glyphs_by_uv();  // the atlas is built once, before the first frame
    const ImTextureID font_texture = ImGui::GetIO().Fonts->TexID;
    TextJoiner joiner;
    for (int l = 0; l < dd.CmdListsCount; ++l) {
        const ImDrawList* list = dd.CmdLists[l];
        for (const ImDrawCmd& cmd : list->CmdBuffer) {
            if (cmd.UserCallback || cmd.TextureId != font_texture) continue;
            const ImDrawIdx* idx = list->IdxBuffer.Data + cmd.IdxOffset;
            const ImDrawVert* vtx = list->VtxBuffer.Data + cmd.VtxOffset;
            // a glyph is a quad: indices a, a+1, a+2, a, a+2, a+3 with the glyph's corner UVs
            for (unsigned k = 0; k + 6 <= cmd.ElemCount;) {
                const unsigned a = idx[k];
                const bool quad = idx[k + 1] == a + 1 && idx[k + 2] == a + 2 && idx[k + 3] == a && idx[k + 4] == a + 2 && idx[k + 5] == a + 3;
                if (quad)
                    if (auto it = map.find(uv_key(vtx[a].uv)); it != map.end()) {
                        const ImVec2 q0 = vtx[a].pos, q1 = vtx[a + 2].pos;
                        if (overlaps(q0, q1, cmd.ClipRect)) joiner.add(it->second, q0, q1);
                        k += 6;
                        continue;
                    }
                k += 3;
            }
        }
    }
    return joiner.take();
}

}  // namespace tilescope::ui
