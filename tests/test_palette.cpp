// The one palette (core/teach/palette.h) for colour-blind viewers: every pair that appears
// together stays apart in the normal view and in simulated deuteranopia and protanopia
// (Machado, Oliveira & Fernandes 2009, severity 1.0, applied in linear RGB), by CIEDE2000.
// Also: one colour, one meaning (no two meanings share an RGB), and the three painters
// (GUI theme, hand-out, GIF) read this palette, not copies of it.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include "core/teach/palette.h"

namespace tilescope {
namespace {

using palette::Rgb;
using Mat3 = std::array<std::array<double, 3>, 3>;

// Machado et al. 2009, severity 1.0.
constexpr Mat3 kDeuteranopia = {{{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}};
constexpr Mat3 kProtanopia = {{{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}}};

struct Lab {
    double L, a, b;
};

double to_linear(uint8_t v) {
    const double c = v / 255.0;
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

// sRGB (D65) as seen through `m` (nullptr: normal vision) -> CIELAB.
Lab seen(const Rgb& c, const Mat3* m) {
    std::array<double, 3> l = {to_linear(c.r), to_linear(c.g), to_linear(c.b)};
    if (m) {
        std::array<double, 3> s{};
        for (int i = 0; i < 3; ++i) s[i] = (*m)[i][0] * l[0] + (*m)[i][1] * l[1] + (*m)[i][2] * l[2];
        for (double& v : s) v = std::clamp(v, 0.0, 1.0);
        l = s;
    }
    const double X = 0.4124564 * l[0] + 0.3575761 * l[1] + 0.1804375 * l[2];
    const double Y = 0.2126729 * l[0] + 0.7151522 * l[1] + 0.0721750 * l[2];
    const double Z = 0.0193339 * l[0] + 0.1191920 * l[1] + 0.9503041 * l[2];
    auto f = [](double t) { return t > 216.0 / 24389.0 ? std::cbrt(t) : (24389.0 / 27.0 * t + 16.0) / 116.0; };
    const double fx = f(X / 0.95047), fy = f(Y / 1.0), fz = f(Z / 1.08883);
    return {116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)};
}

double deg(double r) { return r * 180.0 / M_PI; }
double rad(double d) { return d * M_PI / 180.0; }

// CIEDE2000 (Sharma, Wu & Dalal 2005), kL = kC = kH = 1.
double delta_e2000(const Lab& x, const Lab& y) {
    const double C1 = std::hypot(x.a, x.b), C2 = std::hypot(y.a, y.b), Cb = (C1 + C2) / 2;
    const double G = 0.5 * (1 - std::sqrt(std::pow(Cb, 7) / (std::pow(Cb, 7) + std::pow(25.0, 7))));
    const double a1 = (1 + G) * x.a, a2 = (1 + G) * y.a;
    const double C1p = std::hypot(a1, x.b), C2p = std::hypot(a2, y.b);
    auto hue = [](double b, double a) { double h = deg(std::atan2(b, a)); return h < 0 ? h + 360 : h; };
    const double h1 = (C1p == 0) ? 0 : hue(x.b, a1), h2 = (C2p == 0) ? 0 : hue(y.b, a2);
    const double dL = y.L - x.L, dC = C2p - C1p;
    double dh = 0;
    if (C1p * C2p != 0) {
        dh = h2 - h1;
        if (dh > 180) dh -= 360;
        else if (dh < -180) dh += 360;
    }
    const double dH = 2 * std::sqrt(C1p * C2p) * std::sin(rad(dh / 2));
    const double Lb = (x.L + y.L) / 2, Cbp = (C1p + C2p) / 2;
    double hb = h1 + h2;
    if (C1p * C2p != 0) {
        if (std::abs(h1 - h2) <= 180) hb = (h1 + h2) / 2;
        else hb = (h1 + h2 < 360) ? (h1 + h2 + 360) / 2 : (h1 + h2 - 360) / 2;
    }
    const double T = 1 - 0.17 * std::cos(rad(hb - 30)) + 0.24 * std::cos(rad(2 * hb)) + 0.32 * std::cos(rad(3 * hb + 6)) -
                     0.20 * std::cos(rad(4 * hb - 63));
    const double dTheta = 30 * std::exp(-std::pow((hb - 275) / 25, 2));
    const double Rc = 2 * std::sqrt(std::pow(Cbp, 7) / (std::pow(Cbp, 7) + std::pow(25.0, 7)));
    const double Sl = 1 + 0.015 * std::pow(Lb - 50, 2) / std::sqrt(20 + std::pow(Lb - 50, 2));
    const double Sc = 1 + 0.045 * Cbp, Sh = 1 + 0.015 * Cbp * T;
    const double Rt = -std::sin(rad(2 * dTheta)) * Rc;
    return std::sqrt(std::pow(dL / Sl, 2) + std::pow(dC / Sc, 2) + std::pow(dH / Sh, 2) + Rt * (dC / Sc) * (dH / Sh));
}

struct Worst {
    double de = 1e9;
    std::string what;
};

// The smallest difference over must_differ() in one view of one palette.
Worst worst_pair(const palette::Colours& c, const Mat3* m) {
    Worst w;
    for (const palette::Pair& p : palette::must_differ()) {
        const double d = delta_e2000(seen(palette::by_key(c, p.a), m), seen(palette::by_key(c, p.b), m));
        if (d < w.de) w = {d, std::string(p.a) + " / " + p.b};
    }
    return w;
}

TEST(Palette, Ciede2000MatchesSharmasTestData) {
    // Pairs 1, 7 and 17 of Sharma, Wu & Dalal's table: the formula is the published one.
    EXPECT_NEAR(delta_e2000({50, 2.6772, -79.7751}, {50, 0, -82.7485}), 2.0425, 1e-4);
    EXPECT_NEAR(delta_e2000({50, 0, 0}, {50, -1, 2}), 2.3669, 1e-4);
    EXPECT_NEAR(delta_e2000({50, 2.5, 0}, {73, 25, -18}), 27.1492, 1e-4);
}

TEST(Palette, TheSimulationMergesWhatADeuteranopeConfuses) {
    // The check could fail: a red and an olive, far apart normally, come close in both
    // simulated views; so did the old palette's mint block of C and its empty cells.
    const Rgb red{200, 60, 0}, olive{110, 110, 0};
    EXPECT_GT(delta_e2000(seen(red, nullptr), seen(olive, nullptr)), 30.0);
    EXPECT_LT(delta_e2000(seen(red, &kDeuteranopia), seen(olive, &kDeuteranopia)), palette::kMinDeltaE);
    EXPECT_LT(delta_e2000(seen(red, &kProtanopia), seen(olive, &kProtanopia)), palette::kMinDeltaE);
    EXPECT_LT(delta_e2000(seen({178, 230, 210}, &kDeuteranopia), seen({238, 238, 238}, &kDeuteranopia)), palette::kMinDeltaE);
    // A grey is its own simulation (the matrices' rows sum to 1).
    const Lab g = seen({128, 128, 128}, nullptr), gd = seen({128, 128, 128}, &kDeuteranopia);
    EXPECT_NEAR(g.L, gd.L, 0.1);
}

TEST(Palette, PairsThatAppearTogetherStayApartForColourBlindViewers) {
    const std::pair<const char*, const palette::Colours*> palettes[] = {{"light", &palette::light()}, {"presenter", &palette::presenter()}};
    const std::pair<const char*, const Mat3*> views[] = {{"normal", nullptr}, {"deuteranopia", &kDeuteranopia}, {"protanopia", &kProtanopia}};
    ASSERT_GE(palette::must_differ().size(), 60u);
    for (const auto& [pname, pal] : palettes)
        for (const auto& [vname, m] : views) {
            const Worst w = worst_pair(*pal, m);
            std::printf("%-9s %-12s smallest CIEDE2000 %.1f (%s)\n", pname, vname, w.de, w.what.c_str());
            EXPECT_GE(w.de, palette::kMinDeltaE) << pname << ", " << vname << ": " << w.what;
        }
}

TEST(Palette, OneColourOneMeaning) {
    // No two meanings drawn as cells or outlines share an RGB (series are plots only; the
    // translucent lines and the text are ink).
    for (const palette::Colours* c : {&palette::light(), &palette::presenter()}) {
        std::map<std::string, std::string> owner;
        for (const palette::Entry& e : palette::entries()) {
            const std::string key = e.key;
            if (key == "grid_line" || key == "tile_line" || key == "text" || key == "faint_text" || key == "background") continue;
            if (key == "local_empty") continue;  // the same "nothing here" as cell_empty, in a local array
            const std::string hex = (c->*(e.field)).hex();
            EXPECT_TRUE(owner.emplace(hex, key).second) << key << " and " << owner[hex] << " share " << hex;
        }
    }
    EXPECT_EQ(palette::light().local_empty, palette::light().cell_empty);
}

TEST(Palette, TheWrongCellsAreRedAndTheLocalHeldIsNotCsBlock) {
    const Rgb w = palette::light().wrong;
    EXPECT_GT(w.r, 150);
    EXPECT_LT(w.g, 60);
    EXPECT_LT(w.b, 60);
    EXPECT_FALSE(palette::light().local_held == palette::light().c_block);
    EXPECT_FALSE(palette::light().global_bar == palette::light().a_loaded);
    EXPECT_FALSE(palette::light().local_bar == palette::light().b_loaded);
    EXPECT_THROW(palette::by_key(palette::light(), "mint"), std::invalid_argument);
}

}  // namespace
}  // namespace tilescope
