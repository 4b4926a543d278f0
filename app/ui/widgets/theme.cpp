#include "ui/widgets/theme.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace tilescope::ui {
namespace {

Theme g_theme;
ImFont* g_fonts[2][3] = {};  // [presenter][body, big, mono]

ImU32 rgb(int r, int g, int b, int a = 255) { return IM_COL32(r, g, b, a); }

Palette normal_palette() {
    Palette p{};
    p.background = rgb(250, 250, 250);
    p.text = rgb(20, 20, 20);
    p.faint_text = rgb(100, 100, 100);
    p.grid_line = rgb(0, 0, 0, 40);
    p.tile_line = rgb(0, 0, 0, 150);
    p.cell_empty = rgb(238, 238, 238);
    p.a_strip = rgb(190, 218, 240);
    p.a_loaded = rgb(0, 114, 178);      // Okabe-Ito blue
    p.b_strip = rgb(250, 222, 170);
    p.b_loaded = rgb(230, 159, 0);      // Okabe-Ito orange
    p.c_block = rgb(178, 230, 210);
    p.c_stored = rgb(0, 158, 115);      // Okabe-Ito bluish green
    p.local_empty = rgb(238, 238, 238);
    p.local_filled = rgb(86, 180, 233); // sky blue
    p.local_read = rgb(204, 121, 167);  // reddish purple
    p.outline = rgb(30, 30, 30);
    p.hover = rgb(213, 94, 0);          // vermillion
    p.race = rgb(213, 94, 0);
    p.global_bar = rgb(0, 114, 178);
    p.local_bar = rgb(230, 159, 0);
    const ImU32 s[6] = {rgb(0, 114, 178), rgb(230, 159, 0), rgb(0, 158, 115), rgb(204, 121, 167), rgb(86, 180, 233), rgb(213, 94, 0)};
    std::copy(s, s + 6, p.series);
    return p;
}

Palette presenter_palette() {
    Palette p = normal_palette();
    p.background = rgb(255, 255, 255);
    p.text = rgb(0, 0, 0);
    p.faint_text = rgb(50, 50, 50);
    p.grid_line = rgb(0, 0, 0, 70);
    p.tile_line = rgb(0, 0, 0, 220);
    p.cell_empty = rgb(245, 245, 245);
    p.a_strip = rgb(160, 200, 235);
    p.a_loaded = rgb(0, 80, 160);
    p.b_strip = rgb(250, 210, 140);
    p.b_loaded = rgb(200, 120, 0);
    p.c_block = rgb(150, 220, 195);
    p.c_stored = rgb(0, 120, 85);
    p.outline = rgb(0, 0, 0);
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
    g_theme.pal = presenter ? presenter_palette() : normal_palette();
    g_theme.line = presenter ? 3.f : 2.f;
    g_theme.font = g_fonts[presenter][0];
    g_theme.big = g_fonts[presenter][1];
    g_theme.mono = g_fonts[presenter][2];
    style_for(presenter);
}

void push_fonts() { ImGui::PushFont(g_theme.font); }
void pop_fonts() { ImGui::PopFont(); }

ImU32 heat(float t) {
    // viridis, reversed so "never loaded" is light and "loaded most" is dark
    static const float stops[6][3] = {{253, 231, 37}, {122, 209, 81}, {34, 168, 132}, {42, 120, 142}, {65, 68, 135}, {68, 1, 84}};
    t = std::clamp(t, 0.f, 1.f) * 5.f;
    const int i = std::min(4, int(t));
    const float f = t - float(i);
    auto mix = [&](int c) { return int(stops[i][c] + (stops[i + 1][c] - stops[i][c]) * f); };
    return IM_COL32(mix(0), mix(1), mix(2), 255);
}

}  // namespace tilescope::ui
