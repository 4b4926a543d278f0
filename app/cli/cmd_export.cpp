#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <set>

#include "cli/cli.h"
#include "args/options.h"
#include "core/base/atomic_file.h"
#include "core/base/errors.h"
#include "core/io/html_export.h"
#include "core/io/trace_file.h"
#include "core/emulator/trace_runner.h"
#include "core/teach/exercise_notes.h"
#include "core/io/instructor_sheet.h"
#include "core/teach/lesson.h"

namespace tilescope::cli {
namespace {

const char* kHelp =
    "usage: tilescope export --html OUT.html FILE.tstrace\n"
    "       tilescope export --html OUT.html --lesson FILE.json [--sheet SHEET.html]\n"
    "Writes one self-contained HTML page (no network, no server) that plays a saved trace:\n"
    "the three matrices, each work-group's tiles phase by phase, the timeline with its\n"
    "barriers, hover on a cell, the counters, the diagnostics and the wrong cells of P.\n"
    "Make FILE.tstrace with: tilescope trace ... --save FILE.tstrace\n"
    "It steps as the slides do: part by part and, in a use part, iteration by iteration.\n"
    "The page starts where its address says:\n"
    "  OUT.html#group=1,2&phase=1&part=use&iteration=0 (&item=0,1 &naming=abc &heat=1)\n"
    "--lesson FILE.json (assets/lessons/*.json): one page with every step of the lesson, its\n"
    "script, question and a Reveal button for the answer; each step's set-up is traced on the\n"
    "emulator now. A step whose view the page cannot show (performance, measured on a\n"
    "device) says so. The page opens step N (counted from 1, as gui --step) with OUT.html#lessonstep=N.\n"
    "--sheet SHEET.html (with --lesson; --html may then be left out): the instructor's sheet,\n"
    "every step's script, question and answer on one printable page (the projected picture,\n"
    "gui --presenter, shows no script).\n";

// Numbers as the tour prints them: whole numbers without decimals.
std::string number(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, std::fabs(v - std::round(v)) < 1e-9 ? "%.0f" : "%.2f", v);
    return buf;
}

// Every step of a lesson on one page: the traces its steps need (each set-up traced once,
// keeping detail for the groups the steps open) and, per step, where to open and the
// question's answer from the trace.
nlohmann::json lesson_page_data(const Lesson& lesson) {
    using nlohmann::json;
    struct Setup {
        LaunchConfig config;
        std::set<GroupId> groups;
    };
    const auto key_of = [](const LaunchConfig& c) { return c.kernel.name + " " + c.size.label() + " " + std::to_string(c.tile); };
    const auto shows_trace = [](const LessonStep& s) { return s.state.value("view", std::string("emulation")) != "performance"; };
    const auto group_of = [](const LessonStep& s) -> std::optional<GroupId> {
        const auto g = s.state.find("group");
        if (g == s.state.end() || !g->is_array() || g->empty()) return std::nullopt;
        return GroupId{g->at(0).get<uint32_t>(), g->size() > 1 ? g->at(1).get<uint32_t>() : 0u, 0u};
    };
    // Every set-up first (so a bad value stops the export before any tracing).
    std::map<std::string, Setup> setups;
    std::vector<std::string> order;
    for (const LessonStep& s : lesson.steps) {
        std::vector<LaunchConfig> configs;
        if (shows_trace(s) || s.question) configs.push_back(step_launch(s));
        if (s.question)
            if (const auto other = step_compare_launch(s)) configs.push_back(*other);
        for (size_t i = 0; i < configs.size(); ++i) {
            const std::string key = key_of(configs[i]);
            auto [it, fresh] = setups.try_emplace(key, Setup{configs[i], {}});
            if (fresh) order.push_back(key);
            if (i == 0)
                if (const auto g = group_of(s)) it->second.groups.insert(*g);
        }
    }
    // All the tracing the lesson asks for, estimated before any starts (issue 32): within
    // what one trace may take (TraceOptions::max_seconds), not that once per set-up.
    double seconds = 0;
    for (const std::string& key : order) {
        TraceOptions to;
        to.cache_requests = true;
        seconds += estimate_trace(setups.at(key).config, to).seconds;
    }
    if (seconds > TraceOptions{}.max_seconds)
        throw InputError("--lesson '" + shown(lesson.name) + "': steps: its " + std::to_string(order.size()) +
                         " set-ups would take about " + std::to_string(int(seconds)) + " s to trace; a lesson may ask for at most " +
                         std::to_string(int(TraceOptions{}.max_seconds)) + " s of tracing");
    std::map<std::string, Trace> traces;
    std::map<std::string, int> index;
    json page_traces = json::array();
    use_emulator_only();
    for (const std::string& key : order) {
        const Setup& su = setups.at(key);
        TraceOptions to;
        to.cancelled = interrupted;
        to.cache_requests = true;  // some questions are answered by the cache model
        if (const ExerciseNote* note = find_exercise_note(su.config.kernel.name)) to.uninitialized = note->uninitialized;
        if (!su.groups.empty()) {
            to.groups.assign(su.groups.begin(), su.groups.end());
            if (!su.groups.count(GroupId{0, 0, 0})) to.groups.insert(to.groups.begin(), GroupId{0, 0, 0});
        }
        std::cerr << "export: tracing " << key << " on the emulator\n";
        traces.emplace(key, run_trace(su.config, to));
    }
    HandoutOptions ho;
    ho.max_frame_groups = 4;  // many traces on one page: fewer frames each
    ho.max_frame_cells = 100000;
    ho.max_story_items = 256;
    json steps = json::array();
    for (const LessonStep& s : lesson.steps) {
        const std::string view = s.state.value("view", std::string("emulation"));
        json step = {{"title", s.title}, {"script", s.script}, {"view", view}, {"trace", nullptr}};
        const std::string key = (shows_trace(s) || s.question) ? key_of(step_launch(s)) : "";
        if (shows_trace(s)) {
            if (!index.count(key)) {
                index[key] = int(page_traces.size());
                page_traces.push_back(handout_data(TraceFile{setups.at(key).config, traces.at(key), nlohmann::json::array()}, ho));
            }
            step["trace"] = index[key];
            json open = json::object();
            if (const auto g = group_of(s)) open["group"] = {(*g)[0], (*g)[1]};
            for (const char* k : {"phase", "interval", "iteration"})
                if (s.state.contains(k)) open[k] = s.state[k];
            if (s.state.contains("part")) open["part"] = s.state["part"];
            if (s.state.contains("item")) open["item"] = s.state["item"];  // the work-item whose story the step tells
            if (view == "heatmap") open["heat"] = true;
            step["open"] = open;
            if (view == "compare")
                step["note"] = "The GUI shows this step side by side with " + s.state.value("compare", std::string("a second set-up")) +
                               "; this page shows the first set-up (the answer below compares both).";
            else if (view == "source")
                step["note"] = "The kernel's source is under the counters, with its barriers marked.";
        } else {
            step["note"] = "This step's view (" + view + ") shows GFLOP/s measured on a real device; a hand-out cannot measure, "
                           "so it is not shown here. Run it with: tilescope gui, or tilescope bench --kernel " +
                           s.state.value("kernel", std::string("tiled")) + ".";
        }
        if (s.question) {
            const auto other = step_compare_launch(s);
            const Trace* compare = other ? &traces.at(key_of(*other)) : nullptr;
            const LessonAnswer a = answer_question(s.question->quantity, traces.at(key), compare);
            step["question"] = {{"text", s.question->text},
                                {"answer", {{"value", number(a.traced)},
                                            {"formula", a.closed_form ? a.formula : std::string()},
                                            {"explanation", a.explanation},
                                            {"modelled", a.modelled}}}};
            json hide = json::array();  // the figures the page holds back until Reveal, as the GUI does
            for (Figure f : kAllFigures)
                if (figure_answers(f, s.question->quantity)) hide.push_back(figure_key(f));
            step["question"]["hide"] = hide;
        }
        steps.push_back(step);
    }
    return {{"lesson_title", lesson.title}, {"lesson_name", lesson.name}, {"lesson_steps", steps}, {"traces", page_traces}};
}

}  // namespace

int cmd_export(const std::vector<std::string>& args) {
    Options o("export", {"html", "lesson", "sheet"}, {"help"});
    std::vector<std::string> options, files;
    // One positional argument: the trace file; everything else goes to Options.
    for (size_t i = 0; i < args.size(); ++i) {
        const bool takes_value = args[i] == "--html" || args[i] == "--lesson" || args[i] == "--sheet";
        if (args[i].rfind("-", 0) == 0 && args[i] != "-") {
            options.push_back(args[i]);
            if (takes_value && i + 1 < args.size()) options.push_back(args[++i]);
        } else {
            files.push_back(args[i]);
        }
    }
    o.parse(options);
    if (o.has("help")) {
        std::cout << kHelp;
        return 0;
    }
    const auto out = o.get("html"), sheet = o.get("sheet");
    if (sheet && !o.get("lesson"))
        throw InputError("--sheet " + *sheet + ": the instructor's sheet is a lesson's; accepted: --sheet SHEET.html --lesson FILE.json");
    if (!out && !sheet)
        throw InputError("--html: missing; accepted: --html OUT.html FILE.tstrace, or --html OUT.html --lesson FILE.json [--sheet SHEET.html]");
    if (const auto lesson_path = o.get("lesson")) {
        if (!files.empty())
            throw InputError("--lesson " + *lesson_path + ": give a lesson or a saved trace, not both (" + files.front() + ")");
        if (out) check_writable(*out, "--html");
        if (sheet) check_writable(*sheet, "--sheet");
        check_distinct_outputs({{"--html", out ? *out : ""}, {"--sheet", sheet ? *sheet : ""}});
        if (out && sheet && *out == *sheet && *out != "-")
            throw InputError("--sheet " + *sheet + ": the same file as --html; accepted: two different files");
        const Lesson lesson = load_lesson(*lesson_path);
        const nlohmann::json page = lesson_page_data(lesson);
        if (out) {
            write_file_atomically(*out, handout_page(page), "--html");
            if (*out != "-") std::cerr << "export: wrote " << *out << " (" << lesson.steps.size() << " steps)\n";
        }
        if (sheet) {
            write_file_atomically(*sheet, instructor_sheet_html(page), "--sheet");
            if (*sheet != "-") std::cerr << "export: wrote the instructor's sheet " << *sheet << "\n";
        }
        return 0;
    }
    if (!out) throw InputError("--html: missing; accepted: --html OUT.html FILE.tstrace");
    if (files.size() != 1)
        throw InputError(std::string("FILE.tstrace: ") + (files.empty() ? "missing" : "more than one given") +
                         "; accepted: exactly one saved trace (tilescope trace ... --save FILE.tstrace)");
    check_writable(*out, "--html");
    check_not_input(*out, "--html", files.front(), "FILE.tstrace");
    const TraceFile trace = load_trace_file(files.front());
    write_file_atomically(*out, handout_html(trace), "--html");
    if (*out != "-") std::cerr << "export: wrote " << *out << "\n";
    return 0;
}

}  // namespace tilescope::cli
