// tilescope version / --version: the version, the git revision, the OpenCL ICD loader,
// the platforms it finds (Oclgrind's among them) and where the trace plugin is.
#include <iostream>
#include <string>

#include "cli/cli.h"
#include "core/base/errors.h"
#include "core/device/cl.h"
#include "core/device/opencl_env.h"
#include "core/emulator/trace_runner.h"
#include "tilescope_version.h"

namespace tilescope::cli {
namespace {

std::string platform_text(cl_platform_id p, cl_platform_info what) {
    size_t n = 0;
    if (clGetPlatformInfo(p, what, 0, nullptr, &n) != CL_SUCCESS || n == 0) return "?";
    std::string s(n, '\0');
    if (clGetPlatformInfo(p, what, n, s.data(), nullptr) != CL_SUCCESS) return "?";
    while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();
    return s;
}

// ocl-icd's own query (an extension of the loader): CL_ICDL_NAME 3, CL_ICDL_VERSION 2.
std::string icd_loader_text() {
    using Fn = cl_int (*)(cl_uint, size_t, void*, size_t*);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // the loader's own query has no 1.2 form
    auto fn = reinterpret_cast<Fn>(clGetExtensionFunctionAddress("clGetICDLoaderInfoOCLICD"));
#pragma GCC diagnostic pop
    if (!fn) return "an OpenCL ICD loader (its version is not reported)";
    auto info = [&](cl_uint what) {
        char buf[256] = {};
        return fn(what, sizeof buf - 1, buf, nullptr) == CL_SUCCESS ? std::string(buf) : std::string("?");
    };
    return info(3) + " " + info(2);
}

}  // namespace

int cmd_version(const std::vector<std::string>& args) {
    if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
        std::cout << "usage: tilescope version   (or tilescope --version)\n"
                     "  prints the version, the git revision it was built from, the OpenCL ICD loader,\n"
                     "  the OpenCL platforms found (Oclgrind's among them) and the trace plugin's path\n";
        return 0;
    }
    if (!args.empty()) throw InputError("'" + shown(args[0], 40) + "' is not an option of version; accepted: --help");
    std::cout << "tilescope " << TILESCOPE_VERSION << " (git " << TILESCOPE_GIT_REVISION << ")\n";
    all_devices();  // registers Oclgrind's ICD: before any other call, as the loader reads its vendors once
    std::cout << "OpenCL ICD loader: " << icd_loader_text() << "\n";
    cl_uint count = 0;
    std::vector<cl_platform_id> ids;
    if (clGetPlatformIDs(0, nullptr, &count) == CL_SUCCESS && count > 0) {
        ids.resize(count);
        clGetPlatformIDs(count, ids.data(), nullptr);
    }
    bool oclgrind = false;
    for (cl_platform_id p : ids) {
        const std::string name = platform_text(p, CL_PLATFORM_NAME), version = platform_text(p, CL_PLATFORM_VERSION);
        std::cout << "OpenCL platform: " << name << " (" << version << ")\n";
        if (name.find("Oclgrind") != std::string::npos) {
            oclgrind = true;
            std::cout << "Oclgrind: " << version << "\n";
        }
    }
    if (ids.empty()) std::cout << "OpenCL platform: none found\n";
    if (!oclgrind) std::cout << "Oclgrind: not found (install the Debian package oclgrind)\n";
    const std::string plugin = find_trace_plugin();
    std::cout << "trace plugin: " << (plugin.empty() ? "not found" : plugin) << "\n";
    return 0;
}

}  // namespace tilescope::cli
