#include "ui/gui_main.h"

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <optional>

#include <nlohmann/json.hpp>

#include "args/options.h"
#include "args/setup.h"
#include "core/catalog.h"
#include "core/errors.h"
#include "core/trace_runner.h"
#include "gfx/damage_renderer.h"
#include "gfx/matrix_grid.h"
#include "gfx/screenshot.h"
#include "gfx/window.h"
#include "ui/app_state.h"
#include "ui/compare_view.h"
#include "ui/emulation_view.h"
#include "ui/panels.h"
#include "ui/settings.h"
#include "ui/theme.h"

namespace tilescope::ui {
namespace {

const char* kHelp =
    "usage: tilescope gui [set-up options as trace] [--group X,Y] [--phase P] [--view NAME] [--play]\n"
    "                     [--scene FILE.json] [--screenshot OUT.png] [--frames N] [--frame-stats]\n"
    "  --kernel K --size S --tile T --device SEL    as in `tilescope trace` / `bench`\n"
    "  --source FILE.cl --entry NAME --global E,.. --local E,.. --arg SPEC.. --define N=E --check C=A*B\n"
    "  --group X,Y        the work-group to show (default 0,0)\n"
    "  --phase P          the barrier interval to show (default 0)\n"
    "  --view NAME        emulation, heatmap, source, performance, compare\n"
    "  --compare K[:T]    compare mode's second configuration (default: the same kernel at 2*TS)\n"
    "  --hover ROW,COL    show the hover information of that cell of C (for screenshots)\n"
    "  --play             start playing the phases\n"
    "  --presenter        large fonts, thick lines, high-contrast palette (F5 toggles)\n"
    "  --scene FILE.json  a saved lesson state: {kernel, size, tile, group, phase, view, play, presenter, compare}\n"
    "  --screenshot OUT   write the window as PNG after the last frame\n"
    "  --screenshot-width W   scale the PNG down to W pixels wide\n"
    "  --frames N         render N frames once the data is ready, then exit\n"
    "  --frame-stats      print `frames=N p50_ms=X p95_ms=Y max_ms=Z` (vsync off)\n"
    "  --window WxH       window size (default 1280x800)\n"
    "  --layout OUT.json  write where each matrix was drawn (for tests)\n"
    "Keys: space play/pause, left/right step, F5 presenter mode, F12 save a PNG.\n";

constexpr int kKeyF5 = 294;   // GLFW_KEY_F5 (the GLFW backend indexes ImGui keys by GLFW codes)
constexpr int kKeyF12 = 301;  // GLFW_KEY_F12

struct Script {
    std::optional<GroupId> group;
    std::optional<std::pair<int64_t, int64_t>> hover;
    std::optional<int> phase;
    std::optional<View> view;
    bool play = false, presenter = false, frame_stats = false;
    std::optional<std::string> screenshot, layout;
    std::optional<int> frames;
    int screenshot_width = 0;
    int width = 1280, height = 800;  // the docs' width; llvmpipe's cost grows with pixels
    std::optional<LaunchConfig> compare;
};

int parse_int(const std::string& opt, const std::string& v, int lo, int hi, const std::string& accepted) {
    try {
        size_t used = 0;
        const int x = std::stoi(v, &used);
        if (used == v.size() && x >= lo && x <= hi) return x;
    } catch (...) {
    }
    throw InputError("--" + opt + " '" + v + "': accepted: " + accepted);
}

GroupId parse_group(const std::string& v) {
    GroupId g{0, 0, 0};
    size_t start = 0;
    for (int d = 0; d < 3; ++d) {
        const size_t c = v.find(',', start);
        const std::string item = v.substr(start, c == std::string::npos ? std::string::npos : c - start);
        g[d] = uint32_t(parse_int("group", item.empty() ? "x" : item, 0, 1 << 20, "X,Y with non-negative integers, e.g. 1,2"));
        if (c == std::string::npos) return g;
        start = c + 1;
    }
    throw InputError("--group '" + v + "': accepted: X,Y or X,Y,Z");
}

LaunchConfig compare_config(const LaunchConfig& main, const std::string& spec) {
    LaunchConfig c = main;
    if (spec.empty()) {
        c.tile = main.tile * 2;
        return c;
    }
    const size_t colon = spec.find(':');
    const std::string name = spec.substr(0, colon);
    const KernelSpec* k = find_kernel(name);
    if (!k) throw InputError("--compare '" + spec + "': unknown kernel; accepted: K[:T] with K one of " + rung_names());
    c.kernel = *k;
    if (colon != std::string::npos) c.tile = parse_int("compare", spec.substr(colon + 1), 1, 1024, "K[:T], e.g. tiled:16");
    return c;
}

// --scene values become options unless the command line gives them.
std::vector<std::string> with_scene(const std::vector<std::string>& args, const std::string& path) {
    std::ifstream in(path);
    if (!in) throw InputError("--scene '" + path + "': cannot read the file");
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(in);
    } catch (const std::exception& e) {
        throw InputError("--scene '" + path + "': not JSON (" + std::string(e.what()) + ")");
    }
    if (!j.is_object()) throw InputError("--scene '" + path + "': accepted: a JSON object {kernel, size, tile, group, phase, view, ...}");
    auto given = [&](const std::string& name) {
        for (const std::string& a : args)
            if (a == "--" + name || a.rfind("--" + name + "=", 0) == 0) return true;
        return false;
    };
    std::vector<std::string> out;
    static const char* known[] = {"kernel", "size", "tile", "group", "phase", "view", "play", "presenter", "compare", "device"};
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string& k = it.key();
        if (std::find(std::begin(known), std::end(known), k) == std::end(known))
            throw InputError("--scene '" + path + "': unknown key '" + k + "'; accepted: kernel, size, tile, group, phase, view, play, presenter, compare, device");
        if (given(k)) continue;
        const nlohmann::json& v = it.value();
        if (k == "play" || k == "presenter") {
            if (v.is_boolean() && v.get<bool>()) out.push_back("--" + k);
            continue;
        }
        std::string text;
        if (v.is_string()) text = v.get<std::string>();
        else if (v.is_number_integer()) text = std::to_string(v.get<long long>());
        else if (v.is_array()) {
            for (const auto& e : v) text += (text.empty() ? "" : ",") + (e.is_number_integer() ? std::to_string(e.get<long long>()) : std::string("?"));
        } else
            throw InputError("--scene '" + path + "': key '" + k + "' has a value of the wrong type");
        out.push_back("--" + k);
        out.push_back(text);
    }
    out.insert(out.end(), args.begin(), args.end());
    return out;
}

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t i = std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5));
    return v[i];
}

void write_layout(const std::string& path, const AppState& s, const std::vector<MatrixPlacement>& placements, int w, int h) {
    nlohmann::json j;
    j["window"] = {w, h};
    j["group"] = {s.cursor.group[0], s.cursor.group[1], s.cursor.group[2]};
    j["phase"] = s.cursor.phase;
    j["view"] = view_name(s.view);
    const Palette& p = theme().pal;
    auto rgb = [](ImU32 c) { return nlohmann::json::array({int(c & 0xff), int((c >> 8) & 0xff), int((c >> 16) & 0xff)}); };
    j["colours"] = {{"a_loaded", rgb(p.a_loaded)}, {"b_loaded", rgb(p.b_loaded)}, {"a_strip", rgb(p.a_strip)},
                    {"b_strip", rgb(p.b_strip)}, {"c_block", rgb(p.c_block)}, {"c_stored", rgb(p.c_stored)},
                    {"empty", rgb(p.cell_empty)}};
    nlohmann::json ms = nlohmann::json::array();
    for (const MatrixPlacement& m : placements)
        ms.push_back({{"name", m.name}, {"role", m.role}, {"x0", m.p0.x}, {"y0", m.p0.y}, {"x1", m.p1.x}, {"y1", m.p1.y},
                      {"rows", m.rows}, {"cols", m.cols}});
    j["matrices"] = ms;
    std::ofstream(path) << j.dump(2) << "\n";
}

// Mesa's llvmpipe loads its LLVM (15) into the global symbol scope when the GL context
// is created; Oclgrind runs on LLVM 14, and any of its symbols bound lazily after that
// would bind to LLVM 15 and crash inside Program::build. Loading the emulator's
// libraries first, with every symbol bound now, keeps each on its own LLVM.
void preload_emulator_libraries() {
    const std::string plugin = find_trace_plugin();
    for (const std::string& lib : {std::string(TILESCOPE_OCLGRIND_ICD_PATH), plugin})
        if (!lib.empty()) dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
}

}  // namespace

int gui_main(const std::vector<std::string>& raw_args) {
    // ---- options: everything checked before a window opens ----
    std::set<std::string> valued = {"kernel", "size", "tile", "device", "group", "phase", "view", "scene",
                                    "screenshot", "frames", "window", "layout", "compare", "screenshot-width", "hover"};
    for (const std::string& c : args::custom_kernel_options()) valued.insert(c);
    std::vector<std::string> args = raw_args;
    {
        args::Options pre("gui", valued, {"help", "play", "frame-stats", "presenter"});
        pre.parse(args);
        if (pre.has("help")) {
            std::cout << kHelp;
            return 0;
        }
        if (pre.has("scene")) args = with_scene(args, *pre.get("scene"));
    }
    args::Options o("gui", valued, {"help", "play", "frame-stats", "presenter"});
    o.parse(args);
    Script sc;
    if (o.has("group")) sc.group = parse_group(*o.get("group"));
    if (o.has("hover")) {
        const GroupId h = parse_group(*o.get("hover"));
        sc.hover = std::make_pair(int64_t(h[0]), int64_t(h[1]));
    }
    if (o.has("phase")) sc.phase = parse_int("phase", *o.get("phase"), 0, 1 << 24, "a phase number >= 0");
    if (o.has("view")) {
        sc.view = parse_view(*o.get("view"));
        if (!sc.view) throw InputError("--view '" + *o.get("view") + "': accepted: emulation, heatmap, source, performance, compare");
    }
    if (o.has("frames")) sc.frames = parse_int("frames", *o.get("frames"), 1, 1000000, "a number of frames >= 1");
    if (o.has("window")) {
        const std::string w = *o.get("window");
        const size_t x = w.find('x');
        if (x == std::string::npos) throw InputError("--window '" + w + "': accepted: WxH, e.g. 1280x800");
        sc.width = parse_int("window", w.substr(0, x), 320, 8192, "WxH, e.g. 1280x800");
        sc.height = parse_int("window", w.substr(x + 1), 240, 8192, "WxH, e.g. 1280x800");
    }
    if (o.has("screenshot-width")) sc.screenshot_width = parse_int("screenshot-width", *o.get("screenshot-width"), 64, 16384, "a width in pixels, e.g. 1280");
    sc.play = o.has("play");
    sc.presenter = o.has("presenter");
    sc.frame_stats = o.has("frame-stats");
    sc.screenshot = o.get("screenshot");
    sc.layout = o.get("layout");
    const bool scripted = sc.frames || sc.screenshot || sc.frame_stats;
    if ((sc.screenshot || sc.frame_stats) && !sc.frames) sc.frames = 30;

    const bool setup_given = o.has("kernel") || o.has("source") || o.has("size") || o.has("tile");
    Settings settings = scripted ? Settings{} : load_settings();
    std::optional<LaunchConfig> config;
    if (setup_given || scripted) {
        config = args::configs_from(o, "tiled", "32", false).at(0);
        if (!o.has("tile") && !config->kernel.custom && config->kernel.name == "tiled" && !o.has("size")) config->tile = 8;
    } else {
        try {  // the last session's configuration; a stale one is not an error
            args::Options last("gui", valued, {});
            last.parse({"--kernel", settings.kernel, "--size", settings.size, "--tile", std::to_string(settings.tile)});
            config = args::configs_from(last, "tiled", "32", false).at(0);
        } catch (const std::exception&) {
            config = LaunchConfig{*find_rung("tiled"), parse_size("32"), 8};
        }
    }
    if (o.has("compare") || sc.view == View::Compare) sc.compare = compare_config(*config, o.get_or("compare", ""));
    if (config) resolve(*config);  // bad sizes are input errors now, not in the window
    if (sc.group) {
        const ResolvedLaunch r = resolve(*config);
        for (int d = 0; d < 3; ++d)
            if ((*sc.group)[d] >= r.groups[d])
                throw InputError("--group " + *o.get("group") + ": the NDRange has " + std::to_string(r.groups[0]) + "x" +
                                 std::to_string(r.groups[1]) + " work-groups; accepted: X < " + std::to_string(r.groups[0]) +
                                 ", Y < " + std::to_string(r.groups[1]));
    }

    // ---- the window ----
    preload_emulator_libraries();
    std::string why;
    if (!gfx::Window::display_available(why)) {
        std::cerr << "tilescope gui: " << why << "\n";
        return 2;
    }
    gfx::WindowOptions wo;
    wo.width = sc.width;
    wo.height = sc.height;
    wo.vsync = !(scripted || sc.frame_stats);
    std::unique_ptr<gfx::Window> window;
    try {
        window = std::make_unique<gfx::Window>(wo);
    } catch (const std::exception& e) {
        std::cerr << "tilescope gui: " << e.what() << "\n";
        return 2;
    }

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    static std::string ini_path;
    if (scripted) {
        io.IniFilename = nullptr;
    } else {
        ini_path = config_dir() + "/imgui.ini";
        io.IniFilename = ini_path.c_str();
    }
    load_fonts(18.f);
    ImGui_ImplGlfw_InitForOpenGL(window->handle(), true);
    ImGui_ImplOpenGL3_Init("#version 330 core");

    Worker worker;
    AppState s;
    s.worker = &worker;
    s.scripted = scripted;
    s.presenter = sc.presenter || (!scripted && settings.presenter);
    s.cursor.speed = settings.speed;
    s.device_sel = o.get_or("device", settings.device);
    s.sidebar_width = settings.sidebar_width;
    if (!scripted)
        if (auto v = parse_view(settings.view)) s.view = *v;
    if (sc.view) s.view = *sc.view;
    s.cursor.playing = sc.play;
    if (sc.group) s.cursor.group = *sc.group;
    s.hover_cell = sc.hover;
    s.custom_source_path = o.get_or("source", "");
    if (sc.phase) s.cursor.phase = *sc.phase;
    apply_theme(s.presenter);

    if (config) s.main.start(worker, *config, {}, sc.group);
    if (sc.compare) s.other.start(worker, *sc.compare, {}, ComparePanel::mapped_group(*config, s.cursor.group, *sc.compare));
    s.devices_job = worker.submit("devices", [](JobStatus&) -> std::any { return all_devices(); });
    if (scripted && s.view == View::Performance) start_performance(s);
    if (scripted && s.view == View::Compare) start_compare_measurements(s);

    EmulationView emulation;
    ComparePanel compare;
    gfx::DamageRenderer renderer;
    std::vector<double> frame_ms;
    double last_start = -1;
    int counted = 0;
    const double script_started = gfx::now_seconds();
    bool phase_applied = false;
    int status = 0;

    while (!window->should_close()) {
        const double start = gfx::now_seconds();
        const bool busy_jobs = worker.busy();
        if (!scripted && !s.cursor.playing && !busy_jobs) window->wait_events(0.25);
        else window->poll_events();

        // results that came back from the worker
        s.main.poll();
        s.other.poll();
        if (s.devices_job && s.devices_job->done) {
            if (auto* d = s.devices_job->result<std::vector<DeviceInfo>>()) s.devices = *d;
            s.devices_job.reset();
        }
        const bool data_ready = !s.main.busy() && !s.other.busy() && !(s.perf.job && !s.perf.job->done) &&
                                !(s.compare_job && !s.compare_job->done) && !s.devices_job;
        if (scripted && !phase_applied && data_ready) {
            phase_applied = true;
            if (!s.main.error.empty()) {
                std::cerr << "tilescope gui: " << s.main.error << "\n";
                status = 2;
                break;
            }
            if (sc.phase && s.main.trace) {
                const int n = phase_count(*s.main.trace, s.cursor.group);
                if (*sc.phase >= n) {
                    std::cerr << "tilescope gui: --phase " << *sc.phase << ": group (" << s.cursor.group[0] << "," << s.cursor.group[1]
                              << ") has " << n << " phases; accepted: 0.." << n - 1 << "\n";
                    status = 2;
                    break;
                }
            }
            s.cursor.progress = 1.0;
        }
        if (scripted && !phase_applied && start - script_started > 1800) {
            std::cerr << "tilescope gui: the data were not ready after 30 minutes\n";
            status = 2;
            break;
        }

        // input that is not a widget's
        if (ImGui::IsKeyPressed(kKeyF5, false)) {
            s.presenter = !s.presenter;
            apply_theme(s.presenter);
        }
        if (ImGui::IsKeyPressed(kKeyF12, false)) s.screenshot_request = "";
        handle_cursor_keys(s);
        if (last_start >= 0) advance_cursor(s, start - last_start);

        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        push_fonts();

        // ---- one full-window layout: header, sidebar, view, timeline ----
        const ImGuiViewport* vp = ImGui::GetMainViewport();
        ImGui::SetNextWindowPos(vp->Pos);
        ImGui::SetNextWindowSize(vp->Size);
        ImGui::Begin("tilescope", nullptr,
                     ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                         ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollWithMouse |
                         ImGuiWindowFlags_NoBackground);  // glClear paints it: one full-window fill less for llvmpipe
        ImGui::PushFont(theme().big);
        ImGui::TextUnformatted("tilescope");
        ImGui::PopFont();
        for (View v : kViews) {
            ImGui::SameLine();
            const bool on = s.view == v;
            if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
            if (ImGui::Button(view_title(v))) s.view = v;  // compare's panel picks its second configuration
            if (on) ImGui::PopStyleColor();
        }
        ImGui::SameLine();
        if (ImGui::Button(s.presenter ? "Presenter: on (F5)" : "Presenter (F5)")) {
            s.presenter = !s.presenter;
            apply_theme(s.presenter);
        }
        ImGui::SameLine();
        if (ImGui::Button("Save PNG (F12)")) s.screenshot_request = "";
        ImGui::SameLine();
        if (s.main.config) {
            const std::string label = config_label(*s.main.config) + (s.main.trace ? "  |  traced on the emulator" : "");
            ImGui::TextColored(ImColor(theme().pal.faint_text), "%s", label.c_str());
        }

        const float timeline_h = ImGui::GetFontSize() * 6.5f;
        const ImVec2 avail = ImGui::GetContentRegionAvail();
        const float sidebar = std::min(std::max(s.sidebar_width * (s.presenter ? 1.15f : 1.f), 250.f), std::max(120.f, avail.x * 0.45f));
        ImGui::BeginChild("sidebar", ImVec2(sidebar, avail.y), true);
        // presenter mode folds the set-up away so the matrices get the room; back out, it unfolds
        static int folded_for = -1;
        if (folded_for != int(s.presenter)) {
            ImGui::SetNextItemOpen(!s.presenter, ImGuiCond_Always);
            folded_for = int(s.presenter);
        }
        if (ImGui::CollapsingHeader("Set-up", ImGuiTreeNodeFlags_DefaultOpen)) draw_setup_panel(s);
        if (ImGui::CollapsingHeader("Counters", ImGuiTreeNodeFlags_DefaultOpen)) draw_counters_panel(s, s.main);
        ImGui::EndChild();
        ImGui::SameLine(0, 0);
        ImGui::InvisibleButton("##splitter", ImVec2(6, avail.y));
        if (ImGui::IsItemActive()) s.sidebar_width = std::max(250.f, s.sidebar_width + ImGui::GetIO().MouseDelta.x);
        if (ImGui::IsItemHovered() || ImGui::IsItemActive()) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
        ImGui::SameLine(0, 0);
        ImGui::BeginGroup();
        const ImVec2 view_size(ImGui::GetContentRegionAvail().x, avail.y - (s.view == View::Performance ? 0 : timeline_h));
        ImGui::BeginChild("view", view_size, true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
        const ImVec2 origin = ImGui::GetCursorScreenPos();
        const ImVec2 inner = ImGui::GetContentRegionAvail();
        switch (s.view) {
            case View::Emulation:
            case View::Heatmap:
            {
                const EmulationViewFlags flags = (s.view == View::Heatmap ? EmulationViewFlags_Heatmap : 0) |
                                                 (s.scripted ? EmulationViewFlags_NoInput : 0);
                const EmulationViewResult r = emulation.draw(view_data(s, s.main), origin, inner, flags);
                if (r.clicked_group) select_group(s, s.main, *r.clicked_group);
                break;
            }
            case View::Source: draw_source_view(s, inner); break;
            case View::Performance: draw_performance_view(s, inner); break;
            case View::Compare: {
                compare.draw(s, inner);
                break;
            }
        }
        ImGui::EndChild();
        if (s.view != View::Performance) {
            ImGui::BeginChild("timeline", ImVec2(view_size.x, timeline_h - ImGui::GetStyle().ItemSpacing.y), true);
            draw_timeline_panel(s, timeline_h);
            ImGui::EndChild();
        }
        ImGui::EndGroup();
        ImGui::End();
        pop_fonts();
        ImGui::Render();

        int fw = 0, fh = 0;
        window->framebuffer_size(fw, fh);
        const bool partial = window->can_present_region() && !window->take_refresh_request();
        const gfx::DamageRenderer::Region damaged = renderer.render(ImGui::GetDrawData(), fw, fh, theme().pal.background, partial);

        const bool counting = !scripted || phase_applied;
        if (counting && scripted) {
            if (last_start >= 0 && counted > 0) frame_ms.push_back((start - last_start) * 1000.0);
            ++counted;
        }
        const bool last = scripted && sc.frames && counted > *sc.frames;
        if (s.screenshot_request || (last && sc.screenshot)) {
            std::string path = s.screenshot_request ? *s.screenshot_request : "";
            if (last && sc.screenshot) path = *sc.screenshot;
            if (path.empty()) {
                char name[96];
                std::time_t now = std::time(nullptr);
                std::strftime(name, sizeof name, "tilescope-%Y%m%d-%H%M%S.png", std::localtime(&now));
                path = name;
            }
            std::string err;
            if (gfx::save_png(path, fw, fh, err, last ? sc.screenshot_width : 0)) s.message = "saved " + path;
            else {
                s.message = err;
                if (last) {
                    std::cerr << "tilescope gui: --screenshot: " << err << "\n";
                    status = 2;
                }
            }
            s.screenshot_request.reset();
        }
        if (last && sc.layout) write_layout(*sc.layout, s, s.view == View::Compare ? compare.placements() : emulation.placements(), fw, fh);
        if (window->can_present_region()) window->present_region(damaged.x, damaged.y, damaged.w, damaged.h);
        else window->swap();
        last_start = start;
        if (last) break;
    }

    if (sc.frame_stats) {
        char line[160];
        std::snprintf(line, sizeof line, "frames=%zu p50_ms=%.2f p95_ms=%.2f max_ms=%.2f", frame_ms.size(),
                      percentile(frame_ms, 0.5), percentile(frame_ms, 0.95),
                      frame_ms.empty() ? 0.0 : *std::max_element(frame_ms.begin(), frame_ms.end()));
        std::cout << line << std::endl;
    }
    if (!scripted) {
        settings.presenter = s.presenter;
        settings.speed = s.cursor.speed;
        settings.view = view_name(s.view);
        if (s.main.config && !s.main.config->kernel.custom) {
            settings.kernel = s.main.config->kernel.name;
            settings.size = s.main.config->size.label();
            settings.tile = s.main.config->tile;
        }
        settings.device = s.device_sel;
        settings.sidebar_width = s.sidebar_width;
        save_settings(settings);
        ImGui::SaveIniSettingsToDisk(io.IniFilename);
    }
    worker.cancel_all();
    gfx::shutdown_grids();
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    return status;
}

}  // namespace tilescope::ui
