#pragma once
// Naive against tiled on a CPU device, explained (issue 21, core/teach/cpu_explained.h):
// the two measurements with the cpu cache profile's figures and both rungs traced on the
// emulator at a size it traces in seconds. `bench ... --explain` runs it; the performance
// plan builds the same explanation from the traces it already made.
#include <vector>

#include "core/device/device_info.h"
#include "core/device/measurement.h"
#include "core/tasks/task.h"
#include "core/teach/cpu_explained.h"

namespace tilescope::tasks {

// The size both rungs are traced at for the explanation: the measured size when it is at
// most 64 (square), else 64 (1024^3 would take the emulator hours).
inline constexpr int kExplainTraceSize = 64;

// The input for `explain_cpu`: the measurements, the device, its cache profile's figures
// (the device's profile, "cpu" for a CPU), and `traced` (figures of rungs traced at
// `traced_size`; naive's and tiled's are taken when present).
CpuExplainInput cpu_explain_input(const Measurement& naive, const Measurement& tiled, const DeviceInfo& device,
                                  const std::vector<LadderRungFigures>& traced = {}, int traced_size = 0);

// Traces naive and tiled (at the measured tiles) on the emulator at kExplainTraceSize with
// their cache requests, models them with the device's profile, and explains. Must run on
// the thread that drives OpenCL; a trace the emulator refuses leaves sentence 5 out.
CpuExplanation explain_cpu_measurements(const Measurement& naive, const Measurement& tiled, const DeviceInfo& device,
                                        const TaskProgress& progress);

}  // namespace tilescope::tasks
