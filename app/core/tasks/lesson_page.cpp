// A lesson's page data (issue 10; moved here from export for class mode, issue 34): the
// traces its steps need, where each step opens, each question's answer from the trace.
#include "core/tasks/lesson_page.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "core/base/errors.h"
#include "core/emulator/trace_runner.h"
#include "core/io/html_export.h"
#include "core/io/trace_file.h"
#include "core/teach/exercise_notes.h"

namespace tilescope::tasks {
namespace {

// Numbers as the tour prints them: whole numbers without decimals.
std::string number(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, std::fabs(v - std::round(v)) < 1e-9 ? "%.0f" : "%.2f", v);
    return buf;
}

}  // namespace

// Every step of a lesson on one page: the traces its steps need (each set-up traced once,
// keeping detail for the groups the steps open) and, per step, where to open and the
// question's answer from the trace.
nlohmann::json lesson_page_data(const Lesson& lesson, const TaskProgress& progress) {
    using nlohmann::json;
    struct Setup {
        LaunchConfig config;
        std::set<GroupId> groups;
    };
    // Two set-ups are one trace only when everything the trace depends on is the same: the
    // parameters too (reg2d with TSK=8 and with TSK=32 have different phases).
    const auto key_of = [](const LaunchConfig& c) {
        std::string key = c.kernel.name + " " + c.size.label() + " " + std::to_string(c.tile);
        for (const auto& [name, value] : c.params) key += " " + name + "=" + std::to_string(value);
        return key;
    };
    const auto shows_trace = [](const LessonStep& s) { return s.state.value("view", std::string("emulation")) != "performance"; };
    const auto group_of = [](const LessonStep& s) -> std::optional<GroupId> {
        const auto g = s.state.find("group");
        if (g == s.state.end() || !g->is_array() || g->empty()) return std::nullopt;
        return GroupId{g->at(0).get<uint32_t>(), g->size() > 1 ? g->at(1).get<uint32_t>() : 0u,
                       g->size() > 2 ? g->at(2).get<uint32_t>() : 0u};  // splitk's slice is its Z
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
        throw InputError(lesson.file + ": steps: its " + std::to_string(order.size()) +
                         " set-ups would take about " + std::to_string(int(seconds)) + " s to trace; a lesson may ask for at most " +
                         std::to_string(int(TraceOptions{}.max_seconds)) + " s of tracing");
    std::map<std::string, Trace> traces;
    std::map<std::string, int> index;
    json page_traces = json::array();
    use_emulator_only();
    for (const std::string& key : order) {
        const Setup& su = setups.at(key);
        TraceOptions to;
        to.cancelled = progress.cancelled;
        to.cache_requests = true;  // some questions are answered by the cache model
        // A refusal names the lesson and the set-up, not --size or --groups (nobody typed them).
        to.named_as = lesson.file + ": the trace of '" + su.config.kernel.name + "' at " + su.config.size.label();
        if (const ExerciseNote* note = find_exercise_note(su.config.kernel.name)) to.uninitialized = note->uninitialized;
        if (!su.groups.empty()) {
            to.groups.assign(su.groups.begin(), su.groups.end());
            if (!su.groups.count(GroupId{0, 0, 0})) to.groups.insert(to.groups.begin(), GroupId{0, 0, 0});
        }
        progress.say("tracing " + key + " on the emulator");
        traces.emplace(key, run_trace(su.config, to));  // a limit known once built names the set-up (named_as)
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
            if (const auto g = group_of(s)) open["group"] = {(*g)[0], (*g)[1], (*g)[2]};
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

}  // namespace tilescope::tasks
