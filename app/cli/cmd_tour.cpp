#include <cstdio>
#include <iostream>

#include "cli/cli.h"
#include "cli/options.h"
#include "core/catalog.h"
#include "core/errors.h"
#include "core/runner.h"

namespace tilescope::cli {

// A terminal walk through the ladder: what each rung teaches, its NDRange, and its
// verified GFLOP/s measured here and now on the default device.
int cmd_tour(const std::vector<std::string>& args) {
    Options o("tour", {"device", "size"}, {"help"});
    o.parse(args);
    if (o.has("help")) {
        std::cout << "usage: tilescope tour [--device SEL] [--size S]\n"
                     "Walks through the kernel ladder in the terminal: the idea of each rung, its NDRange,\n"
                     "and its verified GFLOP/s measured on the device (default: first GPU, else CPU).\n";
        return 0;
    }
    const ProblemSize size = parse_size(o.get_or("size", "256"));
    const DeviceInfo& device = select_device(o.get_or("device", ""));
    install_interrupt_handler();
    std::printf("tilescope tour: matrix multiplication C = A*B, A is %lldx%lld, B is %lldx%lld (row-major)\n"
                "The course slides call A, B, C the matrices M, N and P.\nDevice: %s\n\n",
                static_cast<long long>(size.M), static_cast<long long>(size.K), static_cast<long long>(size.K),
                static_cast<long long>(size.N), device.label().c_str());
    Runner runner(device);
    int step = 1;
    for (const KernelSpec& k : ladder()) {
        LaunchConfig c{k, size, k.default_tile};
        const ResolvedLaunch r = resolve(c);
        std::printf("%d. %s\n   %s\n", step++, k.title.c_str(), k.lesson.c_str());
        if (k.library.empty())
            std::printf("   NDRange %s in work-groups of %s (%s, TS=%d)\n", r.global_text().c_str(), r.local_text().c_str(),
                        k.tile_meaning.c_str(), c.tile);
        std::fflush(stdout);
        RunOptions ro;
        ro.reps = 3;
        ro.cancelled = interrupted;
        try {
            const Measurement m = runner.measure(c, ro);
            if (m.verification.verified)
                std::printf("   measured: %.3f ms median, %.2f GFLOP/s, verified (max relative error %.1e)\n\n",
                            m.median_s * 1e3, m.gflops, m.verification.max_rel_error);
            else
                std::printf("   measured: %s\n\n", m.verification.summary().c_str());
        } catch (const InputError& e) {
            std::printf("   not run here: %s\n\n", e.what());
        }
    }
    std::printf("Next: 'tilescope trace --kernel tiled --size 32 --tile 8' counts every load on the emulator;\n"
                "'tilescope bench --kernel all --size 1024' measures the whole ladder.\n");
    return 0;
}

}  // namespace tilescope::cli
