// What the cache model costs a trace (issue 11: at most 30% of a 128^3 trace's time).
// Runs the same trace REPS times without and with the cache requests recorded, the
// model applied to the latter, alternating; prints the medians of the whole run_trace
// call (the trace's time as a user waits for it) and of the model alone.
//
//   cache_bench KERNEL SIZE TILE [REPS=3] [PROFILE=h200]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "core/cache_trace.h"
#include "core/catalog.h"
#include "core/trace_runner.h"

using namespace tilescope;

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: cache_bench KERNEL SIZE TILE [REPS=3] [PROFILE=h200]\n");
        return 2;
    }
    const int reps = argc > 4 ? std::max(1, std::atoi(argv[4])) : 3;
    const std::string profile_name = argc > 5 ? argv[5] : "h200";
    int status = 0;
    try {
        const KernelSpec* rung = find_rung(argv[1]);
        if (!rung) throw std::runtime_error(std::string("no rung ") + argv[1]);
        const LaunchConfig config{*rung, parse_size(argv[2]), std::atoi(argv[3])};
        const CacheProfile profile = load_cache_profile(profile_name);
        use_emulator_only();  // as `tilescope trace` does
        std::vector<double> plain, with_caches, model_only;
        CacheReport report;
        for (int r = 0; r < reps; ++r) {
            TraceOptions o;  // trace's defaults: checks on, verification on
            auto t0 = std::chrono::steady_clock::now();
            run_trace(config, o);
            plain.push_back(seconds_since(t0));

            o.cache_requests = true;
            t0 = std::chrono::steady_clock::now();
            const Trace t = run_trace(config, o);
            const auto m0 = std::chrono::steady_clock::now();
            report = model_trace_caches(t, profile);
            model_only.push_back(seconds_since(m0));
            with_caches.push_back(seconds_since(t0));
        }
        const double p = median(plain), c = median(with_caches);
        std::printf("kernel=%s size=%s tile=%d profile=%s reps=%d trace_s=%.3f trace_with_caches_s=%.3f model_s=%.3f "
                    "overhead=%.1f%% l2_sectors=%llu\n",
                    argv[1], argv[2], config.tile, profile_name.c_str(), reps, p, c, median(model_only),
                    100.0 * (c - p) / p, static_cast<unsigned long long>(report.totals.l2_sectors));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cache_bench: %s\n", e.what());
        status = 1;
    }
    std::fflush(nullptr);
    std::_Exit(status);  // no static destructors: see tests/test_main.cpp
}
