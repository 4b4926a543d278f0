#include "ui/state/app_state.h"

#include "core/tasks/trace.h"
#include "core/teach/scene_values.h"

namespace tilescope::ui {

const char* view_name(View v) {
    // The names a scene or a lesson step gives (core/teach/scene_values.h), in the enum's order.
    return kSceneViews[static_cast<size_t>(v)].data();
}

const char* view_title(View v) {
    switch (v) {
        case View::Emulation: return "Emulation";
        case View::Heatmap: return "Heatmap";
        case View::Source: return "Source";
        case View::Performance: return "Performance";
        case View::Compare: return "Compare";
        case View::Ladder: return "Ladder";
    }
    return "";
}

std::optional<View> parse_view(std::string_view name) {
    for (View v : kViews)
        if (name == view_name(v)) return v;
    return std::nullopt;
}

void TraceSlot::start(Worker& worker, const LaunchConfig& c, std::vector<GroupId> groups, std::optional<GroupId> ensure) {
    if (job && !job->done) job->cancel = true;
    drop_partial();  // the snapshot of a trace that will not finish
    config = c;
    error.clear();
    partial = std::make_shared<PartialBox>();
    partial_taken = 0;
    tasks::TraceJob request;
    request.config = c;
    request.groups = std::move(groups);
    request.ensure = ensure;
    request.cache_requests = true;  // the memory hierarchy section models them
    request.race_check_if_it_fits = true;  // the window has no switch for it: past the limits, traced without
    request.partial = [box = partial](TraceSnapshot snapshot) {
        std::lock_guard<std::mutex> lock(box->mutex);
        box->latest = std::move(snapshot);
        ++box->serial;
    };
    job = worker.submit("trace " + config_label(c), [request](JobStatus& s) -> std::any {
        return tasks::run_trace_job(request, task_progress(s));
    });
}

void TraceSlot::drop_partial() {
    if (partial_shown()) {
        trace = before_partial;
        shown = before_partial_shown;
        ++version;
        if (trace) roles = matrix_roles(*trace, shown ? shown->kernel.check : std::optional<CheckSpec>{});
    }
    before_partial.reset();
    before_partial_shown.reset();
}

void TraceSlot::poll() {
    if (job && !job->done && partial) {
        TraceSnapshot snapshot;
        {
            std::lock_guard<std::mutex> lock(partial->mutex);
            if (partial->serial != partial_taken) snapshot = partial->latest;
            partial_taken = partial->serial;
        }
        if (snapshot) {
            if (!partial_shown()) {
                before_partial = trace;
                before_partial_shown = shown;
            }
            trace = std::move(snapshot);
            shown = config;
            ++version;
            roles = matrix_roles(*trace, config ? config->kernel.check : std::optional<CheckSpec>{});
        }
    }
    if (!job || !job->done) return;
    partial.reset();
    drop_partial();  // the final trace (or the one before) replaces the snapshot
    if (const auto* t = job->result<std::shared_ptr<const Trace>>()) {
        trace = *t;
        shown = config;
        ++version;
        std::optional<CheckSpec> check;
        if (config) check = config->kernel.check;
        roles = matrix_roles(*trace, check);
    } else {
        error = job->error();
    }
    job.reset();
}

const DeviceInfo* AppState::measuring_device() const {
    const DeviceInfo* fallback = nullptr;
    for (const DeviceInfo& d : devices) {
        if (d.is_emulator) continue;
        if (!device_sel.empty() && d.selector() == device_sel) return &d;
        if (!fallback || (d.is_gpu && !fallback->is_gpu)) fallback = &d;
    }
    return fallback;
}

const DeviceInfo* AppState::emulator_device() const {
    for (const DeviceInfo& d : devices)
        if (d.is_emulator) return &d;
    return nullptr;
}

std::string config_label(const LaunchConfig& c) {
    std::string s = c.kernel.name + " " + c.size.label();
    if (c.kernel.library.empty()) s += " TS=" + std::to_string(c.tile);
    if (const std::string p = changed_params_text(c.kernel, c.params); !p.empty()) s += " " + p;  // reg2d_tpad PAD=0 vs its default
    return s;
}

HiddenFigures hidden_figures(const AppState& s) {
    const std::string* q = s.lesson.pending_quantity();
    return HiddenFigures{q ? *q : std::string()};
}

bool hidden_until_reveal(const AppState& s, Figure figure) { return hidden_figures(s)(figure); }

std::string config_key(const LaunchConfig& c) { return config_label(c); }

}  // namespace tilescope::ui
