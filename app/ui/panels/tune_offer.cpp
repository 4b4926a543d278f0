#include "ui/panels/tune_offer.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/tasks/quick_tune.h"
#include "ui/state/app_state.h"
#include "ui/widgets/plot.h"
#include "ui/widgets/theme.h"

namespace tilescope::ui {
namespace {

std::string point_text(int tile, const std::map<std::string, int64_t>& params) {
    std::string s = "TS=" + std::to_string(tile);
    for (const auto& [k, v] : params) s += " " + k + "=" + std::to_string(v);
    return s;
}

// "about 40 s", "about 3 min": a promise, rounded as one.
std::string about_text(double s) {
    char buf[48];
    if (s < 10) std::snprintf(buf, sizeof buf, "about %.0f s", std::max(1.0, std::ceil(s)));
    else if (s < 100) std::snprintf(buf, sizeof buf, "about %.0f s", std::round(s / 5) * 5);
    else std::snprintf(buf, sizeof buf, "about %.0f min", std::round(s / 60 * 2) / 2);
    return buf;
}

}  // namespace

std::string tuning_source_text(const std::string& note) { return note.empty() ? "default" : note; }

std::optional<TuneOffer> tune_offer(const Performance& perf) {
    std::vector<const Measurement*> rows;
    for (const Measurement& m : perf.rungs)
        if (tasks::estimate_quick_tune(m.kernel, 0).tunable && m.gflops > 0) rows.push_back(&m);
    std::stable_sort(rows.begin(), rows.end(), [](const Measurement* a, const Measurement* b) { return a->gflops > b->gflops; });
    for (size_t i = 0; i < rows.size(); ++i) {
        const Measurement& m = *rows[i];
        if (m.tuning_note == "tuned here") continue;
        TuneOffer o;
        o.kernel = m.kernel;
        o.size = perf.size;
        const auto it = perf.rung_seconds.find(m.kernel);
        o.seconds_per_point = it != perf.rung_seconds.end() ? it->second : 1.0;
        const tasks::QuickTuneEstimate e = tasks::estimate_quick_tune(m.kernel, o.seconds_per_point);
        o.points = e.points;
        o.about_s = e.seconds;
        o.source = tuning_source_text(m.tuning_note);
        o.why = i == 0 ? "the fastest rung here" : "the fastest rung not yet tuned here";
        return o;
    }
    return std::nullopt;
}

void start_tuning(AppState& state, const TuneOffer& offer) {
    TuningRun& t = state.tuning;
    if (t.running()) return;
    if (state.scripted) {  // a scripted run writes no files it was not asked for
        t.outcome = "Tuning is not started in a scripted run (it would write a tuning file)";
        return;
    }
    t.kernel = offer.kernel;
    t.size = offer.size;
    t.about_s = offer.about_s;
    t.outcome.clear();
    t.outcome_saved = false;
    t.progress = std::make_shared<TuneProgress>();
    t.progress->planned = offer.points;
    const auto progress = t.progress;
    // the task `tilescope tune --quick` runs (core/tasks/quick_tune.h), as the CLI sets it up
    tasks::QuickTuneJob job;
    job.device = state.device_sel;
    job.kernel = offer.kernel;
    job.size = ProblemSize{offer.size, offer.size, offer.size};
    job.command = "tilescope gui: Tune this device (tune --quick --kernel " + offer.kernel + " --size " + std::to_string(offer.size) + ")";
    job.expect_device = state.perf.device;  // the offer and its estimate are of the device measured
    job.measure_after = true;               // the row again, with the tuning just saved
    t.job = state.worker->submit("tune " + offer.kernel, [job, progress](JobStatus& s) -> std::any {
        tasks::QuickTuneHooks hooks;
        hooks.started = [&](const tasks::QuickTuneOutcome&) {
            std::lock_guard<std::mutex> lock(progress->mutex);
            progress->started = std::chrono::steady_clock::now();
        };
        hooks.point = [&](int done, int planned, const TuneResult& r) {
            std::lock_guard<std::mutex> lock(progress->mutex);
            progress->done = done;
            progress->planned = planned;
            if (r.status == "ok" && r.gflops > progress->best_gflops) {
                progress->best_gflops = r.gflops;
                progress->best_point = point_text(r.tile, r.params);
            }
        };
        return tasks::run_quick_tune(job, task_progress(s), hooks);
    });
}

void poll_tuning(AppState& state) {
    TuningRun& t = state.tuning;
    if (!t.job || !t.job->done) return;
    const JobHandle job = t.job;
    t.job.reset();
    const tasks::QuickTuneOutcome* out = job->result<tasks::QuickTuneOutcome>();
    if (!out) {
        const std::string e = job->error();
        t.outcome = e == "cancelled" ? "Tuning cancelled; nothing saved" : "Tuning failed: " + e + "; nothing saved";
        t.outcome_saved = false;
        return;
    }
    const QuickTuneRun& run = out->run;
    char buf[512];
    if (!run.saved) {
        std::snprintf(buf, sizeof buf, "Tuning %s: no point verified in %zu tried; nothing saved", t.kernel.c_str(), run.results.size());
    } else {
        const TuneResult& b = run.results[size_t(run.best)];
        std::snprintf(buf, sizeof buf, "Tuned %s at %d\u00b3: best %s, %.1f GFLOP/s (%zu points in %.0f s); saved to %s",
                      t.kernel.c_str(), t.size, point_text(b.tile, b.params).c_str(), b.gflops, run.results.size(), run.seconds,
                      run.path.c_str());
    }
    t.outcome = buf;
    t.outcome_saved = run.saved;
    if (out->row && state.perf.size == t.size)
        for (Measurement& m : state.perf.rungs)
            if (m.kernel == out->row->kernel) m = *out->row;
}

void draw_tuning_strip(AppState& state, float width) {
    poll_tuning(state);
    const Palette& pal = theme().pal;
    const Performance& perf = state.perf;
    TuningRun& t = state.tuning;
    t.offer_button = {};
    t.cancel_button = {};
    const float fh = ImGui::GetFontSize();
    const float x0 = ImGui::GetCursorPosX();

    if (t.running()) {
        int done = 0, planned = 0;
        double best = 0, elapsed = 0;
        std::string best_point;
        {
            std::lock_guard<std::mutex> lock(t.progress->mutex);
            done = t.progress->done;
            planned = std::max(t.progress->planned, 1);
            best = t.progress->best_gflops;
            best_point = t.progress->best_point;
            elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t.progress->started).count();
        }
        ImGui::AlignTextToFramePadding();
        ImGui::TextUnformatted(("Tuning " + t.kernel + " at " + std::to_string(t.size) + "\u00b3").c_str());
        ImGui::SameLine();
        char over[96];
        std::snprintf(over, sizeof over, "%d of about %d points", done, planned);
        ImGui::ProgressBar(std::min(1.f, float(done) / float(planned)), ImVec2(fh * 14, 0), over);
        ImGui::SameLine();
        if (t.job->cancel) {
            ImGui::TextColored(ImColor(pal.race), "cancelling...");
        } else {
            if (ImGui::Button("Cancel")) ask_cancel(*t.job);
            const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
            if (!t.job->cancel) t.cancel_button = {a.x, a.y, b.x, b.y};
        }
        char info[240];
        if (best > 0)
            std::snprintf(info, sizeof info, "%.0f s (%s)  \u00b7  best so far %.1f GFLOP/s, %s", elapsed, about_text(t.about_s).c_str(),
                          best, best_point.c_str());
        else
            std::snprintf(info, sizeof info, "%.0f s (%s)  \u00b7  no verified point yet", elapsed, about_text(t.about_s).c_str());
        ImGui::PushTextWrapPos(x0 + width);
        text_wrapped("%s", info);
        if (cancel_is_stuck(*t.job)) ImGui::TextColored(ImColor(pal.race), "%s", kStuckCancelText);
        ImGui::PopTextWrapPos();
        return;
    }
    if (!t.outcome.empty()) {
        ImGui::PushTextWrapPos(x0 + width);
        ImGui::TextColored(ImColor(t.outcome_saved ? pal.text : pal.race), "%s", t.outcome.c_str());
        ImGui::PopTextWrapPos();
    }
    const auto offer = tune_offer(perf);
    if (!offer) {
        if (!perf.rungs.empty())
            ImGui::TextColored(ImColor(pal.faint_text), "Every tunable rung measured here is tuned for this device at this size.");
        return;
    }
    const std::string label = "Tune this device (" + about_text(offer->about_s) + ")";
    if (ImGui::Button(label.c_str())) start_tuning(state, *offer);
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    t.offer_button = {a.x, a.y, b.x, b.y};
    if (ImGui::IsItemHovered()) {
        // the arithmetic behind "about", where the file goes, and every rung's source in full
        std::string tip = "tune --quick: about " + std::to_string(offer->points) + " points of ";
        char sec[32];
        std::snprintf(sec, sizeof sec, "%.2f s", offer->seconds_per_point);
        tip += std::string(sec) + " each (one measure of " + offer->kernel + " here just now: build, warm-up, 3 runs, "
               "verification), at most " + std::to_string(int(kQuickTuneBudgetS)) + " s.\nSaved to " + tasks::tuning_folder() +
               "\n\nTile and parameters in use:";
        for (const Measurement& m : perf.rungs)
            if (!m.library) tip += "\n  " + m.kernel + ": " + tuning_source_text(m.tuning_note);
        ImGui::SetTooltip("%s", tip.c_str());
    }
    ImGui::SameLine();
    // The whole sentence when it fits on the line (else the short one: presenter mode, narrow windows)
    const std::string now = offer->source == "default" ? "the rung's defaults" : offer->source;
    std::string what = "tunes " + offer->kernel + " at " + std::to_string(offer->size) + "\u00b3, " + offer->why +
                       "; it now runs with " + now;
    const float room = x0 + width - ImGui::GetCursorPosX();
    if (ImGui::CalcTextSize(what.c_str()).x > room)
        what = offer->kernel + " at " + std::to_string(offer->size) + "\u00b3 (" + offer->why.substr(4) + "; now: " + now + ")";
    if (ImGui::CalcTextSize(what.c_str()).x > room) what = offer->kernel + " at " + std::to_string(offer->size) + "\u00b3 (now: " + now + ")";
    ImGui::PushTextWrapPos(x0 + width);
    ImGui::AlignTextToFramePadding();
    text_wrapped("%s", what.c_str());
    ImGui::PopTextWrapPos();
}

}  // namespace tilescope::ui
