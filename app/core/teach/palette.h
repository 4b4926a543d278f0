#pragma once
// The one palette: every colour the GUI, the HTML hand-out and the phase GIF draw, each
// with its single meaning (docs/gui.md, "Colours and what they mean"). ui/widgets/theme.cpp
// turns it into ImGui colours, core/teach/phase_gif.cpp into the GIF's colour table and
// core/io/html_template.cpp into the hand-out's CSS variables and script colours.
//
// Chosen from the Okabe-Ito set and moved where a pair that appears together could not be
// told apart: tests/test_palette.cpp simulates deuteranopia and protanopia (Machado et al.
// 2009, severity 1, in linear RGB) and holds every pair of `must_differ()` to a CIEDE2000
// difference of at least kMinDeltaE in the normal and both simulated views.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tilescope::palette {

struct Rgb {
    uint8_t r = 0, g = 0, b = 0, a = 255;
    bool operator==(const Rgb& o) const { return r == o.r && g == o.g && b == o.b && a == o.a; }
    std::string hex() const;  // "#rrggbb" (alpha dropped)
};

// One palette (light or presenter). Fields named by meaning, not by hue.
struct Colours {
    Rgb background, text, faint_text;
    Rgb grid_line, tile_line;    // lines between cells / around tiles (translucent ink)
    Rgb cell_empty;              // a cell of A, B or C nothing touches now
    Rgb a_strip, a_loaded;       // A ("M"): the group's strip / the tile loaded now
    Rgb b_strip, b_loaded;       // B ("N"): the group's strip / the tile loaded now
    Rgb c_block, c_stored;       // C ("P"): the group's block / stored now
    Rgb local_empty;             // a local cell nothing holds yet
    Rgb local_filled;            // local: stored now
    Rgb local_held;              // local: holds a value stored in an earlier part
    Rgb local_read;              // local: read now (and the cells of C whose sums it feeds)
    Rgb outline;                 // outlines of the group's strips and block
    Rgb hover;                   // the hovered row of A, column of B, cell of C; the cursor
    Rgb race;                    // a problem: race / divergence outlines, error text
    Rgb wrong;                   // a wrong cell of C, filled (against the CPU reference)
    Rgb global_bar, local_bar;   // the timeline's bars: global / local traffic of a part
    Rgb verdict_exact, verdict_close, verdict_off;  // a lesson guess judged: exact / close / off (text)
    std::array<Rgb, 6> series;   // plot series (performance, caches): one per kernel, plots only
};

const Colours& light();
const Colours& presenter();

// The heat scale (global loads per element): t in [0,1], never loaded (0) light ... loaded
// most (1) dark; viridis reversed, the same in the GUI and the hand-out.
constexpr int kHeatStops = 6;
const std::array<Rgb, kHeatStops>& heat_stops();
Rgb heat(float t);

// Every field with its key (as the hand-out and docs name it) and its one meaning.
struct Entry {
    const char* key;
    Rgb Colours::*field;
    const char* meaning;
};
const std::vector<Entry>& entries();

// Pairs that appear together (one legend, one matrix, the timeline) and must be told apart.
struct Pair {
    const char* a;
    const char* b;
};
const std::vector<Pair>& must_differ();
Rgb by_key(const Colours& c, const std::string& key);  // keys of entries(), "heat_low", "heat_high"

constexpr double kMinDeltaE = 10.0;  // CIEDE2000, normal and simulated deuteranopia / protanopia

}  // namespace tilescope::palette
