#pragma once
// Every OpenCL device the app can use: what the ICD loader sees, plus the Oclgrind
// emulator (registered in-process, no .icd file to install), plus drivers named in
// TILESCOPE_ICDS (colon-separated .icd files or driver libraries, e.g.
// libnvidia-opencl.so.1 on machines where NVIDIA registered none).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope {

struct DeviceInfo {
    int platform_index = 0, device_index = 0;
    std::string platform, name, vendor, type, version, opencl_c_version, driver;
    bool is_emulator = false;   // Oclgrind
    bool is_gpu = false, is_cpu = false;
    unsigned compute_units = 0, clock_mhz = 0;
    uint64_t global_mem = 0, local_mem = 0, max_alloc = 0;
    size_t max_work_group = 0;
    std::vector<size_t> max_work_item_sizes;
    std::string search_text;    // what --device SEL substrings match (label, vendor, versions)

    std::string label() const;  // "Portable Computing Language / cpu-skylake..."
    std::string selector() const { return std::to_string(platform_index) + ":" + std::to_string(device_index); }
};

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
