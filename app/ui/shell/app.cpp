#include "ui/shell/app.h"

#include <imgui.h>

#include <algorithm>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>

#include <nlohmann/json.hpp>

#include "core/base/atomic_file.h"
#include "core/base/errors.h"
#include "core/base/plain_errors.h"
#include "core/caches/cache_trace.h"
#include "core/tasks/devices.h"

#include "gfx/matrix_grid.h"
#include "ui/shell/screen_text.h"
#include "ui/panels/lesson_panel.h"
#include "ui/panels/cache_views.h"
#include "ui/panels/compare_view.h"
#include "ui/panels/counters_panel.h"
#include "ui/panels/emulation_panel.h"
#include "ui/panels/performance_view.h"
#include "ui/panels/timeline_panel.h"
#include "ui/panels/presenter_bar.h"
#include "ui/panels/setup_panel.h"
#include "ui/widgets/theme.h"
#include "ui/panels/class_panel.h"
#include "ui/panels/tune_offer.h"
#include "ui/panels/work_item_panel.h"
#include "ui/shell/window_png.h"

namespace tilescope::ui {
namespace {

// Said at a start that restores presenter mode from the settings; cleared once F5 toggles it.
const char* const kPresenterRestored = "Presenter mode is on from your last session (F5 turns it off)";

// The counters of the configuration on show (the panel itself: counters_panel.cpp).
class CountersSection : public SidePanel {
public:
    const char* title() const override { return "Counters"; }
    void draw(AppState& s) override { draw_counters_panel(s, s.main); }
};

// "~/Pictures/tilescope/tilescope-20261123-143012.png": the folder made on demand.
std::string default_screenshot_path() {
    char name[64];
    const std::time_t now = std::time(nullptr);
    std::strftime(name, sizeof name, "tilescope-%Y%m%d-%H%M%S.png", std::localtime(&now));
    return screenshot_dir() + "/" + name;
}

}  // namespace

App::App(gfx::Backend& backend, const GuiOptions& o, const Settings& settings) : backend_(backend), settings_(settings) {
    // No imgui.ini: every window is placed by the app (NoSavedSettings) and what persists is settings.json,
    // read through the untrusted-file readers. ImGui's own reader trusted the file: a one-line [Table] section
    // crashed every start, a FIFO there hung it, and its size had no bound (session 51).
    ImGui::GetIO().IniFilename = nullptr;
    load_fonts(18.f);

    s_.worker = &worker_;
    s_.scripted = o.scripted();
    s_.presenter = o.presenter || (!o.scripted() && settings.presenter);
    s_.presenter_by_lesson = o.presenter_by_lesson && !(!o.scripted() && settings.presenter);
    // a setting that changes what this start shows is named, not silently applied
    if (!o.scripted() && !o.presenter && settings.presenter)
        s_.message = kPresenterRestored;
    s_.cursor.speed = settings.speed;
    s_.device_sel = o.device.empty() ? settings.device : o.device;
    s_.sidebar_width = settings.sidebar_width;
    if (!o.scripted())
        if (auto v = parse_view(settings.view)) s_.view = *v;
    if (o.view) s_.view = *o.view;
    s_.cursor.playing = o.play;
    if (o.group) s_.cursor.group = *o.group;
    if (o.phase || o.part || o.iteration || o.interval)
        s_.cursor.wanted = PhaseRequest{o.phase.value_or(0), o.part.value_or(""), o.iteration, o.interval};
    if (o.item) s_.cursor.item = o.item;
    if (o.naming) s_.naming = *o.naming;
    s_.hover_cell = o.hover;
    timings_ = o.timings;
    s_.custom_source_path = o.source_path;
    apply_theme(s_.presenter);
    panels_hidden_ = s_.presenter;

    if (o.control) control_.emplace(*o.control);
    s_.lesson.lesson = o.lesson;
    s_.lesson.step = o.lesson_step;
    s_.lesson.revealed = o.reveal && o.lesson;
    side_panels_.push_back(std::make_unique<LessonPanel>());
    side_panels_.push_back(std::make_unique<WorkItemPanel>());
    side_panels_.push_back(std::make_unique<SetupPanel>());
    side_panels_.push_back(std::make_unique<CountersSection>());
    side_panels_.push_back(std::make_unique<CachesSection>());

    if (o.opened) show_saved_trace(*o.opened);  // --open: no tracing, no OpenCL needed
    else if (o.config) s_.main.start(worker_, *o.config, {}, o.group);
    if (o.compare) s_.other.start(worker_, *o.compare, {}, ComparePanel::mapped_group(*o.config, s_.cursor.group, *o.compare));
    s_.devices_job = worker_.submit("devices", [](JobStatus&) -> std::any { return tasks::list_devices(); });
    if (o.scripted() && (s_.view == View::Performance || s_.view == View::Ladder)) start_performance(s_);
    if (o.scripted() && s_.view == View::Compare) start_compare_measurements(s_);
}

void App::show_saved_trace(const TraceFile& file) {
    s_.main.config = file.launch;
    s_.main.shown = file.launch;
    s_.main.trace = std::make_shared<const Trace>(file.trace);
    s_.main.roles = matrix_roles(file.trace, file.launch.kernel.check);
    ++s_.main.version;
    // The memory hierarchy shows the report the file carries, under the profile it names.
    if (file.trace.caches) s_.cache_profile = cache_profile_base(file.trace.caches->profile);
    s_.message = "Showing a saved trace (" + config_label(file.launch) + ")";
}

App::~App() {
    // ImGui saves its settings again when the back-end destroys its context, after this
    // App (and the path string) are gone: a dangling name made files of garbage names in
    // the working folder. save_settings_on_exit has saved them already.
    ImGui::GetIO().IniFilename = nullptr;
    stop_class();  // nothing is left listening
    worker_.cancel_all();
    gfx::shutdown_grids();  // GL objects go before the back-end's context does
}

bool App::data_ready() const {
    return !s_.main.busy() && !s_.other.busy() && !(s_.perf.job && !s_.perf.job->done) &&
           !(s_.compare_job && !s_.compare_job->done) && !s_.devices_job;
}

void App::wait_for_input() {
    const bool waiting_for_screenshot = (s_.screenshot_request || control_screenshot_) && !backend_.settled();
    if (!s_.scripted && !s_.cursor.playing && !worker_.busy() && !waiting_for_screenshot) backend_.wait_events(0.25);
    else backend_.poll_events();
}

void App::poll_jobs() {
    s_.main.poll();
    s_.other.poll();
    if (s_.devices_job && s_.devices_job->done) {
        if (auto* d = s_.devices_job->result<std::vector<DeviceInfo>>()) s_.devices = *d;
        s_.devices_job.reset();
    }
    poll_tuning(s_);  // a run that ends while another view is on screen
}

void App::obey_control_file() {
    if (!control_) return;
    for (const ControlCommand& c : control_->take()) {
        if (c.kind == ControlCommand::Kind::Screenshot) {
            // One at a time: a screenshot waits for a frame, and the commands after it in the same file
            // (a lesson step) would change what it shows. A second one replaces the first, said aloud.
            if (control_screenshot_)
                std::cerr << "tilescope gui: --control: screenshot '" << shown(*control_screenshot_) << "' not saved: '"
                          << shown(c.argument) << "' came before it was; accepted: one screenshot a control file, the next "
                          << "after `saved PATH`" << std::endl;
            control_screenshot_ = c.argument;
        }
        if (c.kind == ControlCommand::Kind::Quit) backend_.request_close();
        if (c.kind == ControlCommand::Kind::Measure) {
            try {
                s_.perf.size = std::clamp(std::stoi(c.argument), 16, 4096);
                s_.view = View::Performance;
                s_.perf.rungs.clear();
                start_performance(s_);
            } catch (const std::exception&) {
                std::cerr << "tilescope gui: --control: measure " << c.argument << ": accepted: measure N (16..4096)" << std::endl;
            }
        }
        if (c.kind == ControlCommand::Kind::State) write_state_report(c.argument);
        if (c.kind == ControlCommand::Kind::Text) control_text_ = c.argument;
        if (c.kind == ControlCommand::Kind::Reveal) reveal_answer(s_);
        if (c.kind == ControlCommand::Kind::Class) control_class(s_, c.argument);  // as the Class section's buttons
        if (c.kind == ControlCommand::Kind::LessonStep && s_.lesson.lesson) {
            try {
                open_lesson_step(s_, std::clamp(std::stoi(c.argument), 0, int(s_.lesson.lesson->steps.size()) - 1));
            } catch (const std::exception&) {
                std::cerr << "tilescope gui: --control: lesson-step " << c.argument << ": accepted: lesson-step N (0-based)" << std::endl;
            }
        }
        // The timeline's Step > / < Back (an iteration, else a part) and Part >> / Up, N times.
        if (c.kind == ControlCommand::Kind::Step || c.kind == ControlCommand::Kind::Part) {
            const char* verb = c.kind == ControlCommand::Kind::Step ? "step" : "part";
            try {
                const int n = std::clamp(std::stoi(c.argument), -1000, 1000);
                for (int i = 0; i < std::abs(n); ++i) {
                    if (c.kind == ControlCommand::Kind::Step) step_cursor(s_, n > 0 ? 1 : -1);
                    else step_part(s_, n > 0 ? 1 : -1);
                }
            } catch (const std::exception&) {
                std::cerr << "tilescope gui: --control: " << verb << " " << c.argument << ": accepted: " << verb << " N (-1000..1000)" << std::endl;
            }
        }
    }
}

// `state PATH`: what the performance view shows, for tests and scripts.
void App::write_state_report(const std::string& path) const {
    nlohmann::json j;
    const Performance& perf = s_.perf;
    j["view"] = view_name(s_.view);
    j["message"] = s_.message;  // the status bar's notice
    // The launches on show: the first, and compare's second (lesson steps set both).
    for (const auto& [name, slot] : {std::pair<const char*, const TraceSlot*>{"main", &s_.main}, {"other", &s_.other}})
        if (slot->config) j[name] = {{"kernel", slot->config->kernel.name}, {"tile", slot->config->tile}, {"size", slot->config->size.label()}};
    j["measuring"] = perf.job && !perf.job->done;
    j["asking_trust"] = perf.asking_trust;  // the confirm before a file's kernel is run (issue 32)
    j["size"] = perf.size;
    j["device"] = perf.device;
    nlohmann::json rows = nlohmann::json::array();
    for (const Measurement& m : perf.rungs)
        rows.push_back({{"kernel", m.kernel}, {"gflops", m.gflops}, {"tile", m.tile}, {"params", m.launch.params},
                        {"tuning", m.library ? std::string("library") : tuning_source_text(m.tuning_note)}});
    j["rows"] = rows;
    // every value the view drew last frame with its whisker (issue 21: one figure, one value)
    nlohmann::json drawn = nlohmann::json::array();
    for (const DrawnFigure& d : perf.drawn)
        drawn.push_back({{"plot", d.plot}, {"kernel", d.kernel}, {"size", d.size}, {"tile", d.tile}, {"gflops", d.gflops},
                         {"low", d.low}, {"high", d.high}, {"label", d.label}, {"noise", d.noise}});
    j["drawn"] = drawn;
    if (perf.cpu_explained) j["cpu_explained"] = perf.cpu_explained->sentences;
    j["peak_gflops"] = perf.peak_gflops;
    if (perf.roof_below)  // the peak below a measured rung: flagged, not drawn as a roof (issue 30 item 4)
        j["roof_below"] = {{"kernel", perf.roof_below->kernel}, {"rung_gflops", perf.roof_below->rung_gflops},
                           {"peak_gflops", perf.roof_below->peak_gflops}, {"text", tasks::roof_below_text(*perf.roof_below)}};
    if (perf.fastest)  // the rung picked for the user and why (issue 30 item 3)
        j["fastest"] = {{"kernel", perf.fastest->pick.choice.kernel}, {"tile", perf.fastest->pick.choice.tile},
                        {"params", perf.fastest->pick.choice.params}, {"reason", perf.fastest->pick.reason},
                        {"gflops", perf.fastest->measured ? perf.fastest->measured->gflops : 0.0},
                        {"line", tasks::fastest_line(*perf.fastest)}};
    if (const auto beaten = tasks::pick_beaten(perf))  // a bar measured faster than the pick in this run
        j["pick_beaten"] = {{"kernel", beaten->kernel}, {"gflops", beaten->gflops}, {"pick_gflops", beaten->pick_gflops},
                            {"within_noise", beaten->within_noise}, {"text", tasks::pick_beaten_text(*beaten)}};
    const TuningRun& t = s_.tuning;
    auto rect = [](const std::array<float, 4>& r) {
        return r[2] > r[0] ? nlohmann::json::array({r[0], r[1], r[2], r[3]}) : nlohmann::json();
    };
    if (const auto offer = tune_offer(perf); offer && !perf.rungs.empty())
        j["offer"] = {{"kernel", offer->kernel}, {"size", offer->size}, {"points", offer->points},
                      {"seconds_per_point", offer->seconds_per_point}, {"about_s", offer->about_s},
                      {"source", offer->source}, {"button", t.running() ? nlohmann::json() : rect(t.offer_button)}};
    // the buttons where the last frame drew them, null until a frame has (a run that just ended)
    nlohmann::json tj = {{"running", t.running()}, {"kernel", t.kernel}, {"outcome", t.outcome}, {"saved", t.outcome_saved},
                         {"cancel_button", t.running() ? rect(t.cancel_button) : nlohmann::json()}};
    if (t.progress) {
        std::lock_guard<std::mutex> lock(t.progress->mutex);
        tj["done"] = t.progress->done;
        tj["planned"] = t.progress->planned;
        tj["best_gflops"] = t.progress->best_gflops;
    }
    j["tuning"] = tj;
    // The window's place as a class publishes it (issue 34), null until it has settled.
    if (const auto p = window_place(s_))
        j["place"] = {{"lesson_step", s_.lesson.step}, {"group", {p->group[0], p->group[1]}}, {"interval", p->interval},
                      {"phase", p->phase}, {"part", p->part}, {"iteration", p->iteration ? nlohmann::json(*p->iteration) : nlohmann::json()}};
    try {
        write_file_atomically(path, j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    } catch (const std::exception& e) {
        std::cerr << "tilescope gui: " << said_plainly(e, "--control: state '" + shown_path(path) + "'") << std::endl;
    }
}

void App::set_presenter(bool on) {
    s_.presenter = on;
    s_.presenter_by_lesson = false;  // the instructor's own choice from now on
    panels_hidden_ = on;  // the side panel folds away for a projector; H brings it back
    apply_theme(on);
    // the start's note that presenter mode came back from the last session is not true once toggled
    if (s_.message == kPresenterRestored) s_.message.clear();
}

void App::handle_keys() {
    const bool typing = ImGui::GetIO().WantTextInput;
    if (ImGui::IsKeyPressed(gfx::key::F1, false)) help_.toggle();
    if (ImGui::IsKeyPressed(gfx::key::F5, false)) set_presenter(!s_.presenter);
    if (ImGui::IsKeyPressed(gfx::key::F11, false)) backend_.set_fullscreen(!backend_.fullscreen());
    if (ImGui::IsKeyPressed(gfx::key::F12, false)) s_.screenshot_request = "";
    if (!typing && ImGui::IsKeyPressed(gfx::key::H, false)) panels_hidden_ = !panels_hidden_;
    if (ImGui::IsKeyPressed(gfx::key::Escape, false)) {
        if (help_.open()) help_.toggle();
        else if (backend_.fullscreen()) backend_.set_fullscreen(false);
    }
    handle_cursor_keys(s_);
    handle_lesson_keys(s_);
}

void App::frame(double now) {
    worker_.abandon_overdue();  // the GUI's watchdog: a build past its limit is left behind, said as the job's error
    poll_jobs();
    obey_control_file();
    handle_keys();
    if (std::string problem; !resolve_wanted_phase(s_, &problem, s_.lesson.lesson ? "the lesson step's " : "--") && !s_.scripted) {
        // A place the trace does not have (a lesson's phase 99): said, and the group's first part shown (a
        // scripted run reports it and exits 2 once the data is in).
        s_.message = problem + "; showing the first part";
        s_.cursor.wanted.reset();
        s_.cursor.interval = 0;
        s_.cursor.iteration.reset();
    }
    if (last_frame_ >= 0) advance_cursor(s_, now - last_frame_);
    last_frame_ = now;
    // A class's room follows the lesson's step, the window's place and Reveal (issue 34);
    // after the phase a step asks for is resolved, so a step change is one change for the room.
    sync_class(s_);

    backend_.begin_frame();
    ImGui::NewFrame();
    push_fonts();
    draw_window();
    draw_overlays();
    pop_fonts();
    ImGui::Render();
    backend_.render(theme().pal.background);
    take_screenshot();
    if (control_text_) {
        try {
            write_file_atomically(*control_text_, screen_text(*ImGui::GetDrawData()));
            std::cout << "wrote " << absolute_path(*control_text_) << std::endl;
        } catch (const std::exception& e) {
            std::cerr << "tilescope gui: " << said_plainly(e, "--control: text '" + shown(*control_text_) + "'") << std::endl;
        }
        control_text_.reset();
    }
    if (after_render_) after_render_(backend_);
    backend_.present();
    if (timings_) report_timings();
}

namespace {
// Seconds since this process was started (exec), from /proc: what a user waits from the
// moment the command is typed, shared libraries' loading included.
double seconds_since_process_start() {
    double uptime = 0;
    if (std::FILE* f = std::fopen("/proc/uptime", "r")) {
        if (std::fscanf(f, "%lf", &uptime) != 1) uptime = 0;
        std::fclose(f);
    }
    unsigned long long start_ticks = 0;
    if (std::FILE* f = std::fopen("/proc/self/stat", "r")) {
        char buf[1024];
        const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
        std::fclose(f);
        buf[n] = 0;
        // Field 22 (starttime); the command name (field 2) may hold spaces, so count from its ')'.
        if (const char* p = std::strrchr(buf, ')')) {
            int field = 2;
            for (++p; *p && field < 22; ++p)
                if (*p == ' ') ++field;
            start_ticks = std::strtoull(p, nullptr, 10);
        }
    }
    return uptime - double(start_ticks) / double(sysconf(_SC_CLK_TCK));
}
}  // namespace

void App::report_timings() {
    const TraceSlot& m = s_.main;
    if (!m.trace || (s_.view != View::Emulation && s_.view != View::Heatmap)) return;
    const Trace& t = *m.trace;
    if (!first_picture_reported_ && t.find_group(s_.cursor.group)) {
        first_picture_reported_ = true;
        std::fprintf(stderr, "timing: first picture: work-group %u,%u phase %d drawn %.2f s after start (%s: %zu of %llu work-groups traced)\n",
                     s_.cursor.group[0], s_.cursor.group[1], s_.cursor.interval, seconds_since_process_start(),
                     t.partial ? "partial, the launch goes on" : "complete", t.group_totals.size(),
                     static_cast<unsigned long long>(t.total_groups()));
    }
    if (!complete_reported_ && !t.partial && !m.busy()) {
        complete_reported_ = true;
        std::fprintf(stderr, "timing: complete trace drawn %.2f s after start (%llu work-groups)\n", seconds_since_process_start(),
                     static_cast<unsigned long long>(t.total_groups()));
    }
}

// F12 / Save PNG say where the file went on screen; a --control screenshot waits for
// the traces in flight and says so on stdout, leaving the picture as it was.
void App::take_screenshot() {
    if (!backend_.settled()) return;  // the back buffer must have the window's size first
    std::string err;
    if (s_.screenshot_request) {
        const std::string path = s_.screenshot_request->empty() ? default_screenshot_path() : *s_.screenshot_request;
        try {
            s_.message = save_window_png(backend_, path, err, 0, "F12 screenshot") ? "Saved the window as " + absolute_path(path) : err;
        } catch (const std::exception& e) {
            s_.message = said_plainly(e, "F12 screenshot '" + shown_path(path) + "'");
        }
        s_.screenshot_request.reset();
    }
    if (control_screenshot_ && data_ready()) {
        try {
            if (save_window_png(backend_, *control_screenshot_, err, 0, "--control screenshot"))
                std::cout << "saved " << absolute_path(*control_screenshot_) << std::endl;
            else std::cerr << "tilescope gui: --control: " << err << std::endl;
        } catch (const std::exception& e) {
            std::cerr << "tilescope gui: " << said_plainly(e, "--control: screenshot '" + shown(*control_screenshot_) + "'") << std::endl;
        }
        control_screenshot_.reset();
    }
}

// Presenter mode on the emulation or heatmap view: the matrices take the whole window;
// the controls sit in the free corner above A (PresenterBar).
bool App::matrices_fill_window() const {
    return s_.presenter && panels_hidden_ && (s_.view == View::Emulation || s_.view == View::Heatmap);
}

bool App::shows_lesson_strip() const { return s_.presenter && panels_hidden_ && s_.lesson.current(); }

void App::draw_window() {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const bool fill = matrices_fill_window();
    // Presenter mode with a lesson: the step (number, title, question, answer) in a column
    // on the right, the emulation view's legend below it; the script stays in the side
    // panel (H) and on the lesson's page (export --lesson), off the projected picture.
    const float strip_w = shows_lesson_strip() ? lesson_strip_width(vp->Size.x, !fill) : 0.f;
    if (strip_w > 0) {
        const ImVec2 at(vp->Pos.x + vp->Size.x - strip_w, vp->Pos.y);
        strip_used_h_ = draw_lesson_strip(s_, at, ImVec2(strip_w, vp->Size.y));
        const float top = at.y + strip_used_h_ + ImGui::GetFontSize() * 0.5f;
        strip_legend_area_ = std::array<float, 4>{at.x + ImGui::GetStyle().WindowPadding.x, top,
                                                  at.x + strip_w - ImGui::GetStyle().WindowPadding.x, vp->Pos.y + vp->Size.y};
        emulation_.set_side_legend_area(strip_legend_area_);
    } else {
        strip_legend_area_.reset();
        emulation_.set_side_legend_area(std::nullopt);
    }
    ImGui::SetNextWindowPos(vp->Pos);
    ImGui::SetNextWindowSize(ImVec2(vp->Size.x - strip_w, vp->Size.y));
    if (fill) ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
    ImGui::Begin("tilescope", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                     ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollWithMouse |
                     ImGuiWindowFlags_NoBackground);  // the back-end's clear paints it: one full-window fill less for llvmpipe
    if (fill) {
        ImGui::PopStyleVar();
        draw_view(ImGui::GetContentRegionAvail(), true);
        ImGui::End();
        return;
    }
    draw_header();
    // at the projector the views' own titles say what is on show: the status line's room
    // goes to them, unless it has news (a message, a trace on its way)
    const bool status = !(s_.presenter && panels_hidden_) || !s_.message.empty() || s_.main.busy() || !s_.main.error.empty();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    // a second row where the hint does not fit beside the trace's line (at 1280x720 a message
    // such as "Presenter mode is on..." went below the window's edge)
    const float status_h = !status ? 0.f
                           : ImGui::GetFrameHeightWithSpacing() +
                                 (status_line_rows(avail.x) > 1 ? ImGui::GetTextLineHeightWithSpacing() : 0.f);
    const float body_h = avail.y - status_h;
    if (!panels_hidden_) {
        const float sidebar = std::min(std::max(s_.sidebar_width * (s_.presenter ? 1.15f : 1.f), 250.f), std::max(120.f, avail.x * 0.45f));
        draw_side_panel(sidebar, body_h);
        ImGui::SameLine(0, 0);
        ImGui::InvisibleButton("##splitter", ImVec2(6, body_h));
        if (ImGui::IsItemActive()) s_.sidebar_width = std::max(250.f, s_.sidebar_width + ImGui::GetIO().MouseDelta.x);
        if (ImGui::IsItemHovered() || ImGui::IsItemActive()) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
        ImGui::SameLine(0, 0);
    }
    draw_view(ImVec2(ImGui::GetContentRegionAvail().x, body_h), false);
    if (status) draw_status_line();
    ImGui::End();
}

void App::draw_header() {
    // At the projector with the panels away, one row: the views; the rest has its key
    // (F5 presenter, F12 PNG, F1 help, H panels), said at the row's end where it fits.
    const bool compact = s_.presenter && panels_hidden_;
    if (!compact) {
        ImGui::PushFont(theme().big);
        ImGui::TextUnformatted("tilescope");
        ImGui::PopFont();
    }
    bool first = true;
    for (View v : kViews) {
        if (!first || !compact) same_line_if_fits(button_width(view_title(v)));
        first = false;
        const bool on = s_.view == v;
        if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
        if (ImGui::Button(view_title(v))) s_.view = v;  // compare's panel picks its second configuration
        if (on) ImGui::PopStyleColor();
    }
    if (compact) {
        // the keys where they fit on the row (F1 lists them all)
        for (const char* keys : {"F1 keys · F5 leave · H panel", "F1 keys"}) {
            const float right = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(keys).x;
            if (right > ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) continue;
            ImGui::SameLine();
            ImGui::AlignTextToFramePadding();
            ImGui::TextColored(ImColor(theme().pal.faint_text), "%s", keys);
            break;
        }
        return;
    }
    const char* presenter = s_.presenter ? "Presenter: on (F5)" : "Presenter (F5)";
    same_line_if_fits(button_width(presenter));
    if (ImGui::Button(presenter)) set_presenter(!s_.presenter);
    // cells named as on the slides (M, N, P) or as tilescope's A, B, C
    const char* names = s_.naming == Naming::Slides ? "Names: M N P" : "Names: A B C";
    same_line_if_fits(button_width(names));
    if (ImGui::Button(names)) s_.naming = s_.naming == Naming::Slides ? Naming::Abc : Naming::Slides;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Name the cells M0,1 N0,1 P0,1 as the slides do, or A0,1 B0,1 C0,1");
    same_line_if_fits(button_width("Save PNG (F12)"));
    if (ImGui::Button("Save PNG (F12)")) s_.screenshot_request = "";
    same_line_if_fits(button_width("Help (F1)"));
    if (ImGui::Button("Help (F1)")) help_.toggle();
}

void App::draw_side_panel(float width, float height) {
    ImGui::BeginChild("sidebar", ImVec2(width, height), true);
    // presenter mode folds the sections away so the matrices get the room; back out, they unfold
    const bool refold = folded_for_ != int(s_.presenter);
    folded_for_ = int(s_.presenter);
    for (const auto& panel : side_panels_) {
        if (refold) ImGui::SetNextItemOpen(!(s_.presenter && panel->folds_in_presenter_mode()), ImGuiCond_Always);
        if (ImGui::CollapsingHeader(panel->title(), ImGuiTreeNodeFlags_DefaultOpen)) {
            ImGui::PushID(panel->title());
            panel->draw(s_);
            ImGui::PopID();
        }
    }
    ImGui::EndChild();
}

void App::draw_view(ImVec2 size, bool fill) {
    // the timeline is a desk's tool: at the projector with the panels away, compare keeps
    // the room for its matrices (the keys still step)
    const bool no_timeline = fill || s_.view == View::Performance || s_.view == View::Ladder ||
                             (s_.view == View::Compare && s_.presenter && panels_hidden_);
    // 5.5 lines at the projector: with 4.5 its traffic bars had no height left between the
    // parts' names and the barriers' lines (issue 33: 1-2 px dashes at 720p)
    const float timeline_h = no_timeline ? 0.f : ImGui::GetFontSize() * (s_.presenter ? 5.5f : 6.5f);
    ImGui::BeginGroup();
    const ImVec2 view_size(size.x, size.y - timeline_h);
    if (fill) ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
    ImGui::BeginChild("view", view_size, !fill, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    if (fill) ImGui::PopStyleVar();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 inner = ImGui::GetContentRegionAvail();
    switch (s_.view) {
        case View::Emulation:
        case View::Heatmap: draw_emulation(origin, inner); break;
        case View::Source: source_.draw(s_, inner); break;
        case View::Performance: draw_performance_view(s_, inner, s_.presenter && panels_hidden_); break;
        case View::Compare:
            compare_.draw(s_, inner, s_.presenter && panels_hidden_);
            draw_compare_keys();
            break;
        case View::Ladder: draw_ladder_view(s_, inner); break;
    }
    ImGui::EndChild();
    if (fill) presenter_bar_.draw(s_, origin, emulation_.placements(), zoom_.transform().scale > 1.f);
    if (timeline_h > 0) {
        ImGui::BeginChild("timeline", ImVec2(view_size.x, timeline_h - ImGui::GetStyle().ItemSpacing.y), true,
                          ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);  // its parts fill it, never more
        draw_timeline_panel(s_, timeline_h);
        ImGui::EndChild();
    } else {
        forget_timeline_layout();
    }
    ImGui::EndGroup();
}

namespace {
// What the views and counters show, in words: the trace on screen, and whether a newer
// one is on its way or failed (then the one on screen is the previous one).
std::string on_screen_text(const TraceSlot& slot) {
    const bool newer = slot.config && (!slot.shown || config_key(*slot.config) != config_key(*slot.shown));
    std::string text;
    if (slot.partial_shown() && slot.busy())  // the first picture, while the launch goes on
        return "Tracing " + config_label(*slot.shown) + " on the emulator (" + std::to_string(int(slot.job->fraction() * 100)) +
               "%): showing the work-groups done so far; totals partial";
    if (slot.shown) text = (newer ? "Showing the previous trace: " : "Showing ") + config_label(*slot.shown) + ", traced on the emulator";
    if (slot.busy() && slot.config)
        text += (text.empty() ? "Tracing " : " · tracing ") + config_label(*slot.config) + " (" +
                std::to_string(int(slot.job->fraction() * 100)) + "%)";
    else if (newer && !slot.error.empty())
        text += (text.empty() ? "The trace of " : " · the trace of ") + config_label(*slot.config) + " did not finish (see Set-up)";
    return text;
}
}  // namespace

std::string App::status_hint() const {
    const bool emulation = s_.view == View::Emulation || s_.view == View::Heatmap || s_.view == View::Compare;
    return !s_.message.empty() ? s_.message
           : emulation        ? "Click a tile of P  ·  space plays  ·  ←/→ step  ·  F1 help"
                              : "Space plays  ·  ←/→ step  ·  F1 help";
}

// One row when the trace's line, the separator and the hint fit `width` side by side; else the
// hint takes a row of its own (draw_status_line puts it there; the body leaves room for it).
int App::status_line_rows(float width) const {
    const std::string shown = on_screen_text(s_.main);
    if (shown.empty()) return 1;
    const float row = ImGui::CalcTextSize(shown.c_str()).x + ImGui::GetStyle().ItemSpacing.x +
                      ImGui::CalcTextSize(status_hint().c_str()).x + ImGui::GetFontSize();
    return row <= width ? 1 : 2;
}

void App::draw_status_line() {
    const Palette& pal = theme().pal;
    const std::string shown = on_screen_text(s_.main);
    const bool newer = s_.main.busy() || (s_.main.config && s_.main.shown && config_key(*s_.main.config) != config_key(*s_.main.shown));
    const bool one_row = status_line_rows(ImGui::GetContentRegionAvail().x) == 1;
    ImGui::TextColored(ImColor(newer ? pal.race : pal.text), "%s", shown.c_str());
    const std::string hint = status_hint();
    if (one_row) {
        ImGui::SameLine();
        if (!shown.empty()) ImGui::TextColored(ImColor(pal.faint_text), "  ·  ");
        ImGui::SameLine(0, 0);
    }
    ImGui::TextColored(ImColor(s_.message.empty() ? pal.faint_text : pal.text), "%s", hint.c_str());
}

void App::draw_overlays() { help_.draw(); }

void App::draw_emulation(ImVec2 origin, ImVec2 size) {
    // filling the window in presenter mode, the phase and controls are the presenter bar's
    const EmulationViewFlags flags = (s_.view == View::Heatmap ? EmulationViewFlags_Heatmap : 0) |
                                     (s_.scripted ? EmulationViewFlags_NoInput : 0) |
                                     (matrices_fill_window() ? EmulationViewFlags_Compact | EmulationViewFlags_SideLegend : 0);
    EmulationViewData data = view_data(s_, s_.main);
    if (s_.view == View::Heatmap) data = heatmap_by_dram(std::move(data), s_);  // by DRAM fetches when asked
    const EmulationViewResult r = emulation_.draw(data, origin, size, flags, zoom_.transform());
    if (!s_.scripted) zoom_.handle_input(origin, size);
    if (r.clicked_group) clicked_item_ = r.clicked_item;  // the press; the release (not a drag) makes it a click
    if (auto g = zoom_.filter_click(r.clicked_group)) {
        select_group(s_, s_.main, *g);
        if (clicked_item_) s_.cursor.item = clicked_item_;  // its story in the side panel
        clicked_item_.reset();
    }
}

// Compare at the projector draws its two views with no legend (the matrices want the room):
// with a lesson, the colours' keys go below the strip, where the emulation view's legend goes
// (issue 33: the projected compare view said nowhere what its colours mean). Short texts,
// as many rows as the room below the strip holds.
void App::draw_compare_keys() {
    compare_keys_.clear();
    if (!strip_legend_area_) return;
    const Palette& pal = theme().pal;
    using K = LegendEntry::Kind;
    Legend keys = {{K::Key, pal.a_strip, "", "A strip"}, {K::Key, pal.a_loaded, "", "A now"},     {K::Key, pal.b_loaded, "", "B now"},
                   {K::Key, pal.c_block, "", "C block"}, {K::Key, pal.local_filled, "", "local now"}, {K::Key, pal.c_stored, "", "C now"},
                   {K::Key, pal.local_held, "", "local held"},
                   {K::Key, pal.local_read, "", "local read"}};
    for (LegendEntry& e : keys) e.text = e.short_text;
    const auto& a = *strip_legend_area_;
    const float w = a[2] - a[0], room = a[3] - a[1];
    while (!keys.empty() && lay_out_legend(keys, w) > room) keys.pop_back();
    if (keys.empty()) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->PushClipRect(ImVec2(a[0], a[1]), ImVec2(a[2], a[3]), false);  // beyond this window's clip
    lay_out_legend(keys, w, dl, ImVec2(a[0], a[1]));
    dl->PopClipRect();
    for (const LegendEntry& e : keys) compare_keys_.push_back(e.text);
}

std::vector<MatrixPlacement> App::placements() const {
    return s_.view == View::Compare ? compare_.placements() : emulation_.placements();
}

std::optional<std::array<float, 4>> App::legend_box() const {
    if (s_.view != View::Emulation && s_.view != View::Heatmap) return std::nullopt;
    return emulation_.legend_box();
}

LegendLayout App::legend_layout() const {
    if (s_.view != View::Emulation && s_.view != View::Heatmap) return {};
    return emulation_.legend_layout();
}

void App::save_settings_on_exit() {
    if (s_.scripted) return;
    // Presenter mode that a lesson step turned on goes with the lesson, not into the next start.
    settings_.presenter = s_.presenter && !s_.presenter_by_lesson;
    settings_.speed = s_.cursor.speed;
    settings_.view = view_name(s_.view);
    if (s_.main.config && !s_.main.config->kernel.custom) {
        settings_.kernel = s_.main.config->kernel.name;
        settings_.size = s_.main.config->size.label();
        settings_.tile = s_.main.config->tile;
    }
    settings_.device = s_.device_sel;
    settings_.sidebar_width = s_.sidebar_width;
    save_settings(settings_);
}

}  // namespace tilescope::ui
