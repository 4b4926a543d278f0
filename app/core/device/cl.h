#pragma once
// The one place the OpenCL C++ bindings are configured. Private to app/core's .cpp files.
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>

#include <string>

#include "core/device/opencl_env.h"

namespace tilescope {

cl::Device cl_device(const DeviceInfo& info);  // the device behind a DeviceInfo
std::string cl_error_name(cl_int err);          // "CL_OUT_OF_RESOURCES (-5)"

}  // namespace tilescope
