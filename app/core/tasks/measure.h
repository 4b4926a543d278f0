#pragma once
// Configurations measured one after another on one real device: compare mode's GFLOP/s
// of its two configurations.
#include <optional>
#include <string>
#include <vector>

#include "core/device/measurement.h"
#include "core/kernel/launch_config.h"
#include "core/tasks/task.h"

namespace tilescope::tasks {

struct MeasureJob {
    std::string device;               // SEL as --device takes it; "" the default device
    std::vector<LaunchConfig> configs;
    int reps = 3, warmup = 1;
};

// One entry per config, in order: its measurement, or nullopt where the device refused it
// (limits, a build failure). Throws InputError for an unknown device, Cancelled.
std::vector<std::optional<Measurement>> measure_configs(const MeasureJob& job, const TaskProgress& progress);

}  // namespace tilescope::tasks
