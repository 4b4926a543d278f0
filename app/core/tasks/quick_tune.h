#pragma once
// tune --quick as one task: a guided search for one rung's tile and parameters on a real
// device, its results merged into the device's tuning file (locked, atomic). The CLI's
// `tilescope tune --quick` and the GUI's "Tune this device" both run it.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/device/measurement.h"
#include "core/kernel/launch_config.h"
#include "core/tasks/task.h"
#include "core/tuning/tune_types.h"

namespace tilescope::tasks {

struct QuickTuneJob {
    std::string device;                  // SEL as --device takes it; "" the default device
    std::string kernel;                  // a tunable rung
    ProblemSize size;                    // where the search measures
    // On a CPU device, the sizes the paired second look judges a candidate at (it is stored only
    // if faster than the start at every one); empty: quick_tune_judge_sizes(size), the size and
    // two neighbours. Ignored on other devices (one more measurement of each at `size`).
    std::vector<ProblemSize> judge_sizes;
    int reps = 3, warmup = 1;            // of every point (median of reps after warmup)
    double budget_s = kQuickTuneBudgetS; // wall time at most
    std::string out_dir;                 // where the tuning file goes; "" the default (tuning_folder())
    std::string command;                 // how the run is described in the file
    std::string expect_device;           // when set: refused unless the device selected has this label
    bool measure_after = false;          // measure the rung again with the tuning just saved
};

struct QuickTuneOutcome {
    std::string device;                  // the device's label
    std::string path;                    // the tuning file
    QuickTuneStart start;                // where the search began (note: whose tuning that was)
    QuickTuneRun run;
    std::vector<Measurement> measured;   // every point that ran (not refused), in order
    std::optional<Measurement> row;      // measure_after: the rung with its new tuning
};

struct QuickTuneHooks {
    std::function<void(const QuickTuneOutcome& so_far)> started;                 // before the first point: device, path, start
    std::function<void(int done, int planned, const TuneResult& point)> point;  // after each point
};

// Selects the device (never the emulator), makes the folder, runs the search and writes
// the file when a point verified; a cancel or a run with nothing verified writes nothing.
// Throws InputError (device, rung, folder) or Cancelled. Run on the thread that drives OpenCL.
QuickTuneOutcome run_quick_tune(const QuickTuneJob& job, const TaskProgress& progress, const QuickTuneHooks& hooks = {});

// What an offer to tune `kernel` can promise before it runs, given the seconds one measure
// of it took: whether it is tunable at all, about how many points, about how long (never
// past `budget_s`).
struct QuickTuneEstimate {
    bool tunable = false;
    int points = 0;
    double seconds = 0;
};
QuickTuneEstimate estimate_quick_tune(std::string_view kernel, double seconds_per_point, double budget_s = kQuickTuneBudgetS);

// Where tuning files are written by default ($TILESCOPE_TUNING_DIR, else the user's folder).
std::string tuning_folder();

}  // namespace tilescope::tasks
