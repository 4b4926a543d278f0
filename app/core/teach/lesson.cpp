#include "core/teach/lesson.h"

#include "core/base/plain_errors.h"
#include "core/kernel/launch_config.h"
#include "core/trace/phases.h"
#include "core/teach/scene_values.h"
#include "core/trace/frame.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "core/trace/analysis.h"
#include "core/caches/cache_trace.h"
#include "core/caches/held_out.h"
#include "core/kernel/catalog.h"
#include "core/base/embedded_files.h"
#include "core/base/errors.h"
#include "core/base/untrusted_file.h"
#include "core/trace/view_model.h"

namespace tilescope {
using nlohmann::json;

namespace {

// The GUI's scene keys (gui --scene), so a step opens exactly like a scene.
const char* const kStateKeys[] = {"kernel", "size", "tile", "params", "group", "phase", "part", "interval", "iteration", "item",
                                  "naming", "view", "play", "presenter", "compare", "compare_params", "device"};

// {"PAD": 0} as "PAD=0" options, each checked against `kernel` (InputError naming `where`).
std::map<std::string, int64_t> params_of(const json& params, const KernelSpec& kernel, const std::string& where) {
    std::map<std::string, int64_t> out;
    if (!params.is_object()) throw InputError(where + " must be an object {\"NAME\": integer, ...}");
    for (const auto& [name, value] : params.items()) {
        if (!value.is_number_integer()) throw InputError(where + " '" + shown(name) + "' must be an integer");
        try {
            const auto [n, v] = parse_param(kernel, name + "=" + std::to_string(value.get<long long>()), "params");
            out[n] = v;
        } catch (const InputError& e) {
            throw InputError(where + ": " + e.what());
        }
    }
    return out;
}

std::string fmt(double v) {
    char buf[64];
    if (std::fabs(v - std::round(v)) < 1e-9) std::snprintf(buf, sizeof buf, "%.0f", v);
    else std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

int64_t ceil_div(int64_t a, int64_t b) { return b > 0 ? (a + b - 1) / b : 0; }

bool tiled_family(const Trace& t) {
    return !t.custom && (t.kernel == "tiled" || t.kernel.rfind("tiled_", 0) == 0) && t.kernel != "tiled_wpt";
}

LessonStep parse_step(const json& s, const std::string& where) {
    LessonStep step;
    if (!s.is_object()) throw InputError(where + ": a step must be an object {title, state, script, question?}");
    for (const auto& [key, value] : s.items())
        if (key != "title" && key != "state" && key != "script" && key != "question")
            throw InputError(where + ": unknown key '" + shown(key) + "'; accepted: title, state, script, question");
    if (!s.contains("title") || !s["title"].is_string()) throw InputError(where + ": 'title' must be a string");
    if (!s.contains("script") || !s["script"].is_string()) throw InputError(where + ": 'script' must be a string");
    if (!s.contains("state") || !s["state"].is_object()) throw InputError(where + ": 'state' must be an object");
    step.title = s["title"].get<std::string>();
    step.script = s["script"].get<std::string>();
    // Texts a screen shows whole: bounded so one line of the GUI stays within what ImGui draws.
    if (step.title.size() > kMaxLessonTitleChars)
        throw InputError(where + ": 'title' of " + std::to_string(step.title.size()) + " characters; accepted: at most " +
                         std::to_string(kMaxLessonTitleChars));
    if (step.script.size() > kMaxLessonScriptChars)
        throw InputError(where + ": 'script' of " + std::to_string(step.script.size()) + " characters; accepted: at most " +
                         std::to_string(kMaxLessonScriptChars));
    step.state = s["state"];
    for (const auto& [key, value] : step.state.items())
        if (std::find(std::begin(kStateKeys), std::end(kStateKeys), key) == std::end(kStateKeys))
            throw InputError(where + ": state key '" + shown(key) + "' is unknown; accepted: kernel, size, tile, params, group, phase, "
                             "part, interval, iteration, item, naming, view, play, presenter, compare, compare_params, device");
    auto want = [&](const char* key, bool ok, const std::string& what) {
        if (step.state.contains(key) && !ok) throw InputError(where + ": state key '" + key + "' must be " + what);
    };
    const json& st = step.state;
    want("kernel", st.value("kernel", json()).is_string(), "a kernel name");
    want("size", st.value("size", json()).is_string(), "a size string such as \"32\" or \"37x29x45\"");
    want("tile", st.value("tile", json()).is_number_unsigned() && st.value("tile", json()).get<uint64_t>() >= 1 &&
                     st.value("tile", json()).get<uint64_t>() <= 1024,
         "an integer from 1 to 1024");
    // The keys that are not a launch, against the values the GUI accepts for them (scene_values.h).
    const auto number = [](const json& v) {
        return v.is_number_integer() && !(v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(kMaxSceneNumber)) &&
               v.get<int64_t>() >= 0 && v.get<int64_t>() <= kMaxSceneNumber;
    };
    const std::string upto = " from 0 to " + std::to_string(kMaxSceneNumber);
    want("phase", number(st.value("phase", json())), "an integer" + upto + " (a phase: one trip round the tile loop)");
    want("part", st.value("part", json()).is_string() && is_scene_part(st["part"].get_ref<const std::string&>()),
         "a part's name: " + scene_parts_text());
    want("interval", number(st.value("interval", json())), "an integer" + upto + " (a raw barrier interval)");
    want("iteration", number(st.value("iteration", json())), "an integer" + upto + " (an iteration of a use part)");
    if (st.contains("phase") && st.contains("interval"))
        throw InputError(where + ": state keys 'phase' and 'interval': give one of them (a phase of the slides, or a raw barrier interval)");
    if (st.contains("part") && st.contains("interval"))
        throw InputError(where + ": state key 'part' names a part of a phase; it does not go with 'interval'");
    // [X, Y] or [X, Y, Z]: non-negative integers, checked here so no later get<> meets a string.
    const auto id_list = [](const json& v) {
        if (!v.is_array() || v.empty() || v.size() > 3) return false;
        for (const json& e : v)
            if (!e.is_number_unsigned() || e.get<uint64_t>() > 0x7fffffffu) return false;
        return true;
    };
    want("item", id_list(st.value("item", json())), "[X, Y] (a work-item's local id: non-negative integers)");
    want("naming", st.value("naming", json()).is_string() && parse_naming(st["naming"].get_ref<const std::string&>()),
         "\"slides\" or \"abc\"");
    want("view", st.value("view", json()).is_string() && is_scene_view(st["view"].get_ref<const std::string&>()),
         "a view: " + scene_views_text());
    want("device", st.value("device", json()).is_string(), "a device's name or a part of it, such as \"pocl\"");
    if (st.contains("device"))
        if (const std::string p = scene_device_problem(st["device"].get_ref<const std::string&>()); !p.empty())
            throw InputError(where + ": state key 'device' " + p);
    want("compare", st.value("compare", json()).is_string(), "\"KERNEL:TILE\"");
    want("group", id_list(st.value("group", json())), "[X, Y] (a work-group's id: non-negative integers)");
    want("params", st.value("params", json()).is_object(), "an object {\"NAME\": integer, ...} of the kernel's parameters");
    want("compare_params", st.value("compare_params", json()).is_object(),
         "an object {\"NAME\": integer, ...} of the compare kernel's parameters");
    if (st.contains("compare_params") && !st.contains("compare"))
        throw InputError(where + ": state key 'compare_params' needs a 'compare' configuration");
    // Both launches a step opens, checked now as the lesson's (issue 32 item 6): the GUI turns
    // a step into options, whose refusals would name --tile or --compare, which nobody typed.
    {
        std::string bad;
        try {
            std::vector<std::pair<std::string, LaunchConfig>> launches{{"tile", step_launch(step)}};
            if (auto other = step_compare_launch(step)) launches.push_back({"compare", *other});
            for (const auto& [key, c] : launches) {
                if (!c.kernel.library.empty()) {
                    bad = "state key '" + std::string(key == "tile" ? "kernel" : key) + "': kernel '" + c.kernel.name +
                          "' is a library call (" + c.kernel.library +
                          "), which the emulator cannot trace; accepted: a ladder rung or an exercise";
                    break;
                }
                if (c.tile < 1 || c.tile > 1024) {
                    bad = "state key '" + key + "': tile " + std::to_string(c.tile) + "; accepted: a tile from 1 to 1024";
                    break;
                }
                const ResolvedLaunch r = resolve(c);
                if (r.group_size() > 1024) {
                    bad = "state key '" + key + "': kernel '" + c.kernel.name + "' at tile " + std::to_string(c.tile) +
                          " needs work-groups of " + std::to_string(r.group_size()) +
                          " work-items; accepted: a tile whose work-groups have at most 1024 (the emulator's limit)";
                    break;
                }
            }
        } catch (const InputError& e) {
            throw InputError(where + ": " + e.what());
        }
        if (!bad.empty()) throw InputError(where + ": " + bad);
    }
    // A group inside the step's NDRange and an item inside its work-groups, said as the lesson's, never as
    // --group or --item (issue 32 item 6).
    const auto check_inside = [&](const char* key, const char* before, const char* after, auto extent_of) {
        if (!st.contains(key)) return;
        std::string outside;
        try {
            const ResolvedLaunch r = resolve(step_launch(step));
            const json& ids = st[key];
            std::string extents, accepted;
            for (int d = 0; d < r.dims; ++d) {
                extents += (d ? "x" : "") + std::to_string(extent_of(r, d));
                accepted += std::string(d ? ", " : "") + "XYZ"[d] + " < " + std::to_string(extent_of(r, d));
            }
            for (size_t d = 0; d < ids.size(); ++d)
                if (ids[d].get<uint64_t>() >= (d < size_t(r.dims) ? uint64_t(extent_of(r, d)) : 1))
                    outside = std::string("state key '") + key + "' " + ids.dump() + " lies outside the step's " +
                              before + extents + after + "; accepted: " + accepted;
        } catch (const InputError& e) {
            throw InputError(where + ": " + e.what());
        }
        if (!outside.empty()) throw InputError(where + ": " + outside);
    };
    check_inside("group", "", " work-groups", [](const ResolvedLaunch& r, int d) { return r.groups[d]; });
    check_inside("item", "work-groups of ", " work-items", [](const ResolvedLaunch& r, int d) { return r.local[d]; });
    if (s.contains("question")) {
        const json& q = s["question"];
        if (!q.is_object() || !q.contains("text") || !q["text"].is_string() || !q.contains("quantity") ||
            !q["quantity"].is_string())
            throw InputError(where + ": 'question' must be {text, quantity}");
        for (const auto& [key, value] : q.items())
            if (key != "text" && key != "quantity")
                throw InputError(where + ": question key '" + shown(key) + "' is unknown; accepted: text, quantity");
        if (q["text"].get_ref<const std::string&>().size() > kMaxLessonTitleChars * 4)
            throw InputError(where + ": question 'text' longer than " + std::to_string(kMaxLessonTitleChars * 4) +
                             " characters");
        const std::string quantity = q["quantity"].get<std::string>();
        const auto known = lesson_quantities();
        if (std::find(known.begin(), known.end(), quantity) == known.end()) {
            std::string list;
            for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
            throw InputError(where + ": question quantity '" + shown(quantity) + "' is unknown; accepted: " + list);
        }
        if ((quantity == "traffic_factor" || quantity == "dram_traffic_factor") && !step_compare_launch(step))
            throw InputError(where + ": question quantity '" + quantity +
                             "' compares two set-ups; accepted with a state key 'compare' (\"KERNEL:TILE\")");
        step.question = LessonQuestion{q["text"].get<std::string>(), quantity};
    }
    return step;
}

}  // namespace

Lesson parse_lesson(std::string_view text, std::string_view name) {
    const std::string file(name);
    json doc;
    // Depth first: nlohmann's values are copied and compared recursively.
    check_json_depth(text, kMaxLessonNesting, file);
    try {
        doc = json::parse(text);
    } catch (const json::exception& e) {
        throw InputError(file + ": not JSON (" + json_problem(e) + ")");
    }
    if (!doc.is_object() || !doc.contains("title") || !doc["title"].is_string() || !doc.contains("steps") ||
        !doc["steps"].is_array() || doc["steps"].empty())
        throw InputError(file + ": accepted: {\"title\": ..., \"steps\": [ {title, state, script, question?}, ... ]}");
    Lesson lesson;
    lesson.file = file;
    lesson.title = doc["title"].get<std::string>();
    if (lesson.title.size() > kMaxLessonTitleChars)
        throw InputError(file + ": 'title' of " + std::to_string(lesson.title.size()) + " characters; accepted: at most " +
                         std::to_string(kMaxLessonTitleChars));
    // The stem of the path inside the label ("--lesson 'dir/1_naive.json'": 1_naive).
    std::string stem = file;
    if (const size_t q = stem.find('\''); q != std::string::npos && stem.size() > q + 1 && stem.back() == '\'')
        stem = stem.substr(q + 1, stem.size() - q - 2);
    stem = stem.substr(stem.find_last_of('/') + 1);
    lesson.name = stem.substr(0, stem.rfind(".json"));
    // What the steps will cost before any is parsed into a set-up (issue 32): every step is
    // a place in the lesson; every different set-up a trace (export --lesson traces them
    // all and keeps them, the GUI one per step opened). A lesson of 100 small set-ups took
    // 60 s and 2.2 GB; the shipped lessons use at most 11 steps and 4 set-ups.
    if (doc["steps"].size() > kMaxLessonSteps)
        throw InputError(file + ": steps: " + std::to_string(doc["steps"].size()) + " steps; a lesson may have at most " +
                         std::to_string(kMaxLessonSteps));
    for (size_t i = 0; i < doc["steps"].size(); ++i)
        lesson.steps.push_back(parse_step(doc["steps"][i], file + ", step " + std::to_string(i + 1)));
    std::set<std::string> setups;
    for (size_t i = 0; i < lesson.steps.size(); ++i) {
        json setup = lesson.steps[i].state;  // where the step opens is not a set-up of its own
        for (const char* place : {"view", "group", "phase", "part", "interval", "iteration", "item", "presenter", "play", "heat"})
            setup.erase(place);
        setups.insert(setup.dump());
        if (setups.size() > kMaxLessonSetups)
            throw InputError(file + ", step " + std::to_string(i + 1) + ": steps: more than " + std::to_string(kMaxLessonSetups) +
                             " different set-ups (kernel, size, tile, parameters, compare), each a trace; a lesson may ask for at most " +
                             std::to_string(kMaxLessonSetups));
    }
    return lesson;
}

Lesson load_lesson(const std::string& path) {
    const std::string label = "--lesson '" + shown_path(path) + "'";
    return parse_lesson(read_untrusted_file(path, kMaxLessonBytes, label), label);
}

LaunchConfig step_launch(const LessonStep& step) {
    const json& st = step.state;
    const std::string name = st.value("kernel", std::string("tiled"));
    const KernelSpec* k = find_kernel(name);
    if (!k) throw InputError("lesson step '" + shown(step.title) + "': unknown kernel '" + shown(name) + "'");
    LaunchConfig c{*k, parse_size(st.value("size", std::string("32")), "lesson size"), st.value("tile", k->default_tile)};
    if (st.contains("params")) {
        c.params = params_of(st["params"], *k, "lesson step '" + shown(step.title) + "': params");
        c.params_source = "given";
    }
    return c;
}

std::optional<LaunchConfig> step_compare_launch(const LessonStep& step) {
    if (!step.state.contains("compare")) return std::nullopt;
    const std::string text = step.state["compare"].get<std::string>();
    const size_t colon = text.find(':');
    const std::string name = text.substr(0, colon);
    const KernelSpec* k = find_kernel(name);
    if (!k) throw InputError("lesson step '" + shown(step.title) + "': compare names an unknown kernel '" + shown(name) + "'");
    LaunchConfig c = step_launch(step);
    c.kernel = *k;
    c.params.clear();  // as gui --compare: a named kernel takes its own defaults, then compare_params
    c.params_source = "default";
    if (step.state.contains("compare_params")) {
        c.params = params_of(step.state["compare_params"], *k, "lesson step '" + shown(step.title) + "': compare_params");
        c.params_source = "given";
    }
    const std::string tile = colon == std::string::npos ? "" : text.substr(colon + 1);
    if (colon != std::string::npos && (tile.empty() || tile.size() > 4 || tile.find_first_not_of("0123456789") != std::string::npos))
        throw InputError("lesson step '" + shown(step.title) + "': compare '" + shown(text) + "'; accepted: KERNEL or KERNEL:TILE");
    c.tile = tile.empty() ? k->default_tile : std::stoi(tile);
    return c;
}

const std::vector<Lesson>& builtin_lessons() {
    static const std::vector<Lesson> lessons = [] {
        std::vector<Lesson> out;
        for (const EmbeddedFile& f : embedded_files())
            if (f.path.rfind("assets/lessons/", 0) == 0 && f.path.size() > 5 && f.path.substr(f.path.size() - 5) == ".json")
                out.push_back(parse_lesson(f.text, f.path));
        return out;
    }();
    return lessons;
}

std::vector<std::string> lesson_quantities() {
    return {"a_loads_per_element", "local_copies", "local_bytes_per_group", "traffic_factor", "phases",
            "work_groups", "idle_work_items", "compute_to_global_ratio", "wrong_cells",
            "l1_hit_percent", "dram_traffic_factor"};
}

LessonAnswer answer_question(std::string_view quantity, const Trace& t, const Trace* compare) {
    LessonAnswer a;
    const int64_t M = t.size.M, N = t.size.N, K = t.size.K, TS = t.tile;
    const bool tiled = tiled_family(t);
    if (quantity == "a_loads_per_element") {
        const ReuseLine r = reuse_line(t, matrix_roles(t).a, "A");
        a.traced = r.mean_loads;
        a.explanation = "traced: each element of A was loaded " + fmt(r.min_loads) +
                        (r.max_loads != r.min_loads ? " to " + fmt(r.max_loads) : "") + " times (mean " + fmt(r.mean_loads) + ")";
        if (!t.custom && (t.kernel == "naive" || t.kernel == "row")) {
            a.closed_form = double(N);
            a.formula = "N = " + fmt(double(N));
        } else if (tiled) {
            a.closed_form = double(ceil_div(N, TS));
            a.formula = "ceil(N/TS) = " + fmt(*a.closed_form);
        }
    } else if (quantity == "local_copies") {
        uint64_t groups_with_local = 0;
        for (const GroupTotals& g : t.group_totals) groups_with_local += g.local.stores > 0 ? 1 : 0;
        a.traced = double(groups_with_local);
        a.explanation = "traced: work-groups that stored into their own local arrays";
        a.closed_form = double(t.total_groups());
        a.formula = "one per work-group: " + std::to_string(t.groups[0]) + " x " + std::to_string(t.groups[1]) + " = " +
                    fmt(*a.closed_form);
    } else if (quantity == "local_bytes_per_group") {
        uint64_t bytes = 0;
        std::string arrays;
        for (const LocalBuffer& l : t.local_buffers) {
            bytes += l.bytes;
            arrays += (arrays.empty() ? "" : " + ") + l.name + " " + std::to_string(l.bytes) + " B";
        }
        a.traced = double(bytes);
        a.explanation = "traced: the local arrays the kernel declares (" + arrays + ")";
        if (tiled) {
            a.closed_form = double(2 * TS * TS * 4);
            a.formula = "2 tiles x TS x TS floats x 4 B = 2 x " + fmt(double(TS)) + " x " + fmt(double(TS)) + " x 4 = " +
                        fmt(*a.closed_form) + " B";
        }
    } else if (quantity == "traffic_factor") {
        if (!compare) throw InputError("question 'traffic_factor' needs a step with a compare configuration");
        a.traced = t.totals.global_load_bytes ? double(compare->totals.global_load_bytes) / double(t.totals.global_load_bytes) : 0;
        a.explanation = "traced: global loads of " + compare->kernel + " (TS " + std::to_string(compare->tile) + ") over " +
                        t.kernel + " (TS " + std::to_string(t.tile) + ")";
        if (tiled && compare->kernel == "naive" && M % TS == 0 && N % TS == 0) {
            a.closed_form = double(TS);
            a.formula = "2*M*N*K / (2*M*N*K/TS) = TS = " + fmt(double(TS));
        }
    } else if (quantity == "phases") {
        const GroupTrace* g = t.detail.empty() ? nullptr : &t.detail.front();
        const PhasePlan plan = g ? phase_plan(*g) : PhasePlan{};
        a.traced = plan.phases;
        std::string lines;
        for (int l : plan.cycle_lines) lines += (lines.empty() ? "" : ", ") + std::to_string(l);
        a.explanation = "traced: trips round the tile loop of the first work-group (the barrier lines " + lines +
                        " repeat " + std::to_string(plan.phases) + " times)";
        if (tiled) {
            a.closed_form = double(ceil_div(K, TS));
            a.formula = "ceil(K/TS) = ceil(" + fmt(double(K)) + "/" + fmt(double(TS)) + ") = " + fmt(*a.closed_form);
        }
    } else if (quantity == "work_groups") {
        a.traced = double(t.group_totals.size());
        a.explanation = "traced: work-groups the emulator ran";
        if (tiled || t.kernel == "naive") {
            a.closed_form = double(ceil_div(N, TS) * ceil_div(M, TS));
            a.formula = "ceil(N/TS) x ceil(M/TS) = " + fmt(double(ceil_div(N, TS))) + " x " + fmt(double(ceil_div(M, TS))) +
                        " = " + fmt(*a.closed_form);
        }
    } else if (quantity == "idle_work_items") {
        const TracedBuffer* c = t.find_buffer(matrix_roles(t).c);
        const double items = double(t.global[0] * t.global[1] * t.global[2]);
        a.traced = items - double(c ? c->distinct_elements_stored : 0);
        a.explanation = "traced: work-items launched (" + fmt(items) + ") minus the distinct cells of C stored";
        if (tiled || t.kernel == "naive") {
            a.closed_form = double(ceil_div(M, TS) * TS * ceil_div(N, TS) * TS - M * N);
            a.formula = "ceil(M/TS)*TS * ceil(N/TS)*TS - M*N = " + fmt(*a.closed_form);
        }
    } else if (quantity == "compute_to_global_ratio") {
        a.traced = compute_to_global_ratio(t);
        a.explanation = "traced: flops per float loaded from global memory";
        if (!t.custom && t.kernel == "naive") {
            a.closed_form = 1;
            a.formula = "2*M*N*K flops / 2*M*N*K floats = 1";
        } else if (tiled && M % TS == 0 && N % TS == 0) {
            a.closed_form = double(TS);
            a.formula = "2*M*N*K / (2*M*N*K/TS) = TS = " + fmt(double(TS));
        }
    } else if (quantity == "l1_hit_percent") {
        // Modelled on the H200 profile: the share of load sectors the L1 serves.
        const CacheReport r = model_trace_caches(t, load_cache_profile("h200"));
        a.traced = 100.0 * r.totals.l1_hit_rate();
        a.modelled = true;
        a.explanation = "modelled on the H200 profile from the traced requests: " + fmt(double(r.totals.l1_hit_sectors)) +
                        " of " + fmt(double(r.totals.l1_sectors)) + " load sectors hit in L1";
        // Beside the modelled figure, how the model fared against the hardware (issue 31).
        const std::string check = held_out_l1_line(held_out_table(), "h200", t.kernel);
        if (!check.empty()) a.explanation += "; held to the hardware: " + check;
    } else if (quantity == "dram_traffic_factor") {
        if (!compare) throw InputError("question 'dram_traffic_factor' needs a step with a compare configuration");
        const CacheProfile h200 = load_cache_profile("h200");
        const CacheReport mine = model_trace_caches(t, h200), theirs = model_trace_caches(*compare, h200);
        a.traced = mine.totals.dram_read_bytes ? double(theirs.totals.dram_read_bytes) / double(mine.totals.dram_read_bytes) : 0;
        a.modelled = true;
        a.explanation = "modelled on the H200 profile: DRAM reads of " + compare->kernel + " (" +
                        fmt(double(theirs.totals.dram_read_bytes)) + " B) over " + t.kernel + " (TS " + std::to_string(t.tile) +
                        ", " + fmt(double(mine.totals.dram_read_bytes)) + " B); traced global loads differ " +
                        fmt(t.totals.global_load_bytes ? double(compare->totals.global_load_bytes) / double(t.totals.global_load_bytes) : 0) +
                        "x";
    } else if (quantity == "wrong_cells") {
        a.traced = double(t.wrong_cells.size());
        a.explanation = "traced: cells of C that differ from the CPU reference";
    } else {
        throw InputError("question quantity '" + shown(quantity) + "' is unknown");
    }
    return a;
}

std::string guess_distance(double guess, double answer) {
    if (std::fabs(guess - answer) <= 1e-9 * std::max(1.0, std::fabs(answer))) return "exact";
    const double off = guess - answer;
    std::string s = "off by " + fmt(std::fabs(off));
    if (answer != 0) s += " (" + fmt(std::fabs(off) / std::fabs(answer) * 100) + "%)";
    if (answer > 0 && guess > 0) {
        const double ratio = guess > answer ? guess / answer : answer / guess;
        if (ratio >= 2) s += ", " + fmt(ratio) + "x too " + (guess > answer ? "high" : "low");
    }
    return s;
}

GuessVerdict judge_guess(double guess, double answer) {
    const double shown_guess = std::round(guess * 100) / 100, shown_answer = std::round(answer * 100) / 100;
    if (std::fabs(shown_guess - shown_answer) <= 1e-9 * std::max(1.0, std::fabs(shown_answer))) return GuessVerdict::Exact;
    const double off = std::fabs(guess - answer);
    if (off <= 0.1 * std::fabs(answer)) return GuessVerdict::Close;
    if (std::fabs(answer) >= 3 && std::fabs(answer) < 20 && off <= 1 && answer == std::round(answer)) return GuessVerdict::Close;
    return GuessVerdict::Off;
}

const char* verdict_word(GuessVerdict v) {
    switch (v) {
        case GuessVerdict::Exact: return "exact";
        case GuessVerdict::Close: return "close";
        case GuessVerdict::Off: return "off";
    }
    return "off";
}

bool figure_answers(Figure f, std::string_view q) {
    switch (f) {
        // An element of A is loaded N/TS times and a group runs K/TS phases: in a square
        // launch (the slides' 4x4 and 3x3) a cell's load count is the phase count.
        case Figure::LoadsPerElement: return q == "a_loads_per_element" || q == "traffic_factor" || q == "phases";
        case Figure::FlopPerLoad: return q == "compute_to_global_ratio" || q == "traffic_factor";
        case Figure::GlobalTraffic: return q == "compute_to_global_ratio" || q == "traffic_factor" || q == "a_loads_per_element";
        case Figure::PhaseCount: return q == "phases";
        case Figure::WorkGroups: return q == "work_groups" || q == "local_copies";
        case Figure::IdleItems: return q == "idle_work_items";
        case Figure::WrongCells: return q == "wrong_cells";
        case Figure::LocalBytes: return q == "local_bytes_per_group";
        case Figure::CacheFigures: return q == "l1_hit_percent" || q == "dram_traffic_factor";
    }
    return false;
}

const char* figure_key(Figure f) {
    switch (f) {
        case Figure::LoadsPerElement: return "loads_per_element";
        case Figure::FlopPerLoad: return "flop_per_load";
        case Figure::GlobalTraffic: return "global_traffic";
        case Figure::PhaseCount: return "phase_count";
        case Figure::WorkGroups: return "work_groups";
        case Figure::IdleItems: return "idle_items";
        case Figure::WrongCells: return "wrong_cells";
        case Figure::LocalBytes: return "local_bytes";
        case Figure::CacheFigures: return "cache_figures";
    }
    return "";
}

}  // namespace tilescope
