#include "core/device/ceilings.h"

#include <algorithm>
#include <cmath>

#include "core/kernel/catalog.h"
#include "core/base/errors.h"

namespace tilescope {
namespace {

const KernelSpec& ceiling_kernel(const char* name) {
    static const std::vector<KernelSpec> specs =
        parse_catalog(embedded_text("kernels/ceilings/ceilings.json"), "kernels/ceilings");
    for (const KernelSpec& k : specs)
        if (k.name == name) return k;
    throw InputError(std::string("no ceiling kernel '") + name + "'");
}

// Independent chains per work-item: CPUs need 16 to fill their FMA pipes, GPUs hide the
// latency with other work-items (peak_flops.cl says what was measured).
int peak_chains(const Runner& runner) { return runner.device().is_gpu ? 4 : 16; }

// The fastest of the timed launches: a ceiling is what the device can do at best.
double best_time(Runner& runner, const LaunchConfig& c, const RunOptions& options) {
    RunOptions quiet = options;
    quiet.progress = nullptr;  // our own progress lines say what is measured
    const Measurement m = runner.measure(c, quiet);
    return m.min_s;
}

constexpr double kMinSeconds = 0.04;

}  // namespace

Ceilings measure_ceilings(Runner& runner, const RunOptions& options) {
    Ceilings out;
    // Peak: 512x512 work-items of K multiply-adds each; K grows until a launch is long enough.
    {
        const KernelSpec& k = ceiling_kernel("ceiling_flops");
        int64_t K = 1024;
        for (;;) {
            if (options.progress) options.progress("peak FLOP/s, " + std::to_string(K) + " multiply-adds per work-item");
            // Independent chains per work-item: CPUs need 16 to fill their FMA pipes, GPUs
            // hide the latency with other work-items (peak_flops.cl says what was measured).
            const LaunchConfig c{k, ProblemSize{512, 512, K}, 64, {{"CHAINS", runner.device().is_gpu ? 4 : 16}}, "given"};
            const double t = best_time(runner, c, options);
            const double flops = 2.0 * 512 * 512 * static_cast<double>(K);
            if (t >= kMinSeconds || K >= (int64_t{1} << 22)) {
                out.peak_gflops = flops / t * 1e-9;
                out.flops = flops;
                break;
            }
            K *= std::clamp<int64_t>(static_cast<int64_t>(kMinSeconds / std::max(t, 1e-7)) + 1, 2, 64);
            K = std::min<int64_t>(K, int64_t{1} << 22);
        }
    }
    // Bandwidth: copy a matrix at least four times the size of any last-level cache we
    // know of (256 MiB), or as much as the device allocates.
    {
        const KernelSpec& k = ceiling_kernel("ceiling_copy");
        const DeviceInfo& d = runner.device();
        uint64_t floats = uint64_t{64} << 20;  // 256 MiB
        floats = std::min<uint64_t>(floats, d.max_alloc / sizeof(float));
        floats = std::min<uint64_t>(floats, d.global_mem / 4 / sizeof(float));
        const int64_t cols = 4096, rows = std::max<int64_t>(1, static_cast<int64_t>(floats) / cols);
        if (options.progress) options.progress("bandwidth, copying " + std::to_string(rows * cols * 4 >> 20) + " MiB");
        const LaunchConfig c{k, ProblemSize{rows, cols, 1}, 64};
        const double t = best_time(runner, c, options);
        out.bytes = 8.0 * static_cast<double>(rows) * cols;
        out.bandwidth_gbs = out.bytes / t * 1e-9;
    }
    return out;
}

RatioSpread spread_of(std::vector<double> v) {
    RatioSpread s;
    if (v.empty()) return s;
    std::sort(v.begin(), v.end());
    // Linear interpolation between the closest ranks (p = 0.25, 0.5, 0.75 of n - 1).
    const auto at = [&](double p) {
        const double x = p * static_cast<double>(v.size() - 1);
        const size_t lo = static_cast<size_t>(x);
        const size_t hi = std::min(lo + 1, v.size() - 1);
        return v[lo] + (v[hi] - v[lo]) * (x - static_cast<double>(lo));
    };
    s.count = static_cast<int>(v.size());
    s.min = v.front();
    s.max = v.back();
    s.q1 = at(0.25);
    s.median = at(0.5);
    s.q3 = at(0.75);
    return s;
}

ProblemSize paired_peak_size(double flops, bool gpu, unsigned units) {
    const auto round_up = [](double x, int64_t step) {
        return static_cast<int64_t>(std::ceil(std::max(x, 1.0) / static_cast<double>(step))) * step;
    };
    if (gpu) {
        const int64_t K = std::clamp<int64_t>(round_up(flops / (2.0 * 512 * 512), 64), 1024, int64_t{1} << 22);
        return ProblemSize{512, 512, K};
    }
    constexpr int64_t kLongK = 16384, kStep = 256;
    const int64_t kMinItems = 64 * 8 * static_cast<int64_t>(std::clamp(units, 1u, 1024u));  // 8 groups of 64 a core
    int64_t K = kLongK;
    double items = flops / (2.0 * static_cast<double>(K));
    if (items < kMinItems) {
        items = kMinItems;
        K = std::clamp<int64_t>(round_up(flops / (2.0 * kMinItems), kStep), 1024, kLongK);
    }
    const int64_t rows = std::clamp<int64_t>(static_cast<int64_t>(std::llround(items / 64)), kMinItems / 64, int64_t{1} << 20);
    return ProblemSize{rows, 64, K};
}

PairedShare paired_share_of(Measurement peak, Measurement rung, const ProblemSize& peak_size, double rung_flops) {
    PairedShare out;
    out.peak_size = peak_size;
    out.peak_flops = 2.0 * static_cast<double>(peak_size.M) * static_cast<double>(peak_size.N) * static_cast<double>(peak_size.K);
    out.peak = std::move(peak);
    out.rung = std::move(rung);
    const bool verified = !out.rung.checked || out.rung.verification.verified;
    for (size_t i = 0; i < out.peak.times_s.size() && i < out.rung.times_s.size(); ++i) {
        const double p = out.peak.times_s[i] > 0 ? out.peak_flops / out.peak.times_s[i] * 1e-9 : 0;
        const double r = out.rung.times_s[i] > 0 && verified ? rung_flops / out.rung.times_s[i] * 1e-9 : 0;
        out.peak_gflops.push_back(p);
        out.rung_gflops.push_back(r);
        if (p > 0 && verified) out.ratios.push_back(r / p);
    }
    for (size_t i = 0; verified && i < out.peak.cpu_times_s.size() && i < out.rung.cpu_times_s.size(); ++i) {
        const double p = out.peak.cpu_times_s[i], r = out.rung.cpu_times_s[i];
        if (p > 0 && r > 0) out.cpu_ratios.push_back((rung_flops / r) / (out.peak_flops / p));
    }
    out.share = spread_of(out.ratios);
    out.cpu_share = spread_of(out.cpu_ratios);
    out.peak_median_gflops = spread_of(out.peak_gflops).median;
    out.rung_median_gflops = spread_of(out.rung_gflops).median;
    return out;
}

std::vector<PairedShare> measure_paired_shares(Runner& runner, const std::vector<LaunchConfig>& rungs, int pairs, int warmup,
                                               const RunOptions& options) {
    if (pairs < 1) throw InputError("--pairs " + std::to_string(pairs) + ": accepted: an integer of at least 1");
    std::vector<LaunchConfig> configs;  // peak_1 rung_1 peak_2 rung_2 ...: each pair back to back in every round
    std::vector<ProblemSize> peak_sizes;
    std::vector<double> flops;
    for (const LaunchConfig& rung : rungs) {
        const ResolvedLaunch launch = resolve(rung);
        peak_sizes.push_back(paired_peak_size(launch.flops, runner.device().is_gpu, runner.device().compute_units));
        flops.push_back(launch.flops);
        configs.push_back(LaunchConfig{ceiling_kernel("ceiling_flops"), peak_sizes.back(), 64,
                                       {{"CHAINS", peak_chains(runner)}}, "given"});
        configs.push_back(rung);
    }
    RunOptions ro = options;
    ro.reps = pairs;
    ro.warmup = warmup;
    std::vector<Measurement> m = runner.measure_interleaved(configs, ro);
    std::vector<PairedShare> out;
    for (size_t i = 0; i < rungs.size(); ++i)
        out.push_back(paired_share_of(std::move(m[2 * i]), std::move(m[2 * i + 1]), peak_sizes[i], flops[i]));
    return out;
}

PairedShare measure_paired_share(Runner& runner, const LaunchConfig& rung, int pairs, int warmup, const RunOptions& options) {
    return std::move(measure_paired_shares(runner, {rung}, pairs, warmup, options).front());
}

}  // namespace tilescope
