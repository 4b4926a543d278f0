#pragma once
// The device list as a task: the first call registers the ICDs and asks every driver, so
// the GUI runs it on its worker.
#include <vector>

#include "core/device/device_info.h"

namespace tilescope::tasks {

// Every device, the emulator included (core/device/opencl_env.h all_devices).
std::vector<DeviceInfo> list_devices();

}  // namespace tilescope::tasks
