#pragma once
// Every OpenCL device the app can use: what the ICD loader sees, plus the Oclgrind
// emulator (registered in-process, no .icd file to install), plus drivers named in
// TILESCOPE_ICDS (colon-separated .icd files or driver libraries, e.g.
// libnvidia-opencl.so.1 on machines where NVIDIA registered none).
#include <string>
#include <string_view>
#include <vector>

#include "core/device/device_info.h"

namespace tilescope {

// Must be called, if at all, before the first OpenCL use: the trace plugin Oclgrind
// loads into each emulator context (sets OCLGRIND_PLUGINS).
void set_emulator_plugin(const std::string& path);

// All devices, emulator included; the first call registers the ICDs.
const std::vector<DeviceInfo>& all_devices();

// SEL: "emulator"; a case-insensitive substring of "platform / device"; "P:D"; or empty
// for the default (first real GPU, else first real CPU; never the emulator).
// Throws InputError naming the selector and listing the devices.
const DeviceInfo& select_device(std::string_view sel);

// Oclgrind; throws InputError when it is not installed.
const DeviceInfo& emulator_device();

// "0:0 Portable Computing Language / cpu..., 1:0 Oclgrind / ..." for messages.
std::string device_list_text();

}  // namespace tilescope
