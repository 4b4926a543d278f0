#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "args/options.h"
#include "core/base/atomic_file.h"
#include "core/device/ceilings.h"
#include "core/base/errors.h"

namespace tilescope::cli {

int cmd_ceilings(const std::vector<std::string>& args) {
    Options o("ceilings", {"device", "reps", "json"}, {"help"});
    o.parse(args);
    if (o.has("help")) {
        std::cout << "usage: tilescope ceilings [--device SEL] [--reps R] [--json PATH|-]\n"
                     "Measures the device's roofline ceilings with the kernels in kernels/ceilings/:\n"
                     "peak single-precision FLOP/s (multiply-adds in registers) and global-memory\n"
                     "bandwidth (a float4 copy of 256 MiB, bytes read plus written). Best of R runs.\n"
                     "The peak kernel (kernels/ceilings/peak_flops.cl) does nothing but independent\n"
                     "multiply-adds on float16 vectors held in registers (16 chains a work-item on a CPU,\n"
                     "enough to keep both FMA pipes of every core busy; 4 on a GPU), with no memory\n"
                     "traffic in the loop: the most FLOP/s the device's FMA units give at its clock.\n"
                     "A rung can only match it. On a shared machine it is measured while others run:\n"
                     "the performance view and bench --plan performance measure it again when it falls\n"
                     "below a rung, and flag it (\"not a roof\") when it still does.\n";
        return 0;
    }
    const int reps = o.get_int("reps", 5, 1, "an integer of at least 1");
    const auto json_path = o.get("json");
    if (json_path) check_writable(*json_path, "--json");
    const DeviceInfo& device = select_device(o.get_or("device", ""));
    if (device.is_emulator) throw InputError("--device emulator: the emulator has no speed to measure; pick a real device");
    install_interrupt_handler();
    Runner runner(device);
    RunOptions ro;
    ro.reps = reps;
    ro.cancelled = interrupted;
    ro.progress = [](const std::string& line) { std::fprintf(stderr, "ceilings: %s\n", line.c_str()); };
    const Ceilings c = measure_ceilings(runner, ro);
    if (json_path) {
        const nlohmann::json j = {{"device", device.label()}, {"peak_gflops", c.peak_gflops},
                                  {"bandwidth_gbs", c.bandwidth_gbs}, {"reps", reps}};
        write_file_atomically(*json_path, j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n", "--json");
    }
    if (!json_path || *json_path != "-")
        std::printf("device: %s\npeak FP32: %.1f GFLOP/s\nbandwidth: %.1f GB/s\nridge point: %.1f FLOPs per byte\n",
                    device.label().c_str(), c.peak_gflops, c.bandwidth_gbs, c.peak_gflops / c.bandwidth_gbs);
    return 0;
}

}  // namespace tilescope::cli
