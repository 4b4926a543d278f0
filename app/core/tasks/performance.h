#pragma once
// The performance view's measurements as one plan and one task: every rung at one size
// with the device's tuning, naive and tiled over sizes, tiled over tile sizes, the
// roofline's ceilings (kernels/ceilings/), and each rung's arithmetic intensity traced on
// the emulator with its DRAM traffic modelled. The GUI's Measure runs it on its worker;
// `tilescope bench --plan performance` runs the same plan from the command line.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/device/device_info.h"
#include "core/device/measurement.h"
#include "core/kernel/launch_config.h"
#include "core/tasks/task.h"
#include "core/teach/cpu_explained.h"
#include "core/teach/ladder_explained.h"
#include "core/tuning/tuning.h"

namespace tilescope::tasks {

// Which plot a measured point is for.
enum class PlanPart { rungs, sizes, tiles };
const char* to_string(PlanPart part);  // "rungs", "sizes", "tiles"

struct PlanPoint {
    PlanPart part = PlanPart::rungs;
    LaunchConfig config;         // as planned: the rung's default tile and parameters
    bool device_tuning = false;  // the device's tuning (core/tuning apply_tuning) replaces them when the plan runs
};

struct PerformancePlan {
    std::string device;              // SEL as --device takes it; "" the default device (never the emulator)
    int size = 256;                  // M = N = K of the rungs and the tile sweep
    int reps = 3, warmup = 1;        // of every measured point (RunOptions)
    std::vector<PlanPoint> points;   // measured in this order
    bool ceilings = true;            // measure peak GFLOP/s and bandwidth
    int ceiling_reps = 5;
    std::vector<LaunchConfig> intensity;  // traced on the emulator for their global (and modelled DRAM) intensity
    bool fastest = true;             // also measure the rung the tuning data pick at size³ (`bench --kernel fastest`)
};

// What the GUI's Measure (and its "Measure and trace every rung") measures on `device` at
// `size`: every rung at size³ with the device's tuning; naive and tiled at 64, 128, 256,
// 512 and size (when it is none of those) with the device's tuning too, so the point at
// size³ is the rung's own configuration and shares its runs (one figure, one value);
// tiled at size³ with TS 4, 8, 16, 32; the ceilings;
// every rung but the library ones traced at 64³ (the ratio is a property of the access
// pattern, not of the size). A custom kernel (a student's .cl file, `custom`) is measured
// beside the rungs at size³ with its own NDRange and arguments, and traced at 64³ too.
PerformancePlan performance_plan(const std::string& device, int size,
                                 const std::optional<LaunchConfig>& custom = std::nullopt);

// The rung the device's tuning data pick at the plan's size (issue 30 item 3: the GUI's
// Measure asks for "fastest" as `bench --kernel fastest` does, with the same timed_fastest_pick:
// at a size that is no row, the nearest rows' points timed first, cancellable),
// measured with the picked tile and parameters, and the one line that says why.
struct FastestMeasured {
    FastestPick pick;                    // rung, tile, parameters, where the table came from, the reason
    std::optional<Measurement> measured; // empty when the device refused the picked point
    std::string refused;                 // why, when it did
};

// "cpu_panel TS=32 [tuned here]: 212.4 GFLOP/s (measured). Why: ..." for a table row or the view.
std::string fastest_line(const FastestMeasured& f);

struct PerformanceResult;

// A measured ceiling below a rung measured in the same plan (issue 30 item 4). The peak kernel
// is the most FLOP/s a device can do, so a rung above it means the ceiling was measured while
// the machine was busier (a shared CPU): it is not a roof and must not be drawn as one.
struct RoofBelowRung {
    std::string kernel;       // the fastest verified point above the peak
    double rung_gflops = 0;   // its median GFLOP/s
    double peak_gflops = 0;   // the ceiling as finally measured
    int measurements = 1;     // how many times the ceiling was measured (once more when first below)
};
// The fastest verified point of `result` (rungs, sweeps, the fastest pick) above its peak, or
// nullopt when the peak is above every one of them (or was not measured).
std::optional<RoofBelowRung> roof_below_rung(const PerformanceResult& result);
// "peak 250.6 GFLOP/s (measured) is below cpu_panel's 255.0: not a roof" for labels and tables;
// brief: "peak 250.6 GFLOP/s (measured): not a roof", for the roofline's own line.
std::string roof_below_text(const RoofBelowRung& r, bool brief = false);

// A rung's bar of the same plan measured faster than the rung picked for you. The pick follows
// the tuning data (measured before, at this or the nearest shape, maybe on a similar device);
// the bars are measured now, so a bar can beat it: on a shared 2-core CPU at 256^3 the pick
// (cpu_panel, 20.9 GFLOP/s) stood beside a reg2d_vec bar at 26.2. Said beside the pick, with
// whether the two runs' ranges overlap (within noise) or lie apart.
struct PickBeaten {
    std::string kernel;        // the fastest verified bar faster than the pick
    int tile = 0;
    double gflops = 0;         // its median GFLOP/s
    double pick_gflops = 0;    // the pick's median
    bool within_noise = false; // their slowest-to-fastest ranges overlap
};
// nullopt when nothing was picked or measured for the pick, or no bar is faster than it.
std::optional<PickBeaten> pick_beaten(const PerformanceResult& result);
// "reg2d_vec TS=64 measured faster in this run: 26.2 GFLOP/s against the pick's 20.9 (their runs apart); ..."
std::string pick_beaten_text(const PickBeaten& b);

// A rung's arithmetic intensity: FLOP per traced global byte and per modelled DRAM byte.
struct RungIntensity {
    std::string kernel, title;
    int tile = 0;
    double flops_per_byte = 0;       // traced global
    double dram_flops_per_byte = 0;  // modelled DRAM (cache_profile), 0: none
};

struct PerformanceResult {
    std::string device;                          // the device's label
    int size = 256;
    std::vector<Measurement> rungs;              // PlanPart::rungs that ran, in plan order
    std::vector<Measurement> sweep_sizes;        // PlanPart::sizes
    std::vector<Measurement> sweep_tiles;        // PlanPart::tiles
    double peak_gflops = 0, bandwidth_gbs = 0;   // measured by kernels/ceilings/
    std::vector<RungIntensity> intensity;        // from traced global bytes
    std::string cache_profile;                   // the cache model's profile for the device (issue 11)
    std::vector<LadderRungFigures> ladder;       // traced/modelled figures of every rung traced, in ladder order
    std::map<std::string, double> rung_seconds;  // wall seconds of each rung's measure (build, runs, verify): one point of tune --quick
    std::vector<std::string> refused;            // points the device or the emulator refused, "what: why"
    DeviceInfo device_info;                      // the device measured on
    // On a CPU device with naive and tiled measured: why the winner won here (issue 21).
    std::optional<CpuExplanation> cpu_explained;
    std::optional<FastestMeasured> fastest;        // plan.fastest and the tuning data have a pick for the size
    // The peak measured below a rung even after a second measurement: drawn as a flagged line, not a roof.
    std::optional<RoofBelowRung> roof_below;
};

// One measured point as it finishes (for the CLI's table): the config as it ran (tuning
// applied), and its measurement or why it was refused.
struct PlanPointDone {
    const PlanPoint& point;
    const LaunchConfig& config;
    const Measurement* measurement;  // null when refused
    std::string refused;
    bool shared = false;             // the same configuration ran at an earlier point: its runs, not new ones
};

// Runs the plan on the thread that drives OpenCL. A point whose configuration (tuning
// applied) an earlier point ran takes that point's Measurement instead of new runs, so a
// configuration shown in two plots is one set of runs. A point the device refuses (limits, a
// build failure) is left out and named in `refused`; Cancelled is thrown between points
// and launches once `progress` says so; InputError for an unknown device.
PerformanceResult run_performance_plan(const PerformancePlan& plan, const TaskProgress& progress,
                                       const std::function<void(const PlanPointDone&)>& on_point = {});

}  // namespace tilescope::tasks
