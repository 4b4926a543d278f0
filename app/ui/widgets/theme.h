#pragma once
// Colours and sizes every panel draws with. The colours are the one palette
// (core/teach/palette.h, docs/gui.md "Colours and what they mean"): the normal one, and
// presenter mode's high-contrast one with larger fonts and thicker lines for a projector.
#include <imgui.h>

#include <cstdint>

namespace tilescope::ui {

struct Palette {
    ImU32 background, text, faint_text, grid_line, tile_line;
    ImU32 cell_empty;
    ImU32 a_strip, a_loaded;    // A ("M"): blue
    ImU32 b_strip, b_loaded;    // B ("N"): orange
    ImU32 c_block, c_stored;    // C ("P"): bluish green
    ImU32 local_empty, local_filled, local_held, local_read;
    ImU32 outline, hover, race, wrong;
    ImU32 global_bar, local_bar;
    ImU32 verdict_exact, verdict_close, verdict_off;
    ImU32 series[6];            // plot lines and bars
};

struct Theme {
    bool presenter = false;
    float line = 1.5f;          // outline thickness in pixels
    ImFont* font = nullptr;     // body text
    ImFont* big = nullptr;      // headings
    ImFont* mono = nullptr;     // source view
    Palette pal;
};

Theme& theme();

// Loads DejaVu fonts at both sizes (normal and presenter) into ImGui's atlas; falls back
// to ImGui's default font when the files are missing.
void load_fonts(float base_px);
// Switches palette, fonts and ImGui style between normal and presenter mode.
void apply_theme(bool presenter);
// Pushes the fonts of the current mode (call at the start of each frame, pop at end).
void push_fonts();
void pop_fonts();

// A colour ramp for heatmaps: t in [0,1] -> light yellow ... dark purple (viridis
// reversed, readable by colour-blind students; palette::heat).
ImU32 heat(float t);

// Keeps the next item on this line when `width` more pixels fit, else starts a new line,
// so a row of buttons wraps instead of running off a narrow window.
void same_line_if_fits(float width);
float button_width(const char* label);  // a button's width for `label` at the current font

}  // namespace tilescope::ui
