// `tilescope frame`: one frame of the slides' tiling animation (issue 19), traced on the
// emulator: which cells of A, B, C and the local tiles a work-group's phase, part and
// iteration highlight, with the slides' names, and one work-item's story.
#include <iostream>

#include "cli/cli.h"
#include "core/base/atomic_file.h"
#include "core/base/errors.h"
#include "core/emulator/trace_runner.h"
#include "core/io/frame_export.h"
#include "core/trace/frame.h"
#include "core/trace/view_model.h"

namespace tilescope::cli {
namespace {

const char* kHelp =
    "usage: tilescope frame [--kernel K] [--size S] [--tile T] [--param NAME=V]... [--group X,Y] [--phase P]\n"
    "                       [--part NAME] [--iteration I] [--item X,Y] [--naming slides|abc]\n"
    "                       [--no-checks] [--json PATH|-]\n"
    "       tilescope frame ... --source FILE.cl --entry NAME --global E[,E[,E]] --local E[,E[,E]]\n"
    "                       [--define NAME=E]... --arg SPEC [--arg SPEC]... [--check C=A*B]\n"
    "\n"
    "Traces the kernel on the emulator, keeping every access of one work-group in order,\n"
    "and shows one frame of the slides' animation: 'Phase 0 Use for Block (0,0) (iteration 1)'.\n"
    "Cells are highlighted by role: loaded (from global in this part), stored (written in\n"
    "this part), read (local cells read at the iteration, or in the whole part), accumulates\n"
    "(cells of C whose sums grow then), holds (local cells keeping an earlier part's value).\n"
    "A local cell's label is the element of A or B it holds, found by matching the stored\n"
    "value against the work-item's own loads (inputs are seeded), or 0 for a written zero.\n"
    "  S  N or MxNxK (default 4); K  a ladder rung (default tiled); T  the tile size\n"
    "  --group X,Y     the work-group (OpenCL ids, dimension 0 first; default 0,0)\n"
    "  --phase P       a trip round the tile loop, 0-based (default 0)\n"
    "  --part NAME     load, use, store... (default: the phase's first part)\n"
    "  --iteration I   in a use part: the I-th read of each local array by each work-item\n"
    "  --item X,Y      a work-item's local id: its story, part by part, and the slides' cases\n"
    "  --naming N      slides (M, N, P: M0,1) or abc (A0,1); default slides\n"
    "  --json PATH|-   the frame as JSON (docs/architecture.md, Output contracts)\n";

// One id X[,Y[,Z]] of `option`, through the parser --groups uses.
WorkItemId one_id(const std::string& option, const std::string& text) {
    std::vector<GroupId> ids;
    try {
        ids = parse_groups(text);
    } catch (const InputError&) {
    }
    if (ids.size() != 1)
        throw InputError("--" + option + " '" + shown(text, 40) + "': accepted: one id X,Y (dimension 0 first), e.g. 1,0");
    return ids.front();
}

// `id` inside `extent` per dimension, else an error naming the option and the extent.
void check_inside(const std::string& option, const WorkItemId& id, const std::array<size_t, 3>& extent, int dims,
                  const std::string& what) {
    std::string shape, bound, given;
    bool inside = true;
    for (int d = 0; d < 3; ++d) {
        if (d < dims) {
            shape += (d ? "x" : "") + std::to_string(extent[d]);
            bound += std::string(d ? ", " : "") + "XYZ"[d] + " < " + std::to_string(extent[d]);
        }
        if (d < dims || id[d] != 0) given += (d ? "," : "") + std::to_string(id[d]);
        inside = inside && id[d] < (d < dims ? extent[d] : 1);
    }
    if (!inside) throw InputError("--" + option + " " + given + ": accepted: " + bound + " (" + what + " " + shape + ")");
}

}  // namespace

int cmd_frame(const std::vector<std::string>& args) {
    auto valued = custom_kernel_options();
    valued.insert({"kernel", "size", "tile", "param", "group", "phase", "part", "iteration", "item", "naming", "json"});
    Options o("frame", valued, {"no-checks", "help"});
    o.parse(args);
    if (o.has("help")) {
        std::cout << kHelp;
        return 0;
    }
    use_emulator_only();  // before any OpenCL use: the emulator alone
    const LaunchConfig config = configs_from(o, "tiled", "4", false).front();
    if (!config.kernel.library.empty())
        throw InputError("--kernel " + config.kernel.name + ": a library call cannot be traced; pick an OpenCL C rung");
    const std::string naming_text = o.get_or("naming", "slides");
    const std::optional<Naming> naming = parse_naming(naming_text);
    if (!naming) throw InputError("--naming '" + shown(naming_text, 40) + "': accepted: slides, abc");

    // Everything checkable before the trace is checked first: a bad value costs nothing.
    const ResolvedLaunch launch = resolve(config);
    FrameRequest request;
    request.naming = *naming;
    request.group = o.has("group") ? one_id("group", *o.get("group")) : GroupId{0, 0, 0};
    check_inside("group", request.group, launch.groups, launch.dims, "work-groups in the NDRange:");
    request.phase = o.get_int("phase", 0, 0, "a phase number 0, 1, ... (a trip round the tile loop)");
    request.part = o.get_or("part", "");
    if (o.has("iteration")) request.iteration = o.get_int("iteration", 0, 0, "an iteration number 0, 1, ...");
    if (o.has("item")) {
        request.item = one_id("item", *o.get("item"));
        check_inside("item", *request.item, launch.local, launch.dims, "work-items per group:");
    }
    const auto json_path = o.get("json");
    if (json_path) check_writable(*json_path, "--json");

    install_interrupt_handler();
    TraceOptions to;
    to.checks = !o.has("no-checks");
    to.groups = {request.group};
    to.cancelled = interrupted;
    const Trace trace = run_trace(config, to);
    const Frame frame = build_frame(trace, matrix_roles(trace, config.kernel.check), request);

    if (json_path) write_file_atomically(*json_path, frame_to_json(frame).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n", "--json");
    if (!json_path || *json_path != "-") std::cout << frame_text(frame);
    return 0;
}

}  // namespace tilescope::cli
