// What the cache model costs a trace (issue 11: at most 30% of a 128^3 trace's time).
// Runs the same trace REPS times without and with the cache requests recorded, the
// model applied to the latter, alternating; prints the medians of the whole run_trace
// call (the trace's time as a user waits for it) and of the model alone, as wall time
// and as CPU time of every thread (steadier on a shared machine; the overhead is
// computed from CPU time).
//
//   cache_bench KERNEL SIZE TILE [REPS=3] [PROFILE=h200]
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "core/caches/cache_trace.h"
#include "core/kernel/catalog.h"
#include "core/emulator/trace_runner.h"

using namespace tilescope;

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

double cpu_seconds() {  // user + system time of every thread of the process so far
    rusage r{};
    getrusage(RUSAGE_SELF, &r);
    return double(r.ru_utime.tv_sec + r.ru_stime.tv_sec) + 1e-6 * double(r.ru_utime.tv_usec + r.ru_stime.tv_usec);
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
        std::vector<double> plain, with_caches, model_only, plain_cpu, with_caches_cpu;
        CacheReport report;
        for (int r = 0; r < reps; ++r) {
            TraceOptions o;  // trace's defaults: checks on, verification on
            auto t0 = std::chrono::steady_clock::now();
            double c0 = cpu_seconds();
            run_trace(config, o);
            plain.push_back(seconds_since(t0));
            plain_cpu.push_back(cpu_seconds() - c0);

            o.cache_requests = true;
            t0 = std::chrono::steady_clock::now();
            c0 = cpu_seconds();
            const Trace t = run_trace(config, o);
            const auto m0 = std::chrono::steady_clock::now();
            report = model_trace_caches(t, profile);
            model_only.push_back(seconds_since(m0));
            with_caches.push_back(seconds_since(t0));
            with_caches_cpu.push_back(cpu_seconds() - c0);
        }
        const double p = median(plain_cpu), c = median(with_caches_cpu);
        std::printf("kernel=%s size=%s tile=%d profile=%s reps=%d trace_s=%.3f trace_with_caches_s=%.3f "
                    "trace_cpu_s=%.3f trace_with_caches_cpu_s=%.3f model_s=%.3f overhead_cpu=%.1f%% l2_sectors=%llu\n",
                    argv[1], argv[2], config.tile, profile_name.c_str(), reps, median(plain), median(with_caches), p, c,
                    median(model_only), 100.0 * (c - p) / p, static_cast<unsigned long long>(report.totals.l2_sectors));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cache_bench: %s\n", e.what());
        status = 1;
    }
    std::fflush(nullptr);
    std::_Exit(status);  // no static destructors: see tests/test_main.cpp
}
