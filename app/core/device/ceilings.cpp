#include "core/device/ceilings.h"

#include <algorithm>

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

}  // namespace tilescope
