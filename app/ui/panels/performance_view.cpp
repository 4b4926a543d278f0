// Performance: measured GFLOP/s of every rung, against size, over tile sizes, and a
// roofline whose ceilings are measured by kernels/ceilings/ and whose arithmetic
// intensities come from traced global bytes.
#include <algorithm>
#include <cmath>
#include <cstdio>

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

// Every rung at one size, horizontal bars so the names stay readable.
void plot_rungs(ImDrawList* dl, const Performance& perf, ImVec2 p0, ImVec2 p1) {
    const Palette& pal = theme().pal;
    const float fh = ImGui::GetFontSize();
    double xmax = 1;
    float name_w = 0;
    for (const Measurement& m : perf.rungs) {
        xmax = std::max(xmax, m.gflops);
        name_w = std::max(name_w, ImGui::CalcTextSize(m.kernel.c_str()).x);
    }
    const double n = double(std::max<size_t>(1, perf.rungs.size()));
    // Each bar's label (GFLOP/s and where its tuning came from) right of the bar: the axis
    // reaches far enough that the longest bar's label fits (as PlotFrame places its plot).
    std::vector<std::string> labels;
    const double inner = std::max(fh * 4.0, double(p1.x - p0.x) - fh * (name_w / fh + 0.8f) - fh * 0.8f);
    double xrange = xmax * 1.15;
    for (const Measurement& m : perf.rungs) {
        const std::string src = short_source(m);
        labels.push_back(short_number(m.gflops) + (src.empty() ? "" : "  " + src));
        const double room = 1.0 - std::min(0.7, (ImGui::CalcTextSize(labels.back().c_str()).x + 10) / inner);
        xrange = std::max(xrange, m.gflops / room);
    }
    PlotFrame f(dl, p0, p1, "every rung, " + std::to_string(perf.size) + "\u00b3",
                "GFLOP/s (measured)", "", 0, xrange, n - 0.5, -0.5, false, false, name_w / fh + 0.8f);
    f.x_ticks_auto();
    const double hh = std::max(2.0, (f.plot_max().y - f.plot_min().y) / n * 0.36);
    for (size_t i = 0; i < perf.rungs.size(); ++i)
        f.hbar(double(i), hh, perf.rungs[i].gflops, pal.series[i % 6], perf.rungs[i].kernel, labels[i]);
}

// GFLOP/s against size, naive and tiled.
void plot_sizes(ImDrawList* dl, const Performance& perf, ImVec2 p0, ImVec2 p1) {
    const Palette& pal = theme().pal;
    double ymax = 1;
    std::vector<std::string> names;
    for (const Measurement& m : perf.sweep_sizes) {
        ymax = std::max(ymax, m.gflops);
        if (std::find(names.begin(), names.end(), m.kernel) == names.end()) names.push_back(m.kernel);
    }
    PlotFrame f(dl, p0, p1, "GFLOP/s against size", "M = N = K (log scale)", "GFLOP/s (measured)",
                48, 700, 0, ymax * 1.2, true, false);
    f.y_ticks_auto();
    f.x_ticks({64, 128, 256, 512}, {"64", "128", "256", "512"});
    std::vector<std::pair<std::string, ImU32>> legend;
    for (size_t n = 0; n < names.size(); ++n) {
        std::vector<double> xs, ys;
        for (const Measurement& m : perf.sweep_sizes)
            if (m.kernel == names[n]) {
                xs.push_back(double(m.size.M));
                ys.push_back(m.gflops);
            }
        const ImU32 c = pal.series[(n * 3) % 6];
        f.line(xs, ys, c, theme().line);
        legend.push_back({names[n], c});
    }
    f.legend(legend);
}

// The tile sweep: tiled at one size over TS.
void plot_tiles(ImDrawList* dl, const Performance& perf, ImVec2 p0, ImVec2 p1) {
    const Palette& pal = theme().pal;
    double ymax = 1;
    for (const Measurement& m : perf.sweep_tiles) ymax = std::max(ymax, m.gflops);
    PlotFrame f(dl, p0, p1, "tile sweep: tiled at " + std::to_string(perf.size) + "\u00b3",
                "TS (work-group TS x TS)", "GFLOP/s (measured)", -0.5, double(perf.sweep_tiles.size()) - 0.5, 0, ymax * 1.2, false, false);
    f.y_ticks_auto();
    std::vector<double> at;
    std::vector<std::string> labels;
    const double hw = (f.plot_max().x - f.plot_min().x) / double(std::max<size_t>(1, perf.sweep_tiles.size())) * 0.3;
    for (size_t i = 0; i < perf.sweep_tiles.size(); ++i) {
        f.bar(double(i), hw, perf.sweep_tiles[i].gflops, pal.series[2], short_number(perf.sweep_tiles[i].gflops));
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
        if (m.gflops > 0) ymin = std::min(ymin, m.gflops);
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
    f.line(xs, ys, pal.outline, theme().line, false);
    char buf[96];
    std::snprintf(buf, sizeof buf, "peak %.0f GFLOP/s (measured)", peak);
    f.text(ImVec2(f.map(30, peak).x - ImGui::CalcTextSize(buf).x, f.map(30, peak).y - fh * 1.2f), pal.text, buf);
    std::snprintf(buf, sizeof buf, "%.1f GB/s (measured)", bw);
    const ImVec2 q = f.map(0.06, 0.06 * bw);
    f.text(ImVec2(q.x + 4, q.y - fh * 1.3f), pal.text, buf);
    std::vector<LabelledPoint> points;
    for (size_t i = 0; i < perf.intensity.size(); ++i) {
        const auto& ai = perf.intensity[i];
        for (const Measurement& m : perf.rungs)
            if (m.kernel == ai.kernel && m.gflops > 0) points.push_back({ai.flops_per_byte, m.gflops, pal.series[i % 6], ai.kernel});
    }
    f.points(points);
    draw_hierarchical_points(f, hierarchical_points(perf), perf.cache_profile);  // modelled DRAM intensity
}

}  // namespace

void start_performance(AppState& state) {
    if (state.perf.job && !state.perf.job->done) return;
    state.perf.error.clear();
    // the plan `tilescope bench --plan performance --size N` runs too
    // with the custom kernel on show, if any: a student's kernel is measured beside the ladder
    std::optional<LaunchConfig> custom;
    if (state.main.config && state.main.config->kernel.custom) custom = *state.main.config;
    const tasks::PerformancePlan plan = tasks::performance_plan(state.device_sel, state.perf.size, custom);
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

void draw_performance_view(AppState& state, ImVec2 size) {
    Performance& perf = state.perf;
    poll_performance(perf);
    const Palette& pal = theme().pal;
    const float fh = ImGui::GetFontSize();
    if (!perf.ready()) {
        if (perf.job) {
            ImGui::Text("Measuring on the device... %s", perf.job->message().c_str());
            ImGui::ProgressBar(perf.job->fraction(), ImVec2(std::min(size.x, 600.f), 0));
        } else {
            ImGui::TextWrapped("GFLOP/s of every rung, measured on the selected real device (never the emulator), "
                               "with the roofline's ceilings measured by small OpenCL kernels.");
            ImGui::SetNextItemWidth(fh * 8);
            ImGui::InputInt("size", &perf.size, 64);
            perf.size = std::clamp(perf.size, 16, 4096);
            if (ImGui::Button("Measure")) start_performance(state);
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
    ImGui::TextWrapped("%s: median of 3 verified runs. Ceilings measured by kernels/ceilings/: %.1f GFLOP/s, %.1f GB/s",
                perf.device.substr(perf.device.rfind(" / ") == std::string::npos ? 0 : perf.device.rfind(" / ") + 3, 40).c_str(),
                perf.peak_gflops, perf.bandwidth_gbs);
    draw_tuning_strip(state, ImGui::GetContentRegionAvail().x);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float gap = fh * 0.6f, w = (avail.x - gap) / 2, h = (avail.y - gap) / 2;
    // A projector's short window cannot hold four plots in presenter type: the rungs and the
    // roofline get the whole height (the sweeps are one F5 away).
    if (theme().presenter && avail.y < fh * 30) {
        plot_rungs(dl, perf, o, ImVec2(o.x + w, o.y + avail.y));
        plot_roofline(dl, perf, ImVec2(o.x + w + gap, o.y), ImVec2(o.x + 2 * w + gap, o.y + avail.y));
        return;
    }
    plot_rungs(dl, perf, o, ImVec2(o.x + w, o.y + h));
    plot_sizes(dl, perf, ImVec2(o.x + w + gap, o.y), ImVec2(o.x + 2 * w + gap, o.y + h));
    plot_tiles(dl, perf, ImVec2(o.x, o.y + h + gap), ImVec2(o.x + w, o.y + 2 * h + gap));
    plot_roofline(dl, perf, ImVec2(o.x + w + gap, o.y + h + gap), ImVec2(o.x + 2 * w + gap, o.y + 2 * h + gap));
}

}  // namespace tilescope::ui
