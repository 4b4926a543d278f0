// The emulator's own benchmark (issue 3): one launch of a rung on Oclgrind, traced or
// bare, in a process of its own so its peak resident memory is the run's. Prints one
// line; scripts/bench_emulator.sh runs it over sizes and tabulates.
//
//   trace_bench KERNEL SIZE TILE [--bare] [--no-checks] [--groups G;G..]
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "core/kernel/catalog.h"
#include "core/emulator/trace_runner.h"

using namespace tilescope;

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: trace_bench KERNEL SIZE TILE [--bare] [--no-checks] [--groups G;G..]\n");
        return 2;
    }
    bool bare = false;
    TraceOptions options;
    for (int i = 4; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--bare")) bare = true;
        else if (!std::strcmp(argv[i], "--no-checks")) options.checks = false;
        else if (!std::strcmp(argv[i], "--groups") && i + 1 < argc) options.groups = parse_groups(argv[++i]);
    }
    int status = 0;
    try {
        const KernelSpec* rung = find_rung(argv[1]);
        if (!rung) throw std::runtime_error(std::string("no rung ") + argv[1]);
        LaunchConfig config;
        config.kernel = *rung;
        config.size = parse_size(argv[2]);
        config.tile = std::atoi(argv[3]);
        use_emulator_only();  // as `tilescope trace` does: no other driver in the process
        double seconds = 0;
        size_t detail_groups = 0;
        rusage before{};
        getrusage(RUSAGE_SELF, &before);
        if (bare) {
            seconds = time_bare_emulation(config, options);
        } else {
            const Trace t = run_trace(config, options);
            seconds = t.seconds;
            detail_groups = t.detail.size();
        }
        rusage ru{};
        getrusage(RUSAGE_SELF, &ru);
        // CPU time of every thread over the whole call (build, launch, for a trace also
        // verification): steadier than wall time on a shared machine.
        auto cpu = [](const rusage& r) {
            return double(r.ru_utime.tv_sec + r.ru_stime.tv_sec) + 1e-6 * double(r.ru_utime.tv_usec + r.ru_stime.tv_usec);
        };
        std::printf("mode=%s kernel=%s size=%s tile=%d checks=%s seconds=%.3f cpu_s=%.3f maxrss_mb=%ld detail_groups=%zu\n",
                    bare ? "bare" : "trace", argv[1], argv[2], config.tile, options.checks ? "on" : "off", seconds,
                    cpu(ru) - cpu(before), ru.ru_maxrss / 1024, detail_groups);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "trace_bench: %s\n", e.what());
        status = 1;
    }
    std::fflush(nullptr);
    std::_Exit(status);  // no static destructors: see tests/test_main.cpp
}
