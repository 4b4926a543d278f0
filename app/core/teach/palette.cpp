#include "core/teach/palette.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace tilescope::palette {
namespace {

constexpr Rgb rgb(int r, int g, int b, int a = 255) { return Rgb{uint8_t(r), uint8_t(g), uint8_t(b), uint8_t(a)}; }

Colours make_light() {
    Colours c;
    c.background = rgb(250, 250, 250);
    c.text = rgb(20, 20, 20);
    c.faint_text = rgb(100, 100, 100);
    c.grid_line = rgb(0, 0, 0, 40);
    c.tile_line = rgb(0, 0, 0, 150);
    c.cell_empty = rgb(242, 242, 242);
    c.a_strip = rgb(190, 218, 240);
    c.a_loaded = rgb(0, 114, 178);      // Okabe-Ito blue
    c.b_strip = rgb(250, 222, 170);
    c.b_loaded = rgb(230, 159, 0);      // Okabe-Ito orange
    c.c_block = rgb(146, 213, 185);
    c.c_stored = rgb(0, 158, 115);      // Okabe-Ito bluish green
    c.local_empty = rgb(242, 242, 242);
    c.local_filled = rgb(86, 180, 233); // Okabe-Ito sky blue
    c.local_held = rgb(98, 103, 95);    // grey: still there, not new (was C's mint: one colour, two meanings)
    c.local_read = rgb(206, 125, 162);  // Okabe-Ito reddish purple, a little lighter
    c.outline = rgb(30, 30, 30);
    c.hover = rgb(213, 94, 0);          // Okabe-Ito vermillion
    c.race = rgb(163, 49, 125);         // wine: apart from the hover's vermillion and the wrong cells' red
    c.wrong = rgb(200, 0, 0);           // red, filled
    c.global_bar = rgb(60, 60, 60);     // not A's blue: a use part's bar must not read "A loaded"
    c.local_bar = rgb(12, 38, 72);      // navy: not B's orange
    c.verdict_exact = rgb(0, 125, 80);  // green text: the guess was right
    c.verdict_close = rgb(190, 130, 0);  // amber text: near it
    c.verdict_off = rgb(170, 0, 0);    // red text: off (never green for a wrong guess)
    c.series = {rgb(0, 114, 178), rgb(230, 159, 0), rgb(0, 158, 115), rgb(204, 121, 167), rgb(86, 180, 233), rgb(213, 94, 0)};
    return c;
}

// The projector: pure white, black text and outlines, stronger lines; the fills are the
// light palette's (they pass the colour-vision check; darker variants did not).
Colours make_presenter() {
    Colours c = make_light();
    c.background = rgb(255, 255, 255);
    c.text = rgb(0, 0, 0);
    c.faint_text = rgb(50, 50, 50);
    c.grid_line = rgb(0, 0, 0, 70);
    c.tile_line = rgb(0, 0, 0, 220);
    c.outline = rgb(0, 0, 0);
    return c;
}

}  // namespace

std::string Rgb::hex() const {
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", r, g, b);
    return buf;
}

const Colours& light() {
    static const Colours c = make_light();
    return c;
}

const Colours& presenter() {
    static const Colours c = make_presenter();
    return c;
}

const std::array<Rgb, kHeatStops>& heat_stops() {
    static const std::array<Rgb, kHeatStops> s = {rgb(253, 231, 37), rgb(122, 209, 81), rgb(34, 168, 132),
                                                  rgb(42, 120, 142),  rgb(65, 68, 135),  rgb(68, 1, 84)};
    return s;
}

Rgb heat(float t) {
    const auto& s = heat_stops();
    t = std::clamp(t, 0.f, 1.f) * float(kHeatStops - 1);
    const int i = std::min(kHeatStops - 2, int(t));
    const float f = t - float(i);
    auto mix = [&](uint8_t a, uint8_t b) { return uint8_t(float(a) + (float(b) - float(a)) * f); };
    return Rgb{mix(s[i].r, s[i + 1].r), mix(s[i].g, s[i + 1].g), mix(s[i].b, s[i + 1].b), 255};
}

const std::vector<Entry>& entries() {
    static const std::vector<Entry> e = {
        {"background", &Colours::background, "the window and page behind everything"},
        {"text", &Colours::text, "text"},
        {"faint_text", &Colours::faint_text, "secondary text: units, hints, captions"},
        {"grid_line", &Colours::grid_line, "lines between cells (translucent ink)"},
        {"tile_line", &Colours::tile_line, "lines around TS x TS tiles (translucent ink)"},
        {"cell_empty", &Colours::cell_empty, "a cell of A, B or C the group does not touch now"},
        {"a_strip", &Colours::a_strip, "A (M): the strip of A the group reads over all phases"},
        {"a_loaded", &Colours::a_loaded, "A (M): the tile loaded from global now; A's name"},
        {"b_strip", &Colours::b_strip, "B (N): the strip of B the group reads over all phases"},
        {"b_loaded", &Colours::b_loaded, "B (N): the tile loaded from global now; B's name"},
        {"c_block", &Colours::c_block, "C (P): the group's block of C"},
        {"c_stored", &Colours::c_stored, "C (P): cells stored to global now; C's name"},
        {"local_empty", &Colours::local_empty, "local: a cell nothing holds yet"},
        {"local_filled", &Colours::local_filled, "local: stored now"},
        {"local_held", &Colours::local_held, "local: holds a value stored in an earlier part"},
        {"local_read", &Colours::local_read, "local: read now; outlines the cells of C whose sums it feeds"},
        {"outline", &Colours::outline, "outline of the group's strips of A and B and its block of C"},
        {"hover", &Colours::hover, "the hovered row of A, column of B, cell of C; the timeline's cursor; rings round the zeros written and the work-item picked"},
        {"race", &Colours::race, "a problem: work-items in a race or divergence (outlines), diagnostics, error text"},
        {"wrong", &Colours::wrong, "a wrong cell of C (filled), against the CPU reference"},
        {"global_bar", &Colours::global_bar, "timeline: a part's global traffic"},
        {"local_bar", &Colours::local_bar, "timeline: a part's local traffic"},
        {"verdict_exact", &Colours::verdict_exact, "lesson: a guess equal to the answer (with the word exact)"},
        {"verdict_close", &Colours::verdict_close, "lesson: a guess within 10 % of the answer (with the word close)"},
        {"verdict_off", &Colours::verdict_off, "lesson: any other guess (with the word off)"},
    };
    return e;
}

const std::vector<Pair>& must_differ() {
    static const std::vector<Pair> p = [] {
        std::vector<Pair> out;
        auto all_pairs = [&](std::initializer_list<const char*> keys) {
            const std::vector<const char*> k(keys);
            for (size_t i = 0; i < k.size(); ++i)
                for (size_t j = i + 1; j < k.size(); ++j) out.push_back({k[i], k[j]});
        };
        // The emulation view's legend (and the hand-out's) with the timeline's bars beside it.
        all_pairs({"a_strip", "a_loaded", "b_loaded", "c_block", "c_stored", "local_filled", "local_held", "local_read", "race", "wrong",
                   "global_bar", "local_bar"});
        // What one matrix shows at once: its fills, outlines and the hover.
        all_pairs({"cell_empty", "a_strip", "a_loaded", "hover", "outline"});
        all_pairs({"cell_empty", "b_strip", "b_loaded", "hover", "outline"});
        all_pairs({"cell_empty", "c_block", "c_stored", "wrong", "race", "local_read", "hover", "outline"});
        all_pairs({"local_empty", "local_filled", "local_held", "local_read"});
        all_pairs({"global_bar", "local_bar", "hover", "local_read", "background"});
        all_pairs({"verdict_exact", "verdict_close", "verdict_off", "background"});  // the lesson's verdicts, one line each
        out.push_back({"heat_low", "heat_high"});  // the heat scale's ends
        // drop repeats
        std::vector<Pair> unique;
        for (const Pair& x : out) {
            const bool seen = std::any_of(unique.begin(), unique.end(), [&](const Pair& y) {
                return (std::string(x.a) == y.a && std::string(x.b) == y.b) || (std::string(x.a) == y.b && std::string(x.b) == y.a);
            });
            if (!seen) unique.push_back(x);
        }
        return unique;
    }();
    return p;
}

Rgb by_key(const Colours& c, const std::string& key) {
    if (key == "heat_low") return heat_stops().front();
    if (key == "heat_high") return heat_stops().back();
    for (const Entry& e : entries())
        if (key == e.key) return c.*(e.field);
    throw std::invalid_argument("palette: no colour '" + key + "'");
}

}  // namespace tilescope::palette
