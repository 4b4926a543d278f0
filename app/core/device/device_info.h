#pragma once
// What one OpenCL device is, as plain data: the GUI holds these (the device list, the
// measuring device) without seeing OpenCL. Listed by core/device/opencl_env.h.
#include <cstdint>
#include <string>
#include <vector>

namespace tilescope {

struct DeviceInfo {
    int platform_index = 0, device_index = 0;
    std::string platform, name, vendor, type, version, opencl_c_version, driver;
    bool is_emulator = false;   // Oclgrind
    bool is_gpu = false, is_cpu = false;
    unsigned compute_units = 0, clock_mhz = 0;
    unsigned native_vector_width_float = 0;     // floats one SIMD instruction holds (CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT)
    unsigned preferred_vector_width_float = 0;  // what the driver prefers kernels to use (..._PREFERRED_...)
    uint64_t global_mem = 0, local_mem = 0, max_alloc = 0;
    size_t max_work_group = 0;
    std::vector<size_t> max_work_item_sizes;
    std::string search_text;    // what --device SEL substrings match (label, vendor, versions)

    std::string label() const;  // "Portable Computing Language / cpu-skylake..."
    std::string selector() const { return std::to_string(platform_index) + ":" + std::to_string(device_index); }
};

}  // namespace tilescope
