#include "ui/shell/gui_options.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "args/options.h"
#include "args/setup.h"
#include "core/base/plain_errors.h"
#include "core/kernel/catalog.h"
#include "core/base/atomic_file.h"
#include "core/base/errors.h"
#include "core/base/untrusted_file.h"
#include "core/teach/scene_values.h"

namespace tilescope::ui {

const char* const kGuiHelp =
    "usage: tilescope gui [set-up options as trace] [--group X,Y] [--phase P [--part NAME]] [--view NAME] [--play]\n"
    "                     [--scene FILE.json] [--screenshot OUT.png] [--frames N] [--frame-stats]\n"
    "  --kernel K --size S --tile T --device SEL    as in `tilescope trace` / `bench`\n"
    "  --source FILE.cl --entry NAME --global E,.. --local E,.. --arg SPEC.. --define N=E --check C=A*B\n"
    "  --group X,Y        the work-group to show (default 0,0)\n"
    "  --phase P          the phase to show: one trip round the kernel's tile loop, as the slides\n"
    "                     count them (0 = the first; default 0)\n"
    "  --part NAME        which part of the phase: load, use, load + use, store, compute (default:\n"
    "                     the phase's first part)\n"
    "  --interval I       instead of --phase: the I-th barrier interval of the group (the raw level)\n"
    "  --iteration I      in a use part: the iteration to show (0 = the first), as the slides step it\n"
    "  --item X,Y         the work-item of the group whose story the Work-item panel tells (local id)\n"
    "  --naming NAME      cells named as the slides do (slides: M0,1 N P) or abc (A0,1 B C)\n"
    "  --view NAME        emulation, heatmap, source, performance, compare, ladder\n"
    "  --param NAME=V     a tunable parameter of the rung, e.g. --param PAD=0 (repeatable)\n"
    "  --compare K[:T]    compare mode's second configuration (default: the same kernel at 2*TS;\n"
    "                     another kernel, or K named, takes K's parameter defaults)\n"
    "  --compare-param NAME=V  a parameter of the compare configuration's kernel (repeatable)\n"
    "  --hover ROW,COL    show the hover information of that cell of C (for screenshots)\n"
    "  --play             start playing the phases\n"
    "  --presenter        for a projector: large text, the matrices take the window, side panel and\n"
    "                     timeline folded (F5 toggles)\n"
    "  --scene FILE.json  a saved lesson state: {kernel, size, tile, params, group, phase, part, interval,\n"
    "                     view, play, presenter, compare, compare_params}; params: {\"NAME\": V, ...}\n"
    "  --lesson FILE.json a lesson (assets/lessons/): its steps, script and questions in a side panel;\n"
    "  --step N           the step to open (1 = the first); PgDn / PgUp move between steps\n"
    "  --open FILE.tstrace  show a saved trace (tilescope trace ... --save): no OpenCL device needed;\n"
    "           nothing is built or run by opening it. A kernel the file carries (its own OpenCL C) is\n"
    "           measured only after the performance view asks, in a child process with a time and a\n"
    "           memory limit\n"
    "  --trust-source  with --open: answer that question yes (a scripted run measures it)\n"
    "  --record OUT.gif   write the selected group's phases as an animated GIF (one frame per\n"
    "                     part of each phase, captioned) and exit; no display needed\n"
    "  --screenshot OUT   write the window as PNG after the last frame\n"
    "  --screenshot-width W   scale the PNG down to W pixels wide\n"
    "  --frames N         render N frames once the data is ready, then exit\n"
    "  --frame-stats      print `frames=N p50_ms=X p95_ms=Y max_ms=Z` (vsync off)\n"
    "  --timings          print on stderr when the selected work-group's phase is first drawn and when\n"
    "                     the trace is complete, in seconds since the process started\n"
    "  --window WxH       window size (default 1280x800)\n"
    "  --layout OUT.json  write where each matrix was drawn (for tests)\n"
    "  --text OUT.txt     write the text the last frame drew (read back from what was drawn, for tests)\n"
    "  --reveal           with --lesson: the step's question revealed, as R or the Reveal button would\n"
    "  --control FILE     drive the running window: write FILE (whole: FILE.tmp, then rename) with lines\n"
    "                       screenshot PATH   save a PNG once traces are in and a resize has settled;\n"
    "                                         prints `saved PATH`\n"
    "                       quit              close the window\n"
    "                       text PATH         write the text the next frame draws\n"
    "                       reveal            reveal the lesson step's answer (as R)\n"
    "                     the GUI reads FILE within 0.25 s and deletes it\n"
    "Keys: space play/pause, left/right step, click a tile of P to pick its work-group, mouse wheel zoom,\n"
    "      drag pan, Home fit, F1 key help, F5 presenter mode, H hide the side panel, F11 fullscreen,\n"
    "      F12 save a PNG (into $XDG_PICTURES_DIR/tilescope or ~/Pictures/tilescope; the path is shown).\n";

namespace {

int parse_int(const std::string& opt, const std::string& v, int lo, int hi, const std::string& accepted) {
    try {
        size_t used = 0;
        const int x = std::stoi(v, &used);
        if (used == v.size() && x >= lo && x <= hi) return x;
    } catch (...) {
    }
    throw InputError("--" + opt + " '" + shown(v) + "': accepted: " + accepted);
}

GroupId parse_group(const std::string& v, const char* option = "group") {
    GroupId g{0, 0, 0};
    size_t start = 0;
    for (int d = 0; d < 3; ++d) {
        const size_t c = v.find(',', start);
        const std::string item = v.substr(start, c == std::string::npos ? std::string::npos : c - start);
        g[d] = uint32_t(parse_int(option, item.empty() ? "x" : item, 0, 1 << 20, "X,Y with non-negative integers, e.g. 1,2"));
        if (c == std::string::npos) return g;
        start = c + 1;
    }
    throw InputError(std::string("--") + option + " '" + shown(v) + "': accepted: X,Y or X,Y,Z");
}

}  // namespace

LaunchConfig compare_config(const LaunchConfig& main, const std::string& spec, const std::vector<std::string>& params) {
    LaunchConfig c = main;
    if (spec.empty()) {
        c.tile = main.tile * 2;
    } else {
        const size_t colon = spec.find(':');
        const std::string name = spec.substr(0, colon);
        const KernelSpec* k = find_kernel(name);
        if (!k) throw InputError("--compare '" + shown(spec, 40) + "': unknown kernel; accepted: K[:T] with K one of " + rung_names());
        c.kernel = *k;
        c.params.clear();  // a named kernel takes its own defaults (lesson 6: tpad PAD=0 against tpad)
        c.params_source = "default";
        if (colon != std::string::npos) c.tile = parse_int("compare", spec.substr(colon + 1), 1, 1024, "K[:T], e.g. tiled:16");
    }
    for (const std::string& p : params) {
        const auto [name, value] = parse_param(c.kernel, p, "--compare-param");
        c.params[name] = value;
        c.params_source = "given";
    }
    return c;
}

namespace {

// A scene's (or a lesson step's) values become options unless the command line gives
// them. `where` names the source in messages ("--scene 'F'").
std::vector<std::string> with_scene_json(const std::vector<std::string>& args, const nlohmann::json& j, const std::string& where) {
    const std::string path = where;  // messages below read "<where>: ..."
    if (!j.is_object()) throw InputError(path + ": accepted: a JSON object {kernel, size, tile, group, phase, view, ...}");
    auto given = [&](const std::string& name) {
        for (const std::string& a : args)
            if (a == "--" + name || a.rfind("--" + name + "=", 0) == 0) return true;
        return false;
    };
    std::vector<std::string> out;
    static const char* known[] = {"kernel", "size", "tile", "params", "group", "phase", "part", "interval", "iteration", "item", "naming", "view", "play", "presenter", "compare", "compare_params", "device"};
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string& k = it.key();
        if (std::find(std::begin(known), std::end(known), k) == std::end(known))
            throw InputError(path + ": unknown key '" + shown(k, 40) + "'; accepted: kernel, size, tile, params, group, phase, part, interval, iteration, item, naming, view, play, presenter, compare, compare_params, device");
        const nlohmann::json& v = it.value();
        if (k == "params" || k == "compare_params") {  // {"PAD": 0} -> --param PAD=0 (the kernel checks the names)
            const std::string option = k == "params" ? "param" : "compare-param";
            if (given(option)) continue;
            if (!v.is_object()) throw InputError(path + ": key '" + k + "' must be an object {\"NAME\": integer, ...}");
            for (auto p = v.begin(); p != v.end(); ++p) {
                if (!p.value().is_number_integer())
                    throw InputError(path + ": " + k + " '" + shown(p.key(), 40) + "' must be an integer");
                out.push_back("--" + option);
                out.push_back(p.key() + "=" + std::to_string(p.value().get<long long>()));
            }
            continue;
        }
        if (given(k)) continue;
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
            throw InputError(path + ": key '" + shown(k, 40) + "' has a value of the wrong type");
        out.push_back("--" + k);
        out.push_back(text);
    }
    out.insert(out.end(), args.begin(), args.end());
    return out;
}

std::vector<std::string> with_scene(const std::vector<std::string>& args, const std::string& path) {
    const std::string label = "--scene '" + shown_path(path) + "'";
    const std::string text = read_untrusted_file(path, 1u << 20, label);  // bounded: a scene is a few lines
    check_json_depth(text, 16, label);
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        throw InputError("--scene '" + shown_path(path) + "': not JSON (" + json_problem(e) + ")");
    }
    return with_scene_json(args, j, "--scene '" + shown_path(path) + "'");
}

// --lesson FILE [--step N]: the lesson, and the step's state as a scene.
std::vector<std::string> with_lesson(const std::vector<std::string>& args, const args::Options& pre, GuiOptions& g) {
    const std::string path = *pre.get("lesson");
    g.lesson = std::make_shared<const Lesson>(load_lesson(path));
    const int steps = int(g.lesson->steps.size());
    if (pre.has("step"))
        g.lesson_step = parse_int("step", *pre.get("step"), 1, steps, "a step of the lesson, 1 to " + std::to_string(steps)) - 1;
    return with_scene_json(args, g.lesson->steps[size_t(g.lesson_step)].state,
                           "--lesson '" + path + "' step " + std::to_string(g.lesson_step + 1));
}

const std::set<std::string> kFlags = {"help", "play", "frame-stats", "presenter", "timings", "reveal", "trust-source"};

std::set<std::string> valued_options() {
    std::set<std::string> valued = {"kernel", "size", "tile", "device", "group", "phase", "part", "interval", "iteration", "item", "naming", "view", "scene", "screenshot",
                                    "frames", "window", "layout", "compare", "screenshot-width", "hover", "control",
                                    "lesson", "step", "open", "record", "text", "param", "compare-param"};
    for (const std::string& c : args::custom_kernel_options()) valued.insert(c);
    return valued;
}

void parse_window(const std::string& w, GuiOptions& g) {
    const size_t x = w.find('x');
    if (x == std::string::npos) throw InputError("--window '" + shown(w) + "': accepted: WxH, e.g. 1280x800");
    g.width = parse_int("window", w.substr(0, x), 320, 8192, "WxH, e.g. 1280x800");
    g.height = parse_int("window", w.substr(x + 1), 240, 8192, "WxH, e.g. 1280x800");
}

// The cursor and the scripted run's outputs.
void parse_script(const args::Options& o, GuiOptions& g) {
    if (o.has("group")) g.group = parse_group(*o.get("group"));
    if (o.has("hover")) {
        const GroupId h = parse_group(*o.get("hover"));
        g.hover = std::make_pair(int64_t(h[0]), int64_t(h[1]));
    }
    if (o.has("phase") && o.has("interval"))
        throw InputError("--phase and --interval: give one of them (a phase of the slides, or a raw barrier interval)");
    if (o.has("phase")) g.phase = parse_int("phase", *o.get("phase"), 0, kMaxSceneNumber, "a phase number >= 0");
    if (o.has("interval")) g.interval = parse_int("interval", *o.get("interval"), 0, kMaxSceneNumber, "an interval number >= 0");
    if (o.has("iteration")) g.iteration = parse_int("iteration", *o.get("iteration"), 0, kMaxSceneNumber, "an iteration number >= 0");
    if (o.has("item")) g.item = parse_group(*o.get("item"), "item");
    if (o.has("naming")) {
        g.naming = parse_naming(*o.get("naming"));
        if (!g.naming) throw InputError("--naming '" + shown(*o.get("naming"), 40) + "': accepted: slides, abc");
    }
    if (o.has("part")) {
        const std::string part = *o.get("part");
        if (!is_scene_part(part)) throw InputError("--part '" + shown(part, 40) + "': accepted: " + scene_parts_text());
        if (o.has("interval")) throw InputError("--part names a part of a --phase; it does not go with --interval");
        g.part = part;
    }
    if (o.has("view")) {
        g.view = parse_view(*o.get("view"));
        if (!g.view) throw InputError("--view '" + shown(*o.get("view"), 40) + "': accepted: " + scene_views_text());
    }
    if (o.has("frames")) g.frames = parse_int("frames", *o.get("frames"), 1, 1000000, "a number of frames >= 1");
    if (o.has("window")) parse_window(*o.get("window"), g);
    if (o.has("screenshot-width"))
        g.screenshot_width = parse_int("screenshot-width", *o.get("screenshot-width"), 64, 16384, "a width in pixels, e.g. 1280");
    g.play = o.has("play");
    g.presenter = o.has("presenter");
    g.frame_stats = o.has("frame-stats");
    g.timings = o.has("timings");
    g.screenshot = o.get("screenshot");
    if (g.screenshot) check_writable(*g.screenshot, "--screenshot");  // before rendering, with the reason
    g.layout = o.get("layout");
    g.text = o.get("text");
    if (g.text) check_writable(*g.text, "--text");
    g.reveal = o.has("reveal");
    g.control = o.get("control");
    if (g.control) {
        // Refused at start, not renamed later: only a regular file (or none yet) is a control file.
        std::error_code ec;
        const auto status = std::filesystem::symlink_status(*g.control, ec);
        if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
            throw InputError("--control '" + shown(*g.control) +
                             "': exists and is not a regular file; accepted: a path where the GUI will find a file of command lines");
    }
    g.device = o.get_or("device", "");
    if (const std::string p = scene_device_problem(g.device); !p.empty()) throw InputError("--device: " + p);
    g.source_path = o.get_or("source", "");
    if ((g.screenshot || g.frame_stats || g.text) && !g.frames) g.frames = 30;
}

LaunchConfig last_session_config(const Settings& last) {
    try {  // the last session's configuration; a stale one is not an error
        args::Options o("gui", valued_options(), {});
        o.parse({"--kernel", last.kernel, "--size", last.size, "--tile", std::to_string(last.tile)});
        LaunchConfig c = args::configs_from(o, "tiled", "32", false).at(0);
        resolve(c);  // a tile the rung cannot take (reg2d at 3) stopped every start, naming no file
        return c;
    } catch (const std::exception&) {
        return LaunchConfig{*find_rung("tiled"), parse_size("32"), 8};
    }
}

void check_group(const GuiOptions& g, const std::string& text) {
    if (!g.group) return;
    const ResolvedLaunch r = resolve(*g.config);
    for (int d = 0; d < 3; ++d)
        if ((*g.group)[d] >= r.groups[d])
            throw InputError("--group " + text + ": the NDRange has " + std::to_string(r.groups[0]) + "x" +
                             std::to_string(r.groups[1]) + " work-groups; accepted: X < " + std::to_string(r.groups[0]) +
                             ", Y < " + std::to_string(r.groups[1]));
}

}  // namespace

GuiOptions parse_gui_options(const std::vector<std::string>& raw_args, const Settings& last) {
    GuiOptions g;
    std::vector<std::string> args = raw_args;
    bool presenter_typed = false;  // on the command line, not from the lesson's step
    {
        args::Options pre("gui", valued_options(), kFlags);
        pre.parse(args);
        if (pre.has("help")) {
            g.help = true;
            return g;
        }
        if (pre.has("scene")) args = with_scene(args, *pre.get("scene"));
        if (pre.has("step") && !pre.has("lesson")) throw InputError("--step: accepted only with --lesson FILE");
        if (pre.has("reveal") && !pre.has("lesson")) throw InputError("--reveal: accepted only with --lesson FILE (it reveals the step's answer)");
        presenter_typed = pre.has("presenter");
        if (pre.has("lesson")) args = with_lesson(args, pre, g);
        if (pre.has("open")) {
            for (const char* setup : {"kernel", "source", "size", "tile", "scene", "lesson", "compare"})
                if (pre.has(setup))
                    throw InputError("--open: accepted without --" + std::string(setup) + " (the saved trace is the set-up)");
            TraceFile file = load_trace_file(*pre.get("open"), "--open");
            // The kernel the file carries runs only when trusted (issue 32): here by the
            // command line, else by the performance view's confirm.
            file.launch.kernel.trusted = pre.has("trust-source");
            g.opened = std::make_shared<const TraceFile>(std::move(file));
        } else if (pre.has("trust-source")) {
            throw InputError("--trust-source: accepted only with --open FILE.tstrace (the kernel a saved trace carries)");
        }
        if (pre.has("record")) {
            g.record = *pre.get("record");
            if (*g.record == "-") throw InputError("--record -: accepted: a file name ending in .gif");
            check_writable(*g.record, "--record");
        }
    }
    args::Options o("gui", valued_options(), kFlags);
    o.parse(args);
    parse_script(o, g);
    g.presenter_by_lesson = g.presenter && g.lesson && !presenter_typed;
    g.setup_given = o.has("kernel") || o.has("source") || o.has("size") || o.has("tile") || g.opened;
    if (g.opened) {
        g.config = g.opened->launch;
    } else if (g.setup_given || g.scripted() || g.record) {
        g.config = args::configs_from(o, "tiled", "32", false).at(0);
        if (!o.has("tile") && !g.config->kernel.custom && g.config->kernel.name == "tiled" && !o.has("size")) g.config->tile = 8;
    } else {
        g.config = last_session_config(last);
    }
    if (o.has("compare-param") && !o.has("compare") && g.view != View::Compare)
        throw InputError("--compare-param: accepted only with --compare K[:T] or --view compare");
    if (o.has("compare") || g.view == View::Compare) g.compare = compare_config(*g.config, o.get_or("compare", ""), o.all("compare-param"));
    resolve(*g.config);  // bad sizes are input errors now, not in the window
    if (g.compare) {
        // The compare configuration is checked now too, and its refusal names what the user
        // gave (--compare / --view compare), not options they never typed.
        const std::string given = o.has("compare") ? "--compare '" + shown(o.get_or("compare", ""), 40) + "'" : std::string("--view compare");
        try {
            resolve(*g.compare);
        } catch (const InputError& e) {
            throw InputError(given + " (" + g.compare->kernel.name + " at tile " + std::to_string(g.compare->tile) +
                             "): " + shown(e.what(), std::string::npos));
        }
    }
    check_group(g, o.get_or("group", ""));
    return g;
}

GuiOptions lesson_step_options(const Lesson& lesson, int step) {
    const std::vector<std::string> args =
        with_scene_json({}, lesson.steps.at(size_t(step)).state, "lesson '" + lesson.title + "' step " + std::to_string(step + 1));
    return parse_gui_options(args, Settings{});
}

}  // namespace tilescope::ui
