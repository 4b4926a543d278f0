#include "core/tasks/devices.h"

#include "core/device/opencl_env.h"

namespace tilescope::tasks {

std::vector<DeviceInfo> list_devices() { return all_devices(); }

}  // namespace tilescope::tasks
