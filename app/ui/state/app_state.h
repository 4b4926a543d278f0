#pragma once
// What the panels share: the configurations on show, their traces, the phase cursor,
// measurements from real devices, the view and mode. Panels read and edit it; long work
// goes to the Worker and lands back here when a panel polls.
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/device/device_info.h"
#include "core/teach/scene_values.h"
#include "core/device/measurement.h"
#include "core/kernel/launch_config.h"
#include "core/tasks/performance.h"
#include "core/teach/lesson.h"
#include "core/trace/trace.h"
#include "core/trace/view_model.h"
#include "ui/state/frame_cache.h"
#include "ui/panels/tune_offer.h"
#include "ui/state/worker.h"

namespace tilescope::ui {

enum class View { Emulation, Heatmap, Source, Performance, Compare, Ladder };
inline constexpr View kViews[] = {View::Emulation, View::Heatmap, View::Source, View::Performance, View::Compare,
                                  View::Ladder};
static_assert(std::size(kViews) == kSceneViews.size(), "a view for each name a scene gives (core/teach/scene_values.h)");
const char* view_name(View v);    // "emulation", "heatmap", ...
const char* view_title(View v);   // "Emulation", ...
std::optional<View> parse_view(std::string_view name);

// One configuration and its trace on the emulator.
struct TraceSlot {
    std::optional<LaunchConfig> config;  // the latest asked for (being traced while busy())
    std::optional<LaunchConfig> shown;   // the one `trace` was made from: what the screen describes
    TraceSnapshot trace;
    MatrixRoles roles;
    JobHandle job;          // a trace in flight
    // The trace in flight's latest snapshot (Trace::partial), written by the emulator's
    // threads and taken by poll(): the selected group's phases show as soon as it completes.
    struct PartialBox {
        std::mutex mutex;
        TraceSnapshot latest;
        uint64_t serial = 0;
    };
    std::shared_ptr<PartialBox> partial;
    uint64_t partial_taken = 0;
    // What was on screen before the first snapshot, put back when that trace does not finish.
    TraceSnapshot before_partial;
    std::optional<LaunchConfig> before_partial_shown;
    void drop_partial();
    std::string error;      // the last failure, shown in the UI
    uint64_t version = 0;   // bumps whenever `trace` changes
    mutable FrameCache frames;  // the cursor's frame of this trace (cells' roles and names, stories)

    // Queues a trace on the worker (cancelling one in flight). `groups`: work-groups to
    // keep element detail for (empty: automatic).
    // `ensure`: a group that must keep detail, added to the automatic choice; it is the
    // group streamed as soon as it completes (else the last of `groups`, else the first
    // automatic one).
    void start(Worker& worker, const LaunchConfig& config, std::vector<GroupId> groups = {},
               std::optional<GroupId> ensure = std::nullopt);
    void poll();            // takes a finished job's result, or the newest snapshot of one in flight
    bool partial_shown() const { return trace && trace->partial; }
    bool busy() const { return job && !job->done; }
};

// A phase (and part) asked for before the trace that says which interval it is has come
// in (--phase, a lesson step); the cursor moves there when the group's detail arrives.
struct PhaseRequest {
    int phase = 0;
    std::string part;  // "" = the phase's first part
    std::optional<int> iteration;  // in a use part
    std::optional<int> interval;   // instead of phase and part: the raw barrier interval
};

// The shared cursor: which group, which part (barrier interval; its phase and name come
// from core/trace/phases.h), how far through it.
struct Cursor {
    GroupId group{0, 0, 0};
    int interval = 0;
    std::optional<PhaseRequest> wanted;  // resolved into `interval` by resolve_wanted_phase
    std::optional<int> iteration;        // in a use part: the iteration on show (none: the whole part)
    std::optional<WorkItemId> item;      // the work-item whose story is told (its local id)
    double progress = 1.0;  // 0..1 through the interval (work-items that have run)
    bool playing = false;
    float speed = 1.0f;     // parts per second
};

// GFLOP/s measured on a real device, and the roofline's ceilings: the last result of the
// performance plan (core/tasks/performance.h), the size asked for next, the job in flight.
// One value the performance view drew in its last frame, with the spread it drew around
// it (tests and `--control state` read what is on screen from these).
struct DrawnFigure {
    std::string plot;    // "rungs", "sizes", "tiles"
    std::string kernel;
    int64_t size = 0;    // M = N = K
    int tile = 0;
    double gflops = 0, low = 0, high = 0;  // median, whisker ends
    std::string label;   // the value text beside it ("" for a line point)
    std::string noise;   // "within noise of ..." where it overlaps another
};

struct Performance : tasks::PerformanceResult {
    JobHandle job;
    std::string error;
    // The kernel on show came in a file (KernelSpec::carried_by) and Measure was asked: the
    // view asks first, and nothing runs until it is answered (issue 32).
    bool asking_trust = false;
    bool without_carried = false;  // answered "the ladder without it"
    bool ask_fastest = true;       // Measure also measures the rung the tuning data pick (bench --kernel fastest)
    std::vector<DrawnFigure> drawn;  // the last frame's
    bool ready() const { return !rungs.empty(); }
};

// The lesson on show (--lesson, the Lessons menu) and where in it: the side panel and the
// presenter's lesson strip both draw it. While its step's question waits for Reveal,
// every figure that answers it is hidden (hidden_until_reveal).
struct LessonOnShow {
    std::shared_ptr<const Lesson> lesson;  // null: none open
    int step = 0;
    bool revealed = false;
    std::string guess;                     // typed into "your guess" for this step
    // (lesson title, step) -> the guess judged once revealed, kept while paging back and forth
    std::map<std::pair<std::string, int>, std::string> judged;
    const LessonStep* current() const { return lesson && step < int(lesson->steps.size()) ? &lesson->steps[size_t(step)] : nullptr; }
    // The question's quantity while it waits for Reveal, else null.
    const std::string* pending_quantity() const {
        const LessonStep* st = current();
        return st && st->question && !revealed ? &st->question->quantity : nullptr;
    }
};

struct AppState {
    Worker* worker = nullptr;
    std::vector<DeviceInfo> devices;   // filled by the worker at start
    JobHandle devices_job;
    std::string device_sel;            // real device for measurements ("" = default)

    TraceSlot main, other;             // `other`: compare mode's second configuration
    // Counted up whenever a lesson step sets the launches (apply_step_options): panels that
    // keep their own copy of a launch (the set-up form, compare's second configuration) take
    // the step's instead of keeping or following theirs.
    uint64_t imposed = 0;
    bool imposed_compare = false;      // the last step named compare's second configuration
    Cursor cursor;
    View view = View::Emulation;
    bool presenter = false;
    bool presenter_by_lesson = false;  // a lesson step turned it on: not saved as the instructor's choice
    Naming naming = Naming::Slides;    // cells named M0,1 / N / P (the slides') or A0,1 / B / C
    LessonOnShow lesson;
    Performance perf;
    TuningRun tuning;                  // "Tune this device" (ui/panels/tune_offer.h)
    std::map<std::string, Measurement> compare_gflops;  // config key -> measurement
    JobHandle compare_job;

    bool scripted = false;             // driven from the command line (no settings read or written)
    std::string message;               // last notice shown in the status bar
    std::optional<std::string> screenshot_request;  // save the next frame here
    std::optional<std::pair<int64_t, int64_t>> hover_cell;  // --hover ROW,COL: a pinned hover on C
    float sidebar_width = 360;
    std::string cache_profile = "h200"; // the cache model's profile in the hierarchy section (issue 11)
    bool heatmap_by_dram = false;       // the heatmap colours A and B by modelled DRAM fetches
    std::string custom_source_path;    // --source as given, for the set-up form
    // The source view's barrier toggle: lines whose barrier is removed from the main
    // configuration's kernel, and that kernel as it was before (core/kernel/source_edit.h).
    std::vector<int> dropped_barriers;
    std::optional<KernelSpec> undropped_kernel;

    const DeviceInfo* measuring_device() const;  // the real device selected for measurements
    const DeviceInfo* emulator_device() const;   // Oclgrind, which traces run on (null until devices are listed)
};

// Whether `figure` must be hidden now: a lesson step's question it would answer waits for
// Reveal. The view draws kHiddenUntilReveal in its place.
bool hidden_until_reveal(const AppState& s, Figure figure);
HiddenFigures hidden_figures(const AppState& s);  // the same, to hand to a view

std::string config_key(const LaunchConfig& c);  // "tiled 256 TS=16"
std::string config_label(const LaunchConfig& c);

}  // namespace tilescope::ui
