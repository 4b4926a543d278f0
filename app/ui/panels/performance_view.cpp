// Performance: measured GFLOP/s of every rung, against size, over tile sizes, and a
// roofline whose ceilings are measured by kernels/ceilings/ and whose arithmetic
// intensities come from traced global bytes.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/device/contained_measure.h"
#include "core/device/spread.h"
#include "core/tasks/performance.h"
#include "ui/panels/cache_views.h"
#include "ui/panels/performance_view.h"
#include "ui/widgets/plot.h"
#include "ui/widgets/theme.h"
#include "ui/panels/tune_offer.h"

namespace tilescope::ui {
namespace {

// A row's tuning source, short enough to sit after its GFLOP/s.
std::string short_source(const Measurement& m) {
    if (m.library) return "";
    if (m.tuning_note.empty()) return "default";
    if (m.tuning_note.rfind("tuned for a similar device", 0) == 0) return "similar device's";
    if (m.tuning_note.rfind("defaults for ", 0) == 0) return m.tuning_note.substr(std::string("defaults for ").size()) + " defaults";
    return m.tuning_note;  // "tuned here", "tuned here at 1024"
}

// A figure as drawn, for `--control state` and the tests.
void record(Performance& perf, const char* plot, const Measurement& m, const GflopsSpread& sp, const std::string& label,
            const std::string& noise) {
    perf.drawn.push_back({plot, m.kernel, m.size.M, m.tile, sp.median, sp.low, sp.high, label, noise});
}

// "within noise of tiled" for the first of the others whose runs overlap this one's.
std::string noise_note(const std::vector<std::vector<size_t>>& neighbours, size_t i, const std::vector<std::string>& names) {
    if (i >= neighbours.size() || neighbours[i].empty()) return "";
    std::string s = "within noise of " + names[neighbours[i][0]];
    if (neighbours[i].size() > 1) s += " +" + std::to_string(neighbours[i].size() - 1);
    return s;
}

// Every rung at one size, horizontal bars so the names stay readable; a whisker from the
// slowest to the fastest run across each bar's end.
void plot_rungs(ImDrawList* dl, Performance& perf, ImVec2 p0, ImVec2 p1) {
    const Palette& pal = theme().pal;
    // Thirteen rungs in a projector's short window: the type shrinks (to 60 % at most) until
    // a row holds its name and label without touching the next.
    const float rows_h = (p1.y - p0.y) - ImGui::GetFontSize() * 4.f;  // title, axis, tick labels
    const float per_row = rows_h / float(std::max<size_t>(1, perf.rungs.size()));
    const float scale = std::clamp(per_row / (ImGui::GetFontSize() * 1.2f), 0.6f, 1.f);
    ImGui::SetWindowFontScale(scale);
    struct Unscale {
        ~Unscale() { ImGui::SetWindowFontScale(1.f); }
    } unscale;
    const float fh = ImGui::GetFontSize();
    double xmax = 1;
    float name_w = 0;
    std::vector<GflopsSpread> spreads;
    std::vector<std::string> names;
    for (const Measurement& m : perf.rungs) {
        spreads.push_back(gflops_spread(m));
        names.push_back(m.kernel);
        xmax = std::max({xmax, m.gflops, spreads.back().high});
        name_w = std::max(name_w, ImGui::CalcTextSize(m.kernel.c_str()).x);
    }
    const auto neighbours = noise_neighbours(spreads);
    const double n = double(std::max<size_t>(1, perf.rungs.size()));
    // Rungs tenfold apart (a CPU: naive and tiled at 0.1-2 GFLOP/s beside cpu_panel's 100)
    // leave the slow ones a bar of 1 px on a linear axis (at 720p): then the axis is
    // logarithmic, from the decade below the slowest, and every bar shows (issue 33, 720p).
    double slowest = 0;
    for (const Measurement& m : perf.rungs)
        if (m.gflops > 0 && (slowest == 0 || m.gflops < slowest)) slowest = m.gflops;
    const bool log_x = slowest > 0 && xmax / slowest > 10;
    const double x_start = log_x ? std::pow(10.0, std::floor(std::log10(slowest * 0.9))) : 0.0;
    // The linear axis end that leaves `room` (a fraction of the width) to a bar reaching x.
    auto axis_end = [](double x, double room) { return x / room; };
    // Each bar's label (GFLOP/s, where its tuning came from, and whether it is within noise
    // of another) right of its whisker: the axis reaches far enough that the longest fits.
    std::vector<std::string> labels;
    const double inner = std::max(fh * 4.0, double(p1.x - p0.x) - fh * (name_w / fh + 0.8f) - fh * 0.8f);
    double xrange = log_x ? std::pow(10.0, std::ceil(std::log10(xmax * 1.15))) : xmax * 1.15;
    bool tilde = false;
    for (size_t i = 0; i < perf.rungs.size(); ++i) {
        const Measurement& m = perf.rungs[i];
        const std::string src = short_source(m), noise = noise_note(neighbours, i, names);
        // the longest form that leaves the bar most of the width: naming the neighbour with the
        // tuning source, then without it, then "~ neighbour"; never "within noise" of nothing
        // named (issue 33: ten bars at 720p said it and named no partner)
        const std::string value = short_number(m.gflops), with_src = value + (src.empty() ? "" : "  " + src);
        std::string label = with_src + (noise.empty() ? "" : "  " + noise);
        if (!noise.empty() && ImGui::CalcTextSize(label.c_str()).x > inner * 0.55) label = value + "  " + noise;
        // short of room, the partner is still named ("~ row"): "within noise" alone says of what not
        if (!noise.empty() && ImGui::CalcTextSize(label.c_str()).x > inner * 0.55 && (tilde = true))
            label = value + "  ~ " + names[neighbours[i][0]] + (neighbours[i].size() > 1 ? " +" + std::to_string(neighbours[i].size() - 1) : "");
        labels.push_back(label);
        const double room = 1.0 - std::min(0.85, (ImGui::CalcTextSize(labels.back().c_str()).x + 10) / inner);
        // (a log axis stays a decade past the fastest: a label that does not fit right of its
        // bar goes inside it, the fastest bars being long there)
        if (!log_x) xrange = std::max(xrange, axis_end(std::max(m.gflops, spreads[i].high), room));
    }
    if (log_x) {
        // Each label right of its whisker inside the frame, or inside its bar where the bar is
        // long enough: the axis reaches on by half again until every one does.
        auto at = [&](double x) { return inner * std::log(std::max(x, x_start) / x_start) / std::log(xrange / x_start); };
        auto fits_in = [&](size_t i, double w) {
            return at(std::max(perf.rungs[i].gflops, spreads[i].high)) + w <= inner || at(perf.rungs[i].gflops) >= w;
        };
        for (size_t i = 0; i < perf.rungs.size(); ++i)  // "~ row_private_local +4": the count goes first where room is short
            if (const size_t plus = labels[i].find(" +"); plus != std::string::npos && labels[i].find("  ~ ") != std::string::npos &&
                                                         ImGui::CalcTextSize(labels[i].c_str()).x > inner * 0.6)
                labels[i] = labels[i].substr(0, plus);
        // (at most two decades past the fastest: a label longer than that allows stays past the frame)
        for (int tries = 0; tries < 40 && xrange * 1.5 < xmax * 100; ++tries) {
            bool fits = true;
            for (size_t i = 0; i < perf.rungs.size(); ++i)
                if (!fits_in(i, ImGui::CalcTextSize(labels[i].c_str()).x + 10)) fits = false;
            if (fits) break;
            xrange *= 1.5;
        }
        // still short of room: the tuning source ("CPUs defaults") goes, the value stays
        for (size_t i = 0; i < perf.rungs.size(); ++i) {
            const std::string src = short_source(perf.rungs[i]);
            const size_t at_src = src.empty() ? std::string::npos : labels[i].find("  " + src);
            if (at_src != std::string::npos && !fits_in(i, ImGui::CalcTextSize(labels[i].c_str()).x + 10))
                labels[i].erase(at_src, src.size() + 2);
        }
    }
    PlotFrame f(dl, p0, p1, "every rung, " + std::to_string(perf.size) + "\u00b3",
                std::string(log_x ? "GFLOP/s (measured, log)" : "GFLOP/s (measured)") + (tilde ? "; ~: within noise of" : ""), "", x_start, xrange,
                n - 0.5, -0.5, log_x, false, name_w / fh + 0.8f);
    f.x_ticks_auto();
    const double hh = std::max(2.0, (f.plot_max().y - f.plot_min().y) / n * 0.36);
    for (size_t i = 0; i < perf.rungs.size(); ++i) {
        const GflopsSpread& sp = spreads[i];
        f.hbar(double(i), hh, perf.rungs[i].gflops, pal.series[i % 6], perf.rungs[i].kernel, labels[i], sp.valid() ? std::max(sp.low, x_start) : -1,
               sp.valid() ? sp.high : -1);
        record(perf, "rungs", perf.rungs[i], sp, labels[i], noise_note(neighbours, i, names));
    }
}

// GFLOP/s against size, naive and tiled, each point with its runs' whisker; the point at
// the rungs' size is the bar's own measurement (the plan shares the runs).
void plot_sizes(ImDrawList* dl, Performance& perf, ImVec2 p0, ImVec2 p1) {
    const Palette& pal = theme().pal;
    double ymax = 1;
    int64_t smin = 64, smax = 512;
    std::vector<std::string> names;
    for (const Measurement& m : perf.sweep_sizes) {
        ymax = std::max({ymax, m.gflops, gflops_spread(m).high});
        smin = std::min(smin, m.size.M);
        smax = std::max(smax, m.size.M);
        if (std::find(names.begin(), names.end(), m.kernel) == names.end()) names.push_back(m.kernel);
    }
    // where the two kernels' runs overlap at one size, the line ranks neither
    std::vector<int64_t> tied;
    for (const Measurement& a : perf.sweep_sizes)
        for (const Measurement& b : perf.sweep_sizes)
            if (a.kernel < b.kernel && a.size == b.size && within_noise(gflops_spread(a), gflops_spread(b))) tied.push_back(a.size.M);
    std::string x_title = "M = N = K (log scale)";
    if (!tied.empty()) {
        std::string at = "within noise at";
        for (size_t i = 0; i < tied.size(); ++i) at += (i ? ", " : " ") + std::to_string(tied[i]);
        x_title += "; " + at;
        if (ImGui::CalcTextSize(x_title.c_str()).x > (p1.x - p0.x) * 0.9f) x_title = "size; naive and tiled " + at;
    }
    std::vector<double> ticks;
    std::vector<std::string> tick_labels;
    for (const Measurement& m : perf.sweep_sizes)
        if (std::find(ticks.begin(), ticks.end(), double(m.size.M)) == ticks.end()) {
            ticks.push_back(double(m.size.M));
            tick_labels.push_back(std::to_string(m.size.M));
        }
    if (ticks.empty()) {
        ticks = {64, 128, 256, 512};
        tick_labels = {"64", "128", "256", "512"};
    }
    PlotFrame f(dl, p0, p1, "GFLOP/s against size", x_title, "GFLOP/s (measured)", double(smin) * 0.75, double(smax) * 1.37, 0,
                ymax * 1.2, true, false);
    f.y_ticks_auto();
    f.x_ticks(ticks, tick_labels);
    std::vector<std::pair<std::string, ImU32>> legend;
    for (size_t n = 0; n < names.size(); ++n) {
        std::vector<double> xs, ys;
        const ImU32 c = pal.series[(n * 3) % 6];
        for (const Measurement& m : perf.sweep_sizes)
            if (m.kernel == names[n]) {
                xs.push_back(double(m.size.M));
                ys.push_back(m.gflops);
                const GflopsSpread sp = gflops_spread(m);
                if (sp.valid()) f.whisker(double(m.size.M), sp.low, sp.high, c);
                const bool noisy = std::find(tied.begin(), tied.end(), m.size.M) != tied.end();
                record(perf, "sizes", m, sp, "", noisy ? "within noise" : "");
            }
        f.line(xs, ys, c, theme().line);
        legend.push_back({names[n], c});
    }
    f.legend(legend);
}

// The tile sweep: tiled at one size over TS, whiskers on the bars; the tiles whose runs
// overlap the best one's are named as within noise of it.
void plot_tiles(ImDrawList* dl, Performance& perf, ImVec2 p0, ImVec2 p1) {
    const Palette& pal = theme().pal;
    double ymax = 1;
    std::vector<GflopsSpread> spreads;
    size_t best = 0;
    for (size_t i = 0; i < perf.sweep_tiles.size(); ++i) {
        spreads.push_back(gflops_spread(perf.sweep_tiles[i]));
        ymax = std::max({ymax, perf.sweep_tiles[i].gflops, spreads.back().high});
        if (spreads[i].median > spreads[best].median) best = i;
    }
    std::string x_title = "TS (work-group TS x TS)";
    std::string tied;
    for (size_t i = 0; i < spreads.size(); ++i)
        if (i != best && within_noise(spreads[i], spreads[best])) tied += (tied.empty() ? "" : ", ") + std::to_string(perf.sweep_tiles[i].tile);
    if (!tied.empty()) {
        x_title += "; within noise of the best (TS=" + std::to_string(perf.sweep_tiles[best].tile) + "): TS=" + tied;
        if (ImGui::CalcTextSize(x_title.c_str()).x > (p1.x - p0.x) * 0.9f)
            x_title = "TS=" + tied + " within noise of TS=" + std::to_string(perf.sweep_tiles[best].tile);
    }
    PlotFrame f(dl, p0, p1, "tile sweep: tiled at " + std::to_string(perf.size) + "\u00b3", x_title, "GFLOP/s (measured)", -0.5,
                double(perf.sweep_tiles.size()) - 0.5, 0, ymax * 1.2, false, false);
    f.y_ticks_auto();
    std::vector<double> at;
    std::vector<std::string> labels;
    const double hw = (f.plot_max().x - f.plot_min().x) / double(std::max<size_t>(1, perf.sweep_tiles.size())) * 0.3;
    for (size_t i = 0; i < perf.sweep_tiles.size(); ++i) {
        const GflopsSpread& sp = spreads[i];
        const std::string label = short_number(perf.sweep_tiles[i].gflops);
        f.bar(double(i), hw, perf.sweep_tiles[i].gflops, pal.series[2], label, sp.valid() ? sp.low : -1, sp.valid() ? sp.high : -1);
        const bool noisy = i != best && within_noise(sp, spreads[best]);
        record(perf, "tiles", perf.sweep_tiles[i], sp, label, noisy ? "within noise of TS=" + std::to_string(perf.sweep_tiles[best].tile) : "");
        at.push_back(double(i));
        labels.push_back("TS=" + std::to_string(perf.sweep_tiles[i].tile));
    }
    f.x_ticks(at, labels);
}

// The roofline: measured ceilings, rungs at their traced arithmetic intensity.
void plot_roofline(ImDrawList* dl, const Performance& perf, ImVec2 p0, ImVec2 p1) {
    const Palette& pal = theme().pal;
    const float fh = ImGui::GetFontSize();
    const double peak = std::max(perf.peak_gflops, 1e-3), bw = std::max(perf.bandwidth_gbs, 1e-3);
    double ymin = peak, ymax = peak * 3;
    for (const Measurement& m : perf.rungs)
        if (m.gflops > 0) {
            ymin = std::min(ymin, m.gflops);
            ymax = std::max(ymax, m.gflops * 2);  // a rung above a flagged peak stays inside the plot
        }
    ymin = std::pow(10, std::floor(std::log10(std::min(ymin, bw * 0.05) * 0.7)));
    PlotFrame f(dl, p0, p1, "roofline", "arithmetic intensity, FLOP per global byte (traced)",
                "GFLOP/s", 0.05, 100, ymin, ymax, true, true);
    f.y_ticks_auto();
    f.x_ticks_auto();
    std::vector<double> xs, ys;
    for (double x = 0.05; x <= 100.01; x *= 1.2) {
        xs.push_back(x);
        ys.push_back(std::min(peak, x * bw));
    }
    // A peak measured below a rung is no roof (a busier machine when it was measured): its line
    // is drawn faint and says so, with the rung's figure, instead of capping the plot.
    f.line(xs, ys, perf.roof_below ? pal.faint_text : pal.outline, perf.roof_below ? 1.f : theme().line, false);
    char buf[96];
    std::snprintf(buf, sizeof buf, "peak %.0f GFLOP/s (measured)", peak);
    // The marks every label keeps clear of: each rung's dot (traced intensity), its ring (modelled
    // DRAM intensity), the line between them and the key (drawn by draw_hierarchical_points, after
    // the labels: `rings` holds those, which the rungs' names keep clear of too).
    std::vector<LabelledPoint> points;
    for (size_t i = 0; i < perf.intensity.size(); ++i) {
        const auto& ai = perf.intensity[i];
        for (const Measurement& m : perf.rungs)
            if (m.kernel == ai.kernel && m.gflops > 0) points.push_back({ai.flops_per_byte, m.gflops, pal.series[i % 6], ai.kernel});
    }
    const std::vector<HierarchicalPoint> hier = hierarchical_points(perf);
    std::vector<Box> marks, rings;
    const float dot = theme().line * 2.5f + 2, ring = fh * 0.32f + 2;
    for (const LabelledPoint& p : points) {
        const ImVec2 c = f.map(p.x, p.y);
        marks.push_back(Box(c.x - dot, c.y - dot, c.x + dot, c.y + dot));
    }
    for (const HierarchicalPoint& h : hier) {
        if (h.gflops <= 0 || h.dram_flops_per_byte <= 0) continue;
        const ImVec2 c = f.map(h.dram_flops_per_byte, h.gflops), g = f.map(h.global_flops_per_byte, h.gflops);
        rings.push_back(Box(c.x - ring, c.y - ring, c.x + ring, c.y + ring));
        rings.push_back(Box(std::min(c.x, g.x), c.y - 2, std::max(c.x, g.x), c.y + 2));  // the line joining dot and ring
    }
    // and the key along the bottom ("filled: traced ...; ring: modelled ...", draw_hierarchical_points)
    rings.push_back(Box(f.plot_min().x, f.plot_max().y - fh * 1.4f, f.plot_max().x, f.plot_max().y));
    marks.insert(marks.end(), rings.begin(), rings.end());
    const Box inside(f.plot_min().x, f.plot_min().y, f.plot_max().x, f.plot_max().y);
    const auto clear = [&](const Box& b) {
        return b.x >= inside.x && b.z <= inside.z && b.y >= inside.y && b.w <= inside.w && f.clear_of_texts(b) &&
               std::none_of(marks.begin(), marks.end(), [&](const Box& m) { return overlaps(m, b); });
    };
    // The roof's label: right-aligned at intensity 30, above the line, else below it (a peak near
    // the top, or marks there). Flagged: the short form (the line above the plots names the rung).
    const std::string peak_label = perf.roof_below ? tasks::roof_below_text(*perf.roof_below, true) : std::string(buf);
    const ImVec2 ps = ImGui::CalcTextSize(peak_label.c_str());
    const float px = std::max(f.plot_min().x + 2, std::min(f.map(30, peak).x, f.plot_max().x) - ps.x), py = f.map(30, peak).y;
    const Box peak_above(px, py - fh * 1.2f, px + ps.x, py - fh * 1.2f + ps.y), peak_below(px, py + fh * 0.2f, px + ps.x, py + fh * 0.2f + ps.y);
    const Box& peak_at = clear(peak_above) || !clear(peak_below) ? peak_above : peak_below;
    f.text(ImVec2(peak_at.x, peak_at.y), perf.roof_below ? pal.race : pal.text, peak_label);
    // The bandwidth's label beside the sloped line, where no mark is: above and left of a point
    // on it, or below and right (the line rises to the right, so neither box crosses it), from
    // the low end up to the ridge; where none is clear, at the low end as before.
    std::snprintf(buf, sizeof buf, "%.1f GB/s (measured)", bw);
    const ImVec2 bs = ImGui::CalcTextSize(buf);
    const ImVec2 q0 = f.map(0.06, 0.06 * bw);
    Box bw_at(q0.x + 4, q0.y - fh * 1.3f, q0.x + 4 + bs.x, q0.y - fh * 1.3f + bs.y);
    bool placed = false;
    for (double x = 0.06; x < peak / bw && !placed; x *= 1.5) {
        const ImVec2 q = f.map(x, x * bw);
        for (const Box& b : {Box(q.x - 4 - bs.x, q.y - fh * 0.3f - bs.y, q.x - 4, q.y - fh * 0.3f), Box(q.x + 4, q.y + fh * 0.3f, q.x + 4 + bs.x, q.y + fh * 0.3f + bs.y)})
            if (!placed && clear(b)) {
                bw_at = b;
                placed = true;
            }
    }
    f.text(ImVec2(bw_at.x, bw_at.y), pal.text, buf);
    f.points(points, rings);
    draw_hierarchical_points(f, hier, perf.cache_profile);  // modelled DRAM intensity
}

// "Measures at 256³, not the 64³ set up for the trace: ..." (issue 21: a step says which size it measures and why).
std::string size_note(const ProblemSize& set_up, int measured, bool brief) {
    const std::string set = set_up.M == set_up.N && set_up.N == set_up.K ? std::to_string(set_up.M) + "\u00b3" : set_up.label();
    if (brief)
        return "Measured at " + std::to_string(measured) + "\u00b3, not " + set + ": " +
               (set_up.M * set_up.N * set_up.K < int64_t(measured) * measured * measured ? "too short a launch to time." : "the view's own size.");
    return "Measures at " + std::to_string(measured) + "\u00b3, not the " + set +
           " set up for the trace: " +
           (set_up.M * set_up.N * set_up.K < int64_t(measured) * measured * measured
                ? "a launch that small is over in a fraction of a millisecond, where launch overhead and timer noise decide the order."
                : "the view measures its own size, set in its size box before Measure.");
}

std::string explanation_title(const CpuExplanation& e) {
    return std::string("Why ") +
           (e.winner == CpuWinner::tiled   ? "tiled wins on this CPU"
            : e.winner == CpuWinner::naive ? "naive wins on this CPU"
                                           : "neither wins on this CPU");
}

// Lines of `text` at most `width` wide in the current font, broken at spaces only (ImGui's
// own wrap also breaks after '.', which split "15.5 ms" over two lines).
std::vector<std::string> wrap_at_spaces(const std::string& text, float width) {
    std::vector<std::string> lines;
    std::string line;
    size_t at = 0;
    while (at <= text.size()) {
        size_t end = text.find(' ', at);
        if (end == std::string::npos) end = text.size();
        const std::string word = text.substr(at, end - at);
        const std::string longer = line.empty() ? word : line + " " + word;
        if (!line.empty() && ImGui::CalcTextSize(longer.c_str()).x > width) {
            lines.push_back(line);
            line = word;
        } else {
            line = longer;
        }
        at = end + 1;
    }
    if (!line.empty()) lines.push_back(line);
    return lines;
}

// What the box shows: the full sentences, or (presenter) the short ones, and the command.
std::vector<std::string> explanation_texts(const CpuExplanation& e, bool brief) {
    std::vector<std::string> out = brief ? e.summary : e.sentences;
    if (!brief)  // the projector's short form leaves the command to the instructor's script
        out.push_back("The same from the command line: tilescope bench --device pocl --kernel naive,tiled --size 1024 --tile 16 --explain");
    return out;
}

// The explanation's lines at `width` (framed), and the height they need.
std::vector<std::vector<std::string>> explanation_lines(const CpuExplanation& e, float width, bool brief, float& need) {
    const ImGuiStyle& st = ImGui::GetStyle();
    const float wrap = std::max(10.f, width - st.WindowPadding.x * 2 - st.ScrollbarSize);
    ImGui::PushFont(theme().big);
    need = st.WindowPadding.y * 2 + 2 +
           float(wrap_at_spaces(explanation_title(e), wrap).size()) * ImGui::GetTextLineHeightWithSpacing();
    ImGui::PopFont();
    std::vector<std::vector<std::string>> wrapped;
    for (const std::string& t : explanation_texts(e, brief)) {
        wrapped.push_back(wrap_at_spaces(t, wrap));
        need += float(wrapped.back().size()) * ImGui::GetTextLineHeightWithSpacing();  // one item per line
    }
    return wrapped;
}

float explanation_height_for(const CpuExplanation& e, float width, bool brief) {
    float need = 0;
    explanation_lines(e, width, brief, need);
    return need;
}

// The CPU explanation in a framed box at most `size` (it scrolls when the text is longer);
// returns its height.
float explanation_box(const CpuExplanation& e, ImVec2 at, ImVec2 size, bool brief) {
    float need = 0;
    const std::vector<std::vector<std::string>> wrapped = explanation_lines(e, size.x, brief, need);
    const float h = std::min(size.y, need);
    const ImVec2 back = ImGui::GetCursorScreenPos();
    ImGui::SetCursorScreenPos(at);
    ImGui::BeginChild("cpu_explained", ImVec2(size.x, h), true);
    ImGui::PushFont(theme().big);
    const float wrap = std::max(10.f, size.x - ImGui::GetStyle().WindowPadding.x * 2 - ImGui::GetStyle().ScrollbarSize);
    for (const std::string& line : wrap_at_spaces(explanation_title(e), wrap)) ImGui::TextUnformatted(line.c_str());
    ImGui::PopFont();
    for (size_t i = 0; i < wrapped.size(); ++i) {
        const bool command = !brief && i + 1 == wrapped.size();
        if (command) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(theme().pal.faint_text));
        ImGui::BeginGroup();
        for (const std::string& line : wrapped[i]) ImGui::TextUnformatted(line.c_str());
        ImGui::EndGroup();
        if (command) ImGui::PopStyleColor();
    }
    ImGui::EndChild();
    ImGui::SetCursorScreenPos(back);
    return h;
}

}  // namespace

static std::string trust_prompt_text(const AppState& state) {
    const LaunchConfig& c = *state.main.config;
    size_t lines = 1;
    for (char ch : c.kernel.source) lines += ch == '\n';
    const std::string device = state.device_sel.empty() ? "the default device (the first real GPU, else the first CPU)"
                                                        : "the device '" + state.device_sel + "'";
    const ContainedLimits limits = default_contained_limits(ResolvedLaunch{}, DeviceInfo{});
    return c.kernel.carried_by + " carries its own kernel '" + c.kernel.name + "' (entry " + c.kernel.entry + ", " +
           std::to_string(lines) + " lines of OpenCL C). It is code from the file, not from tilescope's catalog, and " +
           "nothing of it has been built or run. Measuring it builds and runs it on " + device + " at " +
           std::to_string(state.perf.size) + "x" + std::to_string(state.perf.size) + "x" + std::to_string(state.perf.size) +
           ", in a child process stopped after " + std::to_string(int(limits.wall_s)) +
           " s (and, on a CPU, past 4 GiB plus three times its matrices): a crash or an endless loop costs one line, "
           "not this window.";
}

static void draw_trust_prompt(AppState& state, ImVec2 size) {
    const Palette& pal = theme().pal;
    ImGui::PushFont(theme().big);
    ImGui::TextUnformatted("Run the kernel this file carries?");
    ImGui::PopFont();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + std::min(size.x, ImGui::GetFontSize() * 46));
    ImGui::TextUnformatted(trust_prompt_text(state).c_str());
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    if (ImGui::Button("Run it in a child process")) {
        state.main.config->kernel.trusted = true;
        if (state.main.shown && state.main.shown->kernel.carried_by == state.main.config->kernel.carried_by)
            state.main.shown->kernel.trusted = true;
        start_performance(state);
    }
    ImGui::SameLine();
    if (ImGui::Button("Measure the ladder without it")) {
        state.perf.without_carried = true;
        start_performance(state);
    }
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) state.perf.asking_trust = false;
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.faint_text));
    text_wrapped("From the command line: tilescope gui --open FILE --trust-source, or tilescope bench --open FILE --trust-source.");
    ImGui::PopStyleColor();
}

void start_performance(AppState& state) {
    if (state.perf.job && !state.perf.job->done) return;
    state.perf.error.clear();
    // the plan `tilescope bench --plan performance --size N` runs too
    // with the custom kernel on show, if any: a student's kernel is measured beside the ladder
    std::optional<LaunchConfig> custom;
    if (state.main.config && state.main.config->kernel.custom) custom = *state.main.config;
    // A kernel from someone's file is built and run only once the user says so (the view's
    // confirm, or gui --trust-source), and then in a child process (core/device/contained_measure.h).
    if (custom && !custom->kernel.carried_by.empty() && !custom->kernel.trusted) {
        if (!state.perf.without_carried) {
            state.perf.asking_trust = true;
            return;
        }
        custom.reset();
    }
    state.perf.asking_trust = false;
    tasks::PerformancePlan plan = tasks::performance_plan(state.device_sel, state.perf.size, custom);
    plan.fastest = state.perf.ask_fastest;
    state.perf.job = state.worker->submit("measure GFLOP/s", [plan](JobStatus& s) -> std::any {
        return tasks::run_performance_plan(plan, task_progress(s));
    });
}

void poll_performance(Performance& perf) {
    if (!perf.job || !perf.job->done) return;
    const JobHandle job = perf.job;  // keeps the result alive while it is copied over `perf`
    if (const auto* p = job->result<tasks::PerformanceResult>()) {
        static_cast<tasks::PerformanceResult&>(perf) = *p;
        perf.error.clear();
    } else {
        perf.error = job->error();
    }
    perf.job.reset();
}

void draw_performance_view(AppState& state, ImVec2 size, bool projector) {
    Performance& perf = state.perf;
    poll_performance(perf);
    perf.drawn.clear();  // refilled by the plots below: what this frame draws, nothing older
    const Palette& pal = theme().pal;
    const float fh = ImGui::GetFontSize();
    if (!perf.ready()) {
        if (!perf.job && perf.asking_trust && state.main.config) {
            draw_trust_prompt(state, size);
            return;
        }
        if (perf.job) {
            ImGui::Text("Measuring on the device... %s", perf.job->message().c_str());
            ImGui::ProgressBar(perf.job->fraction(), ImVec2(std::min(size.x, 600.f), 0));
        } else {
            text_wrapped("GFLOP/s of every rung, measured on the selected real device (never the emulator), "
                               "with the roofline's ceilings measured by small OpenCL kernels.");
            if (state.main.config && !(state.main.config->size.M == perf.size && state.main.config->size.N == perf.size &&
                                       state.main.config->size.K == perf.size)) {
                ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.faint_text));
                text_wrapped("%s", size_note(state.main.config->size, perf.size, false).c_str());
                ImGui::PopStyleColor();
            }
            ImGui::SetNextItemWidth(fh * 8);
            ImGui::InputInt("size", &perf.size, 64);
            perf.size = std::clamp(perf.size, 16, 4096);
            if (ImGui::Button("Measure")) start_performance(state);
            ImGui::SameLine();
            ImGui::Checkbox("and the rung picked for you (fastest)", &perf.ask_fastest);
            if (!perf.error.empty()) ImGui::TextColored(ImColor(pal.race), "%s", perf.error.c_str());
        }
        return;
    }
    ImGui::BeginDisabled(state.tuning.running());  // one job at a time on the device
    if (ImGui::SmallButton("Measure again")) {
        perf.rungs.clear();
        start_performance(state);
    }
    ImGui::EndDisabled();
    ImGui::SameLine();
    const size_t runs = perf.rungs.empty() ? 0 : perf.rungs.front().times_s.size();
    const std::string device = perf.device.substr(perf.device.rfind(" / ") == std::string::npos ? 0 : perf.device.rfind(" / ") + 3, 40);
    if (projector)
        text_wrapped("%s: median of %zu verified runs; whiskers: slowest to fastest", device.c_str(), runs);
    else
        text_wrapped("%s: median of %zu verified runs, whiskers from the slowest to the fastest; where two overlap they are "
                           "within noise, not ranked. Ceilings measured by kernels/ceilings/: %.1f GFLOP/s, %.1f GB/s%s",
                           device.c_str(), runs, perf.peak_gflops, perf.bandwidth_gbs,
                           perf.roof_below ? (" (" + tasks::roof_below_text(*perf.roof_below) + ")").c_str() : "");
    // The rung the tuning data pick at this size (bench --kernel fastest), its figure and why.
    if (perf.fastest) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.text));
        text_wrapped("Picked for you (fastest): %s", tasks::fastest_line(*perf.fastest).c_str());
        ImGui::PopStyleColor();
        // A bar measured faster than the pick in this run: said, not left for a student to spot.
        if (const auto beaten = tasks::pick_beaten(perf)) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(beaten->within_noise ? pal.faint_text : pal.text));
            text_wrapped("But %s.", tasks::pick_beaten_text(*beaten).c_str());
            ImGui::PopStyleColor();
        }
    }
    // Which size is measured, and why it is not the one set up for the trace.
    if (state.main.config) {
        const ProblemSize& set_up = state.main.config->size;
        if (!(set_up.M == perf.size && set_up.N == perf.size && set_up.K == perf.size)) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.faint_text));
            text_wrapped("%s", size_note(set_up, perf.size, projector).c_str());
            ImGui::PopStyleColor();
        }
    }
    if (!projector || state.tuning.running()) draw_tuning_strip(state, ImGui::GetContentRegionAvail().x);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImVec2 o = ImGui::GetCursorScreenPos();
    ImVec2 avail = ImGui::GetContentRegionAvail();
    const float gap = fh * 0.6f;
    bool short_window = theme().presenter && avail.y < fh * 30;
    // On a CPU: why naive or tiled won here (core/teach/cpu_explained), above the plots when
    // they keep room enough, else beside the bars in place of the other plots.
    if (perf.cpu_explained && !short_window) {
        const float want = std::min(avail.y * 0.4f, explanation_height_for(*perf.cpu_explained, avail.x, false));
        if (avail.y - want - gap < fh * 26) {
            short_window = true;
        } else {
            const float h = explanation_box(*perf.cpu_explained, o, ImVec2(avail.x, want), false);
            o.y += h + gap;
            avail.y -= h + gap;
        }
    }
    const float w = (avail.x - gap) / 2, h = (avail.y - gap) / 2;
    // A projector's short window cannot hold four plots in presenter type: the rungs and the
    // roofline (on a CPU, the explanation) get the whole height (the sweeps are one F5 away).
    if (short_window) {  // the bars a little wider: a label per rung right of its whiskers
        const float wl = (avail.x - gap) * 0.56f, wr = avail.x - gap - wl;
        plot_rungs(dl, perf, o, ImVec2(o.x + wl, o.y + avail.y));
        if (perf.cpu_explained)
            explanation_box(*perf.cpu_explained, ImVec2(o.x + wl + gap, o.y), ImVec2(wr, avail.y), theme().presenter);
        else
            plot_roofline(dl, perf, ImVec2(o.x + wl + gap, o.y), ImVec2(o.x + wl + gap + wr, o.y + avail.y));
        return;
    }
    plot_rungs(dl, perf, o, ImVec2(o.x + w, o.y + h));
    plot_sizes(dl, perf, ImVec2(o.x + w + gap, o.y), ImVec2(o.x + 2 * w + gap, o.y + h));
    plot_tiles(dl, perf, ImVec2(o.x, o.y + h + gap), ImVec2(o.x + w, o.y + 2 * h + gap));
    plot_roofline(dl, perf, ImVec2(o.x + w + gap, o.y + h + gap), ImVec2(o.x + 2 * w + gap, o.y + 2 * h + gap));
}

}  // namespace tilescope::ui
