#pragma once
// The set-up panel's form as plain data, and what it implies: the LaunchConfig it names,
// the NDRange, groups, phases and local bytes, and the first problem (bad text, a limit
// of the device) as one sentence for the panel. No ImGui: unit-tested with bad input.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/kernel/launch_config.h"
#include "core/device/device_info.h"
#include "core/teach/lesson.h"
#include "core/trace/trace.h"

namespace tilescope::ui {

struct SetupForm {
    std::string kernel = "tiled";  // a rung or exercise name; empty: the custom kernel below
    std::string size = "32";       // "S" or "MxNxK"
    int tile = 8;
    // custom kernel (the CLI's --source family); lists are comma (global, local) or
    // space (args, defines) separated
    std::string source, entry, global, local, args, defines, check;
    // The tunable parameters of the launch on screen (--param, a lesson's params, a tuned
    // point): kept for the rung they belong to, so the set-up's NDRange and work-group count
    // are the launch's, not the rung's defaults (issue 33: WPT=2 showed work-groups of 32x8).
    std::map<std::string, int64_t> params;
};

struct SetupCheck {
    std::optional<LaunchConfig> config;  // set when the form names a launch
    std::vector<std::string> implied;    // "NDRange 32x32, work-group 8x8", ...
    std::string problem;                 // why it cannot be traced (bad field, the emulator's limits); empty: it can
    std::string device_problem;          // why the measuring device cannot run it; empty: it can
    bool ok() const { return config && problem.empty(); }
};

// Never throws: every failure becomes one sentence naming the field as the form labels
// it ("Tile size", not "--tile") and what is accepted. `emulator` and `device` (either
// may be null) supply the limits for tracing and for measuring.
// `hide`: the lines that would answer a lesson question waiting for Reveal say so instead.
SetupCheck check_setup(const SetupForm& form, const DeviceInfo* device, const DeviceInfo* emulator = nullptr,
                       const HiddenFigures& hide = {});

// The slides' shared-memory table for the trace on screen and the device chosen: the
// local memory each work-group declares (traced) and how many work-groups' worth fit in
// one compute unit's local memory as the device reports it, e.g. "local memory per
// work-group: 2,048 B (atile 1,024 B + btile 1,024 B, traced); NVIDIA H200: 48 KB per
// compute unit, room for 24 work-groups". Empty when the kernel uses no local memory.
std::string local_memory_line(const Trace& trace, const DeviceInfo* device, const HiddenFigures& hide = {});

// Rungs then exercises, as the kernel menu lists them.
const std::vector<KernelSpec>& kernel_menu();

}  // namespace tilescope::ui
