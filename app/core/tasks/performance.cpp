#include "core/tasks/performance.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>

#include "core/base/errors.h"
#include "core/caches/cache_trace.h"
#include "core/device/ceilings.h"
#include "core/device/spread.h"
#include "core/device/runner.h"
#include "core/emulator/trace_runner.h"
#include "core/kernel/catalog.h"
#include "core/tasks/caches.h"
#include "core/tasks/trace.h"
#include "core/tasks/cpu_explain.h"
#include "core/tuning/tuning.h"

namespace tilescope::tasks {
namespace {

std::string point_label(const LaunchConfig& c) {
    std::string s = c.kernel.name + " " + c.size.label();
    if (c.kernel.library.empty()) s += " TS=" + std::to_string(c.tile);
    return s;
}

// What makes two points the same run: kernel (and a custom kernel's source), sizes, tile,
// padded copies allowed or not, and every parameter in effect.
std::string run_key(const LaunchConfig& c) {
    std::string k = c.kernel.name + "|" + (c.kernel.custom ? c.kernel.source : std::string()) + "|" + c.size.label() + "|" +
                    std::to_string(c.tile) + (c.pad ? "|pad" : "|nopad");
    for (const auto& [name, value] : c.params) k += "|" + name + "=" + std::to_string(value);
    return k;
}

// Models one rung's trace with the profile of the measured device (h200 when none fits):
// its DRAM intensity, and its figures for the ladder chart.
void add_modelled_rung(PerformanceResult& perf, const Trace& trace, const DeviceInfo& device) {
    if (perf.cache_profile.empty()) {
        perf.cache_profile = cache_profile_for(device);
        if (perf.cache_profile.empty()) perf.cache_profile = "h200";
    }
    const CacheModelOutcome modelled = model_caches(trace, perf.cache_profile);
    const CacheReport* report = modelled.report ? &*modelled.report : nullptr;  // none: the figures stay traced only
    if (report && !perf.intensity.empty() && perf.intensity.back().kernel == trace.kernel) {
        const double dram = double(report->totals.dram_read_bytes + report->totals.dram_write_bytes);
        if (dram > 0) perf.intensity.back().dram_flops_per_byte = trace.totals.flops / dram;
    }
    perf.ladder.push_back(ladder_figures(trace, report, std::nullopt));
}

std::string gflops_text(double g) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", g);
    return buf;
}

}  // namespace

std::string fastest_line(const FastestMeasured& f) {
    std::string s = f.pick.choice.kernel + " TS=" + std::to_string(f.pick.choice.tile);
    for (const auto& [name, value] : f.pick.choice.params) s += " " + name + "=" + std::to_string(value);
    s += " [" + f.pick.note + "]: ";
    if (f.measured && f.measured->gflops > 0)
        s += gflops_text(f.measured->gflops) + " GFLOP/s (measured)";
    else if (f.measured)
        s += "did not verify";
    else
        s += "refused (" + f.refused + ")";
    return s + ". Why: " + f.pick.reason;
}

std::optional<RoofBelowRung> roof_below_rung(const PerformanceResult& result) {
    if (!(result.peak_gflops > 0)) return std::nullopt;
    std::optional<RoofBelowRung> out;
    auto consider = [&](const Measurement& m) {
        if (!(m.gflops > result.peak_gflops)) return;  // gflops is 0 unless verified
        if (!out || m.gflops > out->rung_gflops) out = RoofBelowRung{m.kernel, m.gflops, result.peak_gflops};
    };
    for (const auto* list : {&result.rungs, &result.sweep_sizes, &result.sweep_tiles})
        for (const Measurement& m : *list) consider(m);
    if (result.fastest && result.fastest->measured) consider(*result.fastest->measured);
    return out;
}

std::string roof_below_text(const RoofBelowRung& r, bool brief) {
    return "peak " + gflops_text(r.peak_gflops) + " GFLOP/s (measured" + (r.measurements > 1 ? " twice" : "") + ")" +
           (brief ? "" : " is below " + r.kernel + "'s " + gflops_text(r.rung_gflops)) + ": not a roof";
}

std::optional<PickBeaten> pick_beaten(const PerformanceResult& result) {
    if (!result.fastest || !result.fastest->measured || !(result.fastest->measured->gflops > 0)) return std::nullopt;
    const Measurement& pick = *result.fastest->measured;
    const Measurement* best = nullptr;
    for (const Measurement& m : result.rungs)  // gflops is 0 unless verified
        if (m.gflops > pick.gflops && (!best || m.gflops > best->gflops)) best = &m;
    if (!best) return std::nullopt;
    return PickBeaten{best->kernel, best->tile, best->gflops, pick.gflops, within_noise(gflops_spread(*best), gflops_spread(pick))};
}

std::string pick_beaten_text(const PickBeaten& b) {
    return b.kernel + " TS=" + std::to_string(b.tile) + " measured faster in this run: " + gflops_text(b.gflops) +
           " GFLOP/s against the pick's " + gflops_text(b.pick_gflops) +
           (b.within_noise ? " (their runs overlap: within noise, not ranked)"
                           : " (their runs apart). The pick follows the tuning data, measured before; 'Tune this device' "
                             "(tilescope tune --quick) measures this device again");
}

const char* to_string(PlanPart part) {
    switch (part) {
        case PlanPart::rungs: return "rungs";
        case PlanPart::sizes: return "sizes";
        case PlanPart::tiles: return "tiles";
    }
    return "rungs";
}

PerformancePlan performance_plan(const std::string& device, int size, const std::optional<LaunchConfig>& custom) {
    PerformancePlan plan;
    plan.device = device;
    plan.size = size;
    const ProblemSize square{size, size, size};
    for (const KernelSpec& k : ladder()) plan.points.push_back({PlanPart::rungs, LaunchConfig{k, square, k.default_tile}, true});
    if (custom && custom->kernel.custom) {  // the student's kernel, beside the ladder, at the same size
        LaunchConfig c = *custom;
        c.size = square;
        plan.points.push_back({PlanPart::rungs, c, false});
    }
    std::vector<int> sizes = {64, 128, 256, 512};
    if (std::find(sizes.begin(), sizes.end(), size) == sizes.end()) {
        sizes.push_back(size);
        std::sort(sizes.begin(), sizes.end());
    }
    for (const char* name : {"naive", "tiled"})
        if (const KernelSpec* k = find_rung(name))
            for (int n : sizes)
                plan.points.push_back({PlanPart::sizes, LaunchConfig{*k, ProblemSize{n, n, n}, k->default_tile}, true});
    if (const KernelSpec* k = find_rung("tiled"))
        for (int t : {4, 8, 16, 32}) plan.points.push_back({PlanPart::tiles, LaunchConfig{*k, square, t}, false});
    for (const KernelSpec& k : ladder())
        if (k.library.empty()) plan.intensity.push_back(LaunchConfig{k, ProblemSize{64, 64, 64}, k.default_tile});
    // A kernel from a file is traced only once trusted (a --source is), and then in a child
    // process (core/io/contained_trace.h), as it is measured.
    if (custom && custom->kernel.custom && (custom->kernel.carried_by.empty() || custom->kernel.trusted)) {
        LaunchConfig c = *custom;
        c.size = ProblemSize{64, 64, 64};
        plan.intensity.push_back(c);
    }
    return plan;
}

PerformanceResult run_performance_plan(const PerformancePlan& plan, const TaskProgress& progress,
                                       const std::function<void(const PlanPointDone&)>& on_point) {
    PerformanceResult p;
    p.size = plan.size;
    const DeviceInfo& dev = select_device(plan.device);
    if (dev.is_emulator)
        throw InputError("the emulator's times mean nothing; pick a real device to measure on");
    p.device = dev.label();
    p.device_info = dev;
    Runner runner(dev);
    RunOptions ro;
    ro.reps = plan.reps;
    ro.warmup = plan.warmup;
    ro.cancelled = progress.cancelled;
    const uint64_t total = plan.points.size() + (plan.ceilings ? 2 : 0) + plan.intensity.size();
    uint64_t done = 0;
    progress.advance(done, total);

    std::map<std::string, Measurement> ran;  // run_key -> its measurement
    // Every point; how long a rung's measure took is what one point of `tune --quick` costs,
    // for the GUI's "about N s".
    for (const PlanPoint& point : plan.points) {
        progress.throw_if_cancelled();
        LaunchConfig c = point.config;
        if (point.device_tuning) apply_tuning(c, dev);  // its own, a similar device's, its type's; the row says which
        if (!c.tuning_origin.empty()) {
            // A tuned point that cannot run here falls back to the defaults, said with its file.
            try {
                runner.validate(c, progress.cancelled);
            } catch (const InputError& e) {
                progress.say("tuned TS=" + std::to_string(c.tile) + " from '" + c.tuning_origin + "' cannot be used (" +
                             e.what() + "); using the defaults");
                c = point.config;
            }
        }
        const std::string key = run_key(c);
        if (const auto it = ran.find(key); it != ran.end()) {  // one configuration, one set of runs
            std::vector<Measurement>& into = point.part == PlanPart::sizes ? p.sweep_sizes : point.part == PlanPart::tiles ? p.sweep_tiles : p.rungs;
            into.push_back(it->second);
            progress.advance(++done, total);
            if (on_point) on_point(PlanPointDone{point, c, &it->second, "", true});
            continue;
        }
        progress.say("measuring " + point_label(c) + " on " + dev.name);
        const auto t0 = std::chrono::steady_clock::now();
        std::optional<Measurement> m;
        std::string refused;
        try {
            m = runner.measure(c, ro);
            ran[key] = *m;
        } catch (const InputError& e) {
            refused = e.what();
            progress.say(point_label(c) + ": " + refused);
            p.refused.push_back(point_label(c) + ": " + refused);
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (point.part == PlanPart::rungs) p.rung_seconds[c.kernel.name] = seconds;
        if (m) {
            std::vector<Measurement>& into = point.part == PlanPart::rungs   ? p.rungs
                                             : point.part == PlanPart::sizes ? p.sweep_sizes
                                                                             : p.sweep_tiles;
            into.push_back(*m);
        }
        progress.advance(++done, total);
        if (on_point) on_point(PlanPointDone{point, c, m ? &*m : nullptr, refused});
    }
    // The rung the tuning data pick at this size, as `bench --kernel fastest` measures it.
    if (plan.fastest) {
        progress.throw_if_cancelled();
        const ProblemSize square{plan.size, plan.size, plan.size};
        // As bench: a size that is no row of the tables has its nearest rows' points timed here
        // first (cancellable, a progress line), the fastest remembered for the next Measure.
        RunOptions po = ro;
        po.progress = [&progress](const std::string& line) { progress.say(line); };
        std::optional<TimedPick> timed;
        try {
            timed = timed_fastest_pick(runner, dev, square, true, po);
        } catch (const InputError& e) {
            p.refused.push_back("fastest " + square.label() + ": " + e.what());
        }
        if (timed && find_rung(timed->pick.choice.kernel)) {
            const FastestPick* pick = &timed->pick;
            FastestMeasured f{*pick, std::nullopt, ""};
            LaunchConfig c = pick_config(*pick, square, true);  // as bench's --pad auto
            try {
                // the configuration of a bar measured above is that bar's runs: one number for both
                if (const auto it = ran.find(run_key(c)); it != ran.end()) {
                    f.measured = it->second;
                } else {
                    progress.say("measuring the rung picked for you (fastest): " + point_label(c) + " on " + dev.name);
                    f.measured = runner.measure(c, ro);
                }
            } catch (const InputError& e) {
                f.refused = e.what();
                p.refused.push_back("fastest " + point_label(c) + ": " + f.refused);
            }
            p.fastest = std::move(f);
        }
    }
    // The ceilings, measured here by kernels/ceilings/ (core/device/ceilings: sized until a
    // launch is long enough and the copy outgrows the caches).
    if (plan.ceilings) {
        RunOptions co = ro;
        co.reps = plan.ceiling_reps;
        co.progress = [&progress](const std::string& line) { progress.say("measuring " + line); };
        const Ceilings c = measure_ceilings(runner, co);
        p.peak_gflops = c.peak_gflops;
        p.bandwidth_gbs = c.bandwidth_gbs;
        // A peak below a rung just measured was taken while the machine was busier: once more,
        // keeping the higher; still below, it is flagged (roof_below), never drawn as a roof.
        if (const auto below = roof_below_rung(p)) {
            progress.say(roof_below_text(*below) + "; measuring the peak again");
            const Ceilings again = measure_ceilings(runner, co);
            p.peak_gflops = std::max(p.peak_gflops, again.peak_gflops);
            p.roof_below = roof_below_rung(p);
            if (p.roof_below) p.roof_below->measurements = 2;
        }
        done += 2;
        progress.advance(done, total);
    }
    // Arithmetic intensity from traced global bytes; the cache model's DRAM bytes beside them.
    for (const LaunchConfig& c : plan.intensity) {
        progress.throw_if_cancelled();
        progress.say("tracing " + c.kernel.name + " at " + c.size.label() + " for its arithmetic intensity");
        TraceOptions to = figures_trace_options(progress);  // the roofline and the ladder model the caches
        to.named_as = "the trace of '" + c.kernel.name + "' at " + c.size.label();  // a refusal names no option
        try {
            const Trace t = run_trace(c, to);
            const double bytes = double(t.totals.global_load_bytes + t.totals.global_store_bytes);
            if (bytes > 0) p.intensity.push_back({c.kernel.name, c.kernel.title, c.tile, t.totals.flops / bytes});
            add_modelled_rung(p, t, dev);
        } catch (const InputError& e) {
            progress.say(c.kernel.name + ": " + e.what());
            p.refused.push_back("trace " + point_label(c) + ": " + e.what());
        }
        progress.advance(++done, total);
    }
    // On a CPU: naive against tiled, explained from these runs, the ceilings' device and the
    // traces above (issue 21).
    if (dev.is_cpu) {
        const Measurement *naive = nullptr, *tiled = nullptr;
        for (const Measurement& m : p.rungs) {
            if (m.kernel == "naive" && !naive) naive = &m;
            if (m.kernel == "tiled" && !tiled) tiled = &m;
        }
        int traced_size = 0;
        for (const LaunchConfig& c : plan.intensity)
            if (c.kernel.name == "tiled") traced_size = int(c.size.M);
        if (naive && tiled) {
            try {
                p.cpu_explained = explain_cpu(cpu_explain_input(*naive, *tiled, dev, p.ladder, traced_size));
            } catch (const InputError& e) {  // no cache profile: said, not fatal
                p.refused.push_back(std::string("explain naive against tiled: ") + e.what());
            }
        }
    }
    return p;
}

}  // namespace tilescope::tasks
