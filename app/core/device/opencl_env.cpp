#include "core/device/cl.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <mutex>

#include "core/base/environment.h"
#include "core/base/errors.h"
#include "core/base/untrusted_file.h"
#include "core/base/watchdog.h"

namespace tilescope {
namespace fs = std::filesystem;

namespace {

std::string g_plugin_path;
std::vector<DeviceInfo> g_devices;
// Never destroyed: releasing Oclgrind's devices at exit corrupts the heap.
std::vector<cl::Device>& g_cl_devices = *new std::vector<cl::Device>;

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

std::string trim(std::string s) {
    while (!s.empty() && (s.back() == '\0' || std::isspace(static_cast<unsigned char>(s.back())))) s.pop_back();
    size_t i = 0;
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    return s.substr(i);
}

// The library an .icd file names (its first line), read bounded like any file from
// elsewhere: a FIFO or /dev/zero named as an .icd is skipped with one line, never read.
std::string icd_library(const std::string& path) {
    try {
        const std::string text = read_untrusted_file(path, 4096, "ICD file '" + shown_path(path) + "'");
        return trim(text.substr(0, text.find('\n')));
    } catch (const InputError& e) {
        std::cerr << "tilescope: " << e.what() << "; skipped\n";
        return {};
    }
}

// Builds a private vendors directory (the system's .icd files, Oclgrind's, and any
// named in TILESCOPE_ICDS), points ocl-icd at it for the first platform query, then
// removes it: ocl-icd reads vendors once per process.
void register_icds_and_enumerate() {
    std::string templ = temp_template("tilescope-icd");
    const char* dir = mkdtemp(templ.data());
    const watchdog::TempPath remove_if_killed(dir ? dir : "");
    std::vector<std::string> entries;
    const std::optional<std::string> user_env = env_text("OCL_ICD_VENDORS");
    const char* user_dir = user_env ? user_env->c_str() : nullptr;
    std::error_code ec;
    const fs::path system_dir = user_dir && fs::is_directory(user_dir, ec) ? fs::path(user_dir) : fs::path("/etc/OpenCL/vendors");
    for (const auto& e : fs::directory_iterator(system_dir, ec))
        if (e.path().extension() == ".icd") {
            if (const std::string lib = icd_library(e.path().string()); !lib.empty()) entries.push_back(lib);
        }
#ifdef TILESCOPE_OCLGRIND_ICD
    if (fs::exists(TILESCOPE_OCLGRIND_ICD, ec)) entries.push_back(TILESCOPE_OCLGRIND_ICD);
#endif
    // Checked at start-up (check_environment): regular files only, .icd files bounded.
    if (const auto extra = env_icds_problem() ? std::nullopt : env_text("TILESCOPE_ICDS")) {
        const std::string& list = *extra;
        size_t start = 0;
        while (start <= list.size()) {
            size_t colon = list.find(':', start);
            std::string item = list.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
            if (!item.empty()) {
                if (fs::path(item).extension() == ".icd") {
                    if (const std::string lib = icd_library(item); !lib.empty()) entries.push_back(lib);
                } else {
                    entries.push_back(item);
                }
            }
            if (colon == std::string::npos) break;
            start = colon + 1;
        }
    }
    // Oclgrind's library is registered once even if the system lists it too.
    std::vector<std::string> unique;
    for (auto& e : entries)
        if (std::find(unique.begin(), unique.end(), e) == unique.end()) unique.push_back(e);
    if (dir) {
        int n = 0;
        for (const auto& lib : unique) {
            std::ofstream out(std::string(dir) + "/" + std::to_string(n++) + "-tilescope.icd");
            out << lib << "\n";
        }
        setenv("OCL_ICD_VENDORS", dir, 1);
    }
    if (!g_plugin_path.empty()) setenv("OCLGRIND_PLUGINS", g_plugin_path.c_str(), 1);

    std::vector<cl::Platform> platforms;
    cl_uint count = 0;
    if (clGetPlatformIDs(0, nullptr, &count) == CL_SUCCESS && count > 0) cl::Platform::get(&platforms);
    if (dir) fs::remove_all(dir, ec);
    if (user_dir) setenv("OCL_ICD_VENDORS", user_dir, 1); else unsetenv("OCL_ICD_VENDORS");

    for (size_t p = 0; p < platforms.size(); ++p) {
        std::vector<cl::Device> devices;
        try {
            platforms[p].getDevices(CL_DEVICE_TYPE_ALL, &devices);
        } catch (const cl::Error&) {
            continue;  // a platform with no devices
        }
        const std::string pname = trim(platforms[p].getInfo<CL_PLATFORM_NAME>());
        // "pocl" must find "Portable Computing Language": its vendor and version say PoCL.
        const std::string pextra = trim(platforms[p].getInfo<CL_PLATFORM_VENDOR>()) + " " +
                                   trim(platforms[p].getInfo<CL_PLATFORM_VERSION>());
        for (size_t d = 0; d < devices.size(); ++d) {
            const cl::Device& dev = devices[d];
            DeviceInfo info;
            info.platform_index = static_cast<int>(p);
            info.device_index = static_cast<int>(d);
            info.platform = pname;
            info.name = trim(dev.getInfo<CL_DEVICE_NAME>());
            info.vendor = trim(dev.getInfo<CL_DEVICE_VENDOR>());
            info.version = trim(dev.getInfo<CL_DEVICE_VERSION>());
            info.driver = trim(dev.getInfo<CL_DRIVER_VERSION>());
            try {
                info.opencl_c_version = trim(dev.getInfo<CL_DEVICE_OPENCL_C_VERSION>());
            } catch (const cl::Error&) {
            }
            const cl_device_type t = dev.getInfo<CL_DEVICE_TYPE>();
            info.is_emulator = lower(pname).find("oclgrind") != std::string::npos;
            info.is_gpu = t & CL_DEVICE_TYPE_GPU;
            info.is_cpu = t & CL_DEVICE_TYPE_CPU;
            if (info.is_emulator) info.type = "emulator";
            else if (info.is_gpu) info.type = "GPU";
            else if (info.is_cpu) info.type = "CPU";
            else if (t & CL_DEVICE_TYPE_ACCELERATOR) info.type = "accelerator";
            else info.type = "other";
            info.compute_units = dev.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
            info.clock_mhz = dev.getInfo<CL_DEVICE_MAX_CLOCK_FREQUENCY>();
            info.native_vector_width_float = dev.getInfo<CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT>();
            info.preferred_vector_width_float = dev.getInfo<CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT>();
            info.global_mem = dev.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
            info.local_mem = dev.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
            info.max_alloc = dev.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
            info.max_work_group = dev.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
            info.max_work_item_sizes = dev.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
            info.search_text = lower(info.label() + " " + pextra);
            g_devices.push_back(info);
            g_cl_devices.push_back(dev);
        }
    }
}

std::once_flag g_once;

}  // namespace

std::string DeviceInfo::label() const { return platform + " / " + name; }

void set_emulator_plugin(const std::string& path) { g_plugin_path = path; }

const std::vector<DeviceInfo>& all_devices() {
    std::call_once(g_once, register_icds_and_enumerate);
    return g_devices;
}

cl::Device cl_device(const DeviceInfo& info) {
    all_devices();
    for (size_t i = 0; i < g_devices.size(); ++i)
        if (g_devices[i].platform_index == info.platform_index && g_devices[i].device_index == info.device_index)
            return g_cl_devices[i];
    throw InputError("unknown device " + info.selector());
}

std::string device_list_text() {
    std::string s;
    for (const DeviceInfo& d : all_devices())
        s += (s.empty() ? "" : "; ") + d.selector() + " " + d.label() + (d.is_emulator ? " (emulator)" : "");
    return s.empty() ? "no OpenCL devices found (is pocl-opencl-icd installed?)" : s;
}

const DeviceInfo& emulator_device() {
    for (const DeviceInfo& d : all_devices())
        if (d.is_emulator) return d;
    throw InputError("the Oclgrind emulator is not available (install the 'oclgrind' package); devices: " +
                     device_list_text());
}

const DeviceInfo& select_device(std::string_view sel_view) {
    const std::string sel = trim(std::string(sel_view));
    const auto& devs = all_devices();
    auto bad = [&](const std::string& why) {
        return InputError("--device '" + sel + "': " + why +
                          "; accepted: emulator, P:D, or part of a name; devices: " + device_list_text());
    };
    if (sel.empty()) {
        for (const auto& d : devs)
            if (!d.is_emulator && d.is_gpu) return d;
        for (const auto& d : devs)
            if (!d.is_emulator && d.is_cpu) return d;
        for (const auto& d : devs)
            if (!d.is_emulator) return d;
        throw InputError("no real OpenCL device found (install pocl-opencl-icd, or name a driver in TILESCOPE_ICDS); "
                         "devices: " + device_list_text());
    }
    if (lower(sel) == "emulator") return emulator_device();
    const size_t colon = sel.find(':');
    if (colon != std::string::npos && colon > 0 &&
        std::all_of(sel.begin(), sel.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == ':'; })) {
        const int p = std::atoi(sel.substr(0, colon).c_str()), d = std::atoi(sel.substr(colon + 1).c_str());
        for (const auto& dev : devs)
            if (dev.platform_index == p && dev.device_index == d) return dev;
        throw bad("no device at those indices");
    }
    // Real devices first: Oclgrind reports itself as every device type.
    for (int pass = 0; pass < 2; ++pass)
        for (const auto& d : devs)
            if (d.is_emulator == (pass == 1) && d.search_text.find(lower(sel)) != std::string::npos) return d;
    throw bad("no device matches");
}

std::string cl_error_name(cl_int err) {
    switch (err) {
#define TS_CASE(x) case x: return #x " (" + std::to_string(err) + ")";
        TS_CASE(CL_DEVICE_NOT_FOUND) TS_CASE(CL_DEVICE_NOT_AVAILABLE) TS_CASE(CL_COMPILER_NOT_AVAILABLE)
        TS_CASE(CL_MEM_OBJECT_ALLOCATION_FAILURE) TS_CASE(CL_OUT_OF_RESOURCES) TS_CASE(CL_OUT_OF_HOST_MEMORY)
        TS_CASE(CL_BUILD_PROGRAM_FAILURE) TS_CASE(CL_INVALID_VALUE) TS_CASE(CL_INVALID_KERNEL_NAME)
        TS_CASE(CL_INVALID_ARG_INDEX) TS_CASE(CL_INVALID_ARG_VALUE) TS_CASE(CL_INVALID_ARG_SIZE)
        TS_CASE(CL_INVALID_KERNEL_ARGS) TS_CASE(CL_INVALID_WORK_DIMENSION) TS_CASE(CL_INVALID_WORK_GROUP_SIZE)
        TS_CASE(CL_INVALID_WORK_ITEM_SIZE) TS_CASE(CL_INVALID_GLOBAL_WORK_SIZE) TS_CASE(CL_INVALID_BUFFER_SIZE)
        TS_CASE(CL_INVALID_BUILD_OPTIONS) TS_CASE(CL_INVALID_PROGRAM_EXECUTABLE) TS_CASE(CL_INVALID_COMMAND_QUEUE)
        TS_CASE(CL_INVALID_CONTEXT) TS_CASE(CL_INVALID_DEVICE) TS_CASE(CL_INVALID_OPERATION)
        TS_CASE(CL_PROFILING_INFO_NOT_AVAILABLE) TS_CASE(CL_INVALID_EVENT) TS_CASE(CL_INVALID_MEM_OBJECT)
#undef TS_CASE
    default: return "OpenCL error " + std::to_string(err);
    }
}

}  // namespace tilescope
