#pragma once
// "Tune this device": the performance view's offer to run `tune --quick` for a device
// whose rungs run on someone else's tuning (a similar device's, its type's defaults, the
// rung's defaults). The run goes to the Worker with progress and a cancel button; its
// results go where `tilescope tune` writes (the task tune --quick runs too,
// core/tasks/quick_tune.h: the user's data folder, locked and atomic), then the tuned rung's
// row is measured again.
#include <array>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "ui/state/worker.h"

namespace tilescope::ui {

struct AppState;
struct Performance;

// What the worker reports while tuning, beyond the job's points done / planned.
struct TuneProgress {
    mutable std::mutex mutex;
    std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
    int done = 0, planned = 0;
    double best_gflops = 0;   // verified points only
    std::string best_point;   // "TS=32 WPT=4"
};

// A tuning run started from the GUI, and how the last one ended.
struct TuningRun {
    JobHandle job;
    std::shared_ptr<TuneProgress> progress;
    std::string kernel, device;
    int size = 0;
    double about_s = 0;       // the estimate the button promised
    std::string outcome;      // the last run in words ("tuning cancelled; nothing saved")
    bool outcome_saved = false;
    // Where the last frame drew the offer's button and Cancel (screen pixels x0,y0,x1,y1;
    // all 0 when not drawn), for tests that click them and for the state report.
    std::array<float, 4> offer_button{}, cancel_button{};
    bool running() const { return job && !job->done; }
};

// The offer for the rungs measured in `perf`: which rung, at which size, about how long.
struct TuneOffer {
    std::string kernel;
    int size = 0;
    int points = 0;           // quick_tune_expected_points
    double seconds_per_point = 0;  // one measure of the rung here (build, runs, verification)
    double about_s = 0;
    std::string source;       // where its tile and parameters come from now ("defaults for CPUs")
    std::string why;          // "the fastest rung here" / "the fastest rung not yet tuned here"
};

// The fastest tunable rung measured, when its tuning is not this device's own at this
// size; else the fastest one that is not; nullopt when every tunable rung is tuned here.
std::optional<TuneOffer> tune_offer(const Performance& perf);

// The label of a row's tuning source as the rows show it: "tuned here", "defaults for
// CPUs", ... or "default" (the rung's own values).
std::string tuning_source_text(const std::string& tuning_note);

// Queues the run on the worker (refused in scripted mode: files are written only when asked).
void start_tuning(AppState& state, const TuneOffer& offer);
// Takes a finished run: its outcome in words, the tuned rung's new row.
void poll_tuning(AppState& state);
// The sources in use, the offer and its button, or the run's progress and Cancel.
void draw_tuning_strip(AppState& state, float width);

}  // namespace tilescope::ui
