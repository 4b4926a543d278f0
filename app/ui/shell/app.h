#pragma once
// The GUI as one object: the shared state, the panels (each in its own file with its
// own state as a member here), one emulation view per configuration, and the frame:
// poll jobs, handle keys, lay out header / side panel / view / timeline, render through
// the gfx back-end. gui_main only builds it and runs the loop.
//
// Adding a panel: a SidePanel (ui/panels/side_panel.h) in its own file, added in App::App; a
// view, drawn from draw_view(); or an overlay, drawn from draw_overlays().
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gfx/backend.h"
#include "ui/state/app_state.h"
#include "ui/panels/compare_view.h"
#include "ui/shell/control_file.h"
#include "ui/widgets/emulation_view.h"
#include "ui/shell/gui_options.h"
#include "ui/panels/help_overlay.h"
#include "ui/panels/presenter_bar.h"
#include "ui/state/settings.h"
#include "ui/panels/side_panel.h"
#include "ui/panels/source_view.h"
#include "ui/state/worker.h"
#include "ui/widgets/zoom_pan.h"

namespace tilescope::ui {

class App {
public:
    App(gfx::Backend& backend, const GuiOptions& options, const Settings& settings);
    ~App();

    // Sleeps until input when nothing moves; then one frame. `now`: gfx::now_seconds().
    void wait_for_input();
    void frame(double now);
    AppState& state() { return s_; }
    const AppState& state() const { return s_; }
    bool data_ready() const;  // no trace, measurement or device query in flight
    std::vector<MatrixPlacement> placements() const;  // the matrices of the view on screen
    // Cancels the background work and waits up to `seconds`; false when a job is stuck in an
    // OpenCL call that cannot be interrupted (see Worker::cancel_and_wait).
    bool finish_work(double seconds) { return worker_.cancel_and_wait(seconds); }
    // Calls left behind past their deadline (Worker::abandon_overdue), still running.
    int abandoned_work() const { return worker_.abandoned(); }
    std::optional<std::array<float, 4>> legend_box() const;  // the side legend's rectangle, where one is drawn
    LegendLayout legend_layout() const;                       // ... and every piece of it (filling the window)
    void save_settings_on_exit();

    // Scripted runs: after render, before present.
    using AfterRender = std::function<void(gfx::Backend&)>;
    void set_after_render(AfterRender f) { after_render_ = std::move(f); }

private:
    void poll_jobs();
    void obey_control_file();
    void write_state_report(const std::string& path) const;
    void handle_keys();
    void draw_window();
    void draw_header();
    void draw_side_panel(float width, float height);
    bool matrices_fill_window() const;
    bool shows_lesson_strip() const;  // presenter mode with a lesson open and the side panel folded
    void draw_view(ImVec2 size, bool fill);
    void draw_compare_keys();
    void draw_emulation(ImVec2 origin, ImVec2 size);
    void draw_status_line();
    std::string status_hint() const;
    int status_line_rows(float width) const;
    void draw_overlays();
    void take_screenshot();
    void set_presenter(bool on);
    void show_saved_trace(const TraceFile& file);  // --open

    gfx::Backend& backend_;
    Settings settings_;
    Worker worker_;
    AppState s_;
    std::vector<std::unique_ptr<SidePanel>> side_panels_;
    EmulationView emulation_;  // the main configuration's
    ComparePanel compare_;     // compare mode: its own two views and its form
    SourceView source_;
    HelpOverlay help_;
    PresenterBar presenter_bar_;
    ZoomPan zoom_;             // the emulation view's zoom and pan
    std::optional<WorkItemId> clicked_item_;  // the work-item of a click on P, kept until the release makes it a click
    bool panels_hidden_ = false;
    int folded_for_ = -1;      // presenter state the side panel's sections were last folded for
    double last_frame_ = -1;
    AfterRender after_render_;
    std::optional<ControlFile> control_;  // --control FILE
    std::optional<std::string> control_screenshot_;
    std::optional<std::string> control_text_;  // --control's `text PATH`: written after the next frame
    float strip_used_h_ = 0;                   // the lesson strip's height last frame (the legend goes below it)
    std::optional<std::array<float, 4>> strip_legend_area_;  // below the lesson strip (x0, y0, x1, y1), where it shows
    std::vector<std::string> compare_keys_;    // the compare view's keys drawn below the strip last frame
    // --timings (issue 12): the first frame that drew the selected group's phase, and the
    // first with the complete trace, reported once each.
    void report_timings();
    bool timings_ = false, first_picture_reported_ = false, complete_reported_ = false;
};

}  // namespace tilescope::ui
