#include "ui/widgets/theme.h"

#include "core/teach/palette.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace tilescope::ui {
namespace {

Theme g_theme;
ImFont* g_fonts[2][3] = {};  // [presenter][body, big, mono]

ImU32 col(const palette::Rgb& c) { return IM_COL32(c.r, c.g, c.b, c.a); }

// The one palette (core/teach/palette.h) as ImGui colours.
Palette palette_of(const palette::Colours& c) {
    Palette p{};
    p.background = col(c.background), p.text = col(c.text), p.faint_text = col(c.faint_text);
    p.grid_line = col(c.grid_line), p.tile_line = col(c.tile_line), p.cell_empty = col(c.cell_empty);
    p.a_strip = col(c.a_strip), p.a_loaded = col(c.a_loaded), p.b_strip = col(c.b_strip), p.b_loaded = col(c.b_loaded);
    p.c_block = col(c.c_block), p.c_stored = col(c.c_stored);
    p.local_empty = col(c.local_empty), p.local_filled = col(c.local_filled), p.local_held = col(c.local_held);
    p.local_read = col(c.local_read);
    p.outline = col(c.outline), p.hover = col(c.hover), p.race = col(c.race), p.wrong = col(c.wrong);
    p.global_bar = col(c.global_bar), p.local_bar = col(c.local_bar);
    p.verdict_exact = col(c.verdict_exact), p.verdict_close = col(c.verdict_close), p.verdict_off = col(c.verdict_off);
    for (size_t i = 0; i < 6; ++i) p.series[i] = col(c.series[i]);
    return p;
}

void style_for(bool presenter) {
    ImGui::StyleColorsLight();
    ImGuiStyle& s = ImGui::GetStyle();
    s.WindowRounding = 0;
    s.FrameRounding = 3;
    s.WindowBorderSize = 1;
    s.FramePadding = presenter ? ImVec2(8, 5) : ImVec2(6, 3);
    s.ItemSpacing = presenter ? ImVec2(10, 7) : ImVec2(8, 5);
    s.Colors[ImGuiCol_WindowBg] = ImColor(g_theme.pal.background);
    // Tooltips opaque: over the matrices' fill colours a see-through one reads as noise (issue 33).
    s.Colors[ImGuiCol_PopupBg] = ImColor(g_theme.pal.background);
    s.Colors[ImGuiCol_PopupBg].w = 1.f;
    s.Colors[ImGuiCol_Text] = ImColor(g_theme.pal.text);
    if (presenter) {
        s.FrameBorderSize = 1;
        s.Colors[ImGuiCol_Border] = ImVec4(0, 0, 0, 0.6f);
    }
}

}  // namespace

Theme& theme() { return g_theme; }

void load_fonts(float base_px) {
    ImGuiIO& io = ImGui::GetIO();
    const char* dir = "/usr/share/fonts/truetype/dejavu/";
    const std::string sans = std::string(dir) + "DejaVuSans.ttf";
    const std::string bold = std::string(dir) + "DejaVuSans-Bold.ttf";
    const std::string mono = std::string(dir) + "DejaVuSansMono.ttf";
    const bool have = std::filesystem::exists(sans) && std::filesystem::exists(bold) && std::filesystem::exists(mono);
    // Latin-1 (·, ×) plus the arrows the hints and key help use
    static const ImWchar ranges[] = {0x0020, 0x00FF, 0x2190, 0x2193, 0};
    for (int p = 0; p < 2; ++p) {
        const float px = p ? std::max(28.f, base_px * 1.55f) : base_px;  // a projector: text at least 28 px high
        if (have) {
            g_fonts[p][0] = io.Fonts->AddFontFromFileTTF(sans.c_str(), px, nullptr, ranges);
            g_fonts[p][1] = io.Fonts->AddFontFromFileTTF(bold.c_str(), px * 1.25f, nullptr, ranges);
            g_fonts[p][2] = io.Fonts->AddFontFromFileTTF(mono.c_str(), px, nullptr, ranges);
        } else {
            ImFontConfig c;
            c.SizePixels = px;
            g_fonts[p][0] = g_fonts[p][1] = g_fonts[p][2] = io.Fonts->AddFontDefault(&c);
        }
    }
}

void apply_theme(bool presenter) {
    g_theme.presenter = presenter;
    g_theme.pal = palette_of(presenter ? palette::presenter() : palette::light());
    g_theme.line = presenter ? 3.f : 2.f;
    g_theme.font = g_fonts[presenter][0];
    g_theme.big = g_fonts[presenter][1];
    g_theme.mono = g_fonts[presenter][2];
    style_for(presenter);
}

void push_fonts() { ImGui::PushFont(g_theme.font); }
void pop_fonts() { ImGui::PopFont(); }

ImU32 heat(float t) { return col(palette::heat(t)); }

void same_line_if_fits(float width) {
    const float right = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width;
    if (right <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) ImGui::SameLine();
}

float button_width(const char* label) { return ImGui::CalcTextSize(label).x + ImGui::GetStyle().FramePadding.x * 2; }

}  // namespace tilescope::ui
