#include "ui/shell/gui_main.h"

#include <dlfcn.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>

#include "core/base/errors.h"
#include "core/base/watchdog.h"
#include "core/tasks/trace.h"
#include "core/teach/phase_gif.h"
#include "gfx/backend.h"
#include "ui/shell/app.h"
#include "ui/shell/gui_options.h"
#include "ui/shell/scripted_run.h"
#include "ui/state/settings.h"

namespace tilescope::ui {
namespace {

// Mesa's llvmpipe loads its LLVM (15) into the global symbol scope when the GL context
// is created; Oclgrind runs on LLVM 14, and any of its symbols bound lazily after that
// would bind to LLVM 15 and crash inside Program::build. Loading the emulator's
// libraries first, with every symbol bound now, keeps each on its own LLVM.
void preload_emulator_libraries() {
    for (const std::string& lib : tasks::emulator_libraries()) dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
}

// --record OUT.gif: the selected group's phases, from a saved trace or a fresh one;
// painted in software, so no window is opened.
int record_phases(const GuiOptions& o) {
    std::shared_ptr<const Trace> trace;
    if (o.opened) {
        trace = std::make_shared<const Trace>(o.opened->trace);
    } else {
        tasks::TraceJob job;  // the trace alone: no snapshots, no cache requests
        job.config = *o.config;
        if (o.group) job.groups = {*o.group};
        job.cache_requests = false;
        job.exercise_checks = false;
        trace = tasks::run_trace_job(job, {});
    }
    const GroupId group = o.group.value_or(trace->detail.empty() ? GroupId{0, 0, 0} : trace->detail.front().group);
    const MatrixRoles roles = matrix_roles(*trace, o.config->kernel.check);
    const int frames = write_phase_gif(*trace, roles, group, *o.record);
    std::cerr << "gui: wrote " << *o.record << " (" << frames << " frames: one per part, and one per iteration of a part that reads local memory, of work-group (" << group[0]
              << "," << group[1] << "))\n";
    return 0;
}

}  // namespace

int gui_main(const std::vector<std::string>& args) {
    const Settings last = load_settings();
    const GuiOptions o = parse_gui_options(args, last);  // everything checked before a window opens
    if (o.help) {
        std::cout << kGuiHelp;
        return 0;
    }
    if (o.record) return record_phases(o);
    // Builds are bounded here too (120 s, TILESCOPE_BUILD_TIMEOUT_S): past it the worker
    // leaves the build behind with the watchdog's line as the job's error.
    watchdog::enable_reporting();
    preload_emulator_libraries();
    std::string why;
    if (!gfx::Backend::display_available(why)) {
        std::cerr << "tilescope gui: " << why << "\n";
        return 2;
    }
    std::unique_ptr<gfx::Backend> backend;
    try {
        backend = std::make_unique<gfx::Backend>(gfx::BackendOptions{o.width, o.height, !o.scripted(), "tilescope"});
    } catch (const std::exception& e) {
        std::cerr << "tilescope gui: " << e.what() << "\n";
        return 2;
    }
    auto app = std::make_unique<App>(*backend, o, o.scripted() ? Settings{} : last);  // scripted runs ignore settings
    std::optional<ScriptedRun> script;
    if (o.scripted()) {
        script.emplace(o);
        app->set_after_render([&](gfx::Backend& b) { script->after_render(*app, b); });
    }
    while (!backend->should_close() && !(script && script->finished())) {
        app->wait_for_input();
        const double now = gfx::now_seconds();
        if (script && !script->before_frame(*app, now)) break;
        app->frame(now);
    }
    const int status = script ? script->status() : 0;
    if (script) script->print_frame_stats();
    app->save_settings_on_exit();
    if (!app->finish_work(2.0) || app->abandoned_work() > 0) {
        // A kernel still running on a device (or a build still going): OpenCL cannot
        // interrupt it, and waiting would leave a window that no longer answers. The
        // settings are saved and every output is written whole or not at all: leave now.
        std::cerr << "tilescope gui: a kernel or build was still running on the device and OpenCL cannot interrupt it; "
                     "closed without waiting for it\n";
        std::_Exit(status);
    }
    app.reset();  // before the back-end: its GL objects and ImGui state go first
    return status;
}

}  // namespace tilescope::ui
