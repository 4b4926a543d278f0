#include <algorithm>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <iostream>

#include "cli/cli.h"

#include "core/base/number_text.h"
#include "args/options.h"
#include "core/trace/analysis.h"
#include "core/trace/phases.h"
#include "core/kernel/catalog.h"
#include "core/base/errors.h"
#include "core/teach/exercise_notes.h"
#include "core/teach/lesson.h"
#include "core/device/runner.h"
#include "core/io/trace_export.h"
#include "core/emulator/trace_runner.h"

namespace tilescope::cli {
namespace {

const char* kHelp =
    "usage: tilescope tour [--device SEL] [--size S] [--trace-size S] [--no-pause]\n"
    "A walk through the lesson in the terminal, measured and traced as it goes:\n"
    "  1. every rung of the ladder run on the emulator, its global loads counted and set\n"
    "     beside the closed form (default 32x32x32, TS=8; --trace-size);\n"
    "  2. one work-group of the tiled kernel, phase by phase: which tiles it loads;\n"
    "  3. every rung timed on a real device and verified (default 256; --size, --device);\n"
    "  4. the GUI's lessons as text, each question answered from a trace.\n"
    "On a terminal it pauses between parts (Enter continues); --no-pause runs straight through.\n";

void pause(bool enabled) {
    if (!enabled) return;
    std::printf("\n  [Enter: next part]");
    std::fflush(stdout);
    std::string line;
    std::getline(std::cin, line);
}

void heading(const char* text) { std::printf("\n== %s ==\n\n", text); }

// Prints `text` wrapped at 80 columns, indented by `indent`.
void wrapped(const std::string& text, int indent) {
    std::string line;
    auto flush = [&] { std::printf("%*s%s\n", indent, "", line.c_str()); line.clear(); };
    size_t at = 0;
    while (at < text.size()) {
        size_t space = text.find(' ', at);
        if (space == std::string::npos) space = text.size();
        const std::string word = text.substr(at, space - at);
        if (!line.empty() && int(line.size() + 1 + word.size()) + indent > 80) flush();
        line += (line.empty() ? "" : " ") + word;
        at = space + 1;
    }
    if (!line.empty()) flush();
}

// Traces of the lessons' set-ups, each made once.
const Trace& lesson_trace(const LaunchConfig& config, std::map<std::string, Trace>& cache) {
    const std::string key = config.kernel.name + " " + config.size.label() + " " + std::to_string(config.tile) +
                            " " + std::to_string(std::hash<std::string>{}(config.kernel.source));
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
    TraceOptions to;
    to.cancelled = interrupted;
    to.cache_requests = true;  // some questions are answered by the cache model
    if (const ExerciseNote* note = find_exercise_note(config.kernel.name)) to.uninitialized = note->uninitialized;
    return cache.emplace(key, run_trace(config, to)).first->second;
}

std::string number(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, std::fabs(v - std::round(v)) < 1e-9 ? "%.0f" : "%.2f", v);
    return buf;
}

// Every step of every built-in lesson: its script, and its question answered from a trace.
void walk_lessons(bool paused) {
    std::map<std::string, Trace> cache;
    for (const Lesson& lesson : builtin_lessons()) {
        std::printf("\n-- %s --\n", lesson.title.c_str());
        for (size_t i = 0; i < lesson.steps.size(); ++i) {
            if (interrupted()) throw Cancelled();
            const LessonStep& step = lesson.steps[i];
            std::printf("\n  %zu. %s\n", i + 1, step.title.c_str());
            wrapped(step.script, 5);
            if (!step.question) continue;
            const LaunchConfig config = step_launch(step);
            const Trace& t = lesson_trace(config, cache);
            const auto other = step_compare_launch(step);
            const Trace* compare = other ? &lesson_trace(*other, cache) : nullptr;
            const LessonAnswer a = answer_question(step.question->quantity, t, compare);
            std::printf("\n     Q: ");
            wrapped(step.question->text, 0);
            std::printf("     (%s at %s, TS %d)\n", config.kernel.name.c_str(), config.size.label().c_str(), config.tile);
            if (paused) {  // at a terminal the class guesses first: the answer waits for Enter
                std::printf("     [Enter: reveal the answer]");
                std::fflush(stdout);
                std::string line;
                std::getline(std::cin, line);
            }
            std::printf("     A: %s%s (%s)%s\n", number(a.traced).c_str(), a.modelled ? ", modelled" : "", a.explanation.c_str(),
                        a.closed_form ? ("; closed form " + a.formula).c_str() : "");
        }
        pause(paused);
    }
    std::printf("\nTry the broken kernels yourself: tilescope trace --kernel NAME for %s.\n", exercise_names().c_str());
}

}  // namespace

int cmd_tour(const std::vector<std::string>& args) {
    Options o("tour", {"device", "size", "trace-size"}, {"help", "no-pause"});
    o.parse(args);
    if (o.has("help")) {
        std::cout << kHelp;
        return 0;
    }
    const ProblemSize size = parse_size(o.get_or("size", "256"));
    const ProblemSize small = parse_size(o.get_or("trace-size", "32"), "--trace-size");
    if (small.M * small.N * small.K > 128 * 128 * 128)
        throw InputError("--trace-size " + small.label() + ": the tour traces every rung; accepted: up to 128x128x128");
    const DeviceInfo& device = select_device(o.get_or("device", ""));
    const bool paused = !o.has("no-pause") && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
    install_interrupt_handler();
    constexpr int kTraceTile = 8;

    std::printf("tilescope tour: where a matrix multiplication's loads come from\n\n"
                "C = A*B with A of MxK, B of KxN and C of MxN, row-major. The course slides call\n"
                "the three matrices M, N and P. Every work-item computes part of C; the question\n"
                "of the lesson is how often each element of A and B is fetched from global memory,\n"
                "and how local memory lets a work-group fetch it once and share it.\n");

    heading("1. Counting loads on the emulator");
    std::printf("Each rung runs once on Oclgrind at %s (TS=%d); every load is traced.\n"
                "'closed form' is what the rung must load, worked out by hand.\n\n",
                small.label().c_str(), kTraceTile);
    std::printf("  %-18s %14s %14s  %-8s %s\n", "rung", "traced floats", "closed form", "flops per", "");
    std::printf("  %-18s %14s %14s  %-8s\n", "", "from global", "", "float");
    Trace tiled_trace;
    for (const KernelSpec& k : ladder()) {
        if (!k.library.empty()) continue;
        if (interrupted()) throw Cancelled();
        TraceOptions to;
        to.cancelled = interrupted;
        // Every rung at the lesson's tile where it takes it; a rung whose tiles start
        // higher (cpu_panel's vectors, warp_tile's warp blocks) at its smallest.
        const bool takes = std::find(k.tiles.begin(), k.tiles.end(), kTraceTile) != k.tiles.end() || k.tiles.empty();
        const int tile = takes ? kTraceTile : *std::min_element(k.tiles.begin(), k.tiles.end());
        const Trace t = run_trace(LaunchConfig{k, small, tile}, to);
        const auto expected = expected_traffic(t);
        const std::string shown = tile == kTraceTile ? k.name : k.name + " TS=" + std::to_string(tile);
        std::printf("  %-18s %14s %14s  %8.2f  %s\n", shown.c_str(), grouped(t.totals.global_load_bytes / 4).c_str(),
                    expected ? grouped(expected->global_load_bytes / 4).c_str() : "-", compute_to_global_ratio(t),
                    expected ? expected->global_load_formula.c_str() : "");
        if (k.name == "tiled") tiled_trace = t;
    }
    std::printf("\nThe naive kernel loads two floats for every multiply-add: one flop per float.\n"
                "Tiling with TS=%d makes every float fetched from global memory serve %d work-items.\n",
                kTraceTile, kTraceTile);
    pause(paused);

    heading("2. One work-group of the tiled kernel, phase by phase");
    if (const GroupTrace* g = tiled_trace.detail.empty() ? nullptr : &tiled_trace.detail.front()) {
        const PhasePlan plan = phase_plan(*g);
        std::printf("Work-group (%u,%u) computes C rows %u-%u, cols %u-%u in %d phases: one trip\n"
                    "round the tile loop each. A phase has two parts, each ending at a barrier:\n"
                    "load (a tile of A and of B into local memory), then use (the work-items\n"
                    "multiply the tiles they hold). After the last phase the group stores C:\n\n",
                    g->group[0], g->group[1], g->group[1] * kTraceTile, g->group[1] * kTraceTile + kTraceTile - 1,
                    g->group[0] * kTraceTile, g->group[0] * kTraceTile + kTraceTile - 1, plan.phases);
        std::printf("  %-6s %-7s %-17s %-26s %-26s %s\n", "phase", "part", "ends at", "A tile loaded", "B tile loaded",
                    "local reads");
        for (const BarrierInterval& in : g->intervals) {
            const PhasePart* part = plan.part_at(in.index);
            const BufferIntervalAccess* a = in.find("A");
            const BufferIntervalAccess* b = in.find("B");
            const std::string end = in.end_line ? "barrier, line " + std::to_string(in.end_line) : "end";
            std::printf("  %-6d %-7s %-17s %-26s %-26s %s\n", part ? part->phase : 0, part ? part->name.c_str() : "",
                        end.c_str(),
                        a && !a->loaded.empty() ? rects_text(a->loaded).c_str() : "-",
                        b && !b->loaded.empty() ? rects_text(b->loaded).c_str() : "-",
                        grouped(in.local.load_bytes / 4).c_str());
        }
        std::printf("\nThe barrier after the load waits until the whole tile has arrived; the one\n"
                    "after the use keeps fast work-items from overwriting a tile others still read.\n"
                    "See it drawn: tilescope gui --kernel tiled --size 32 --tile 8\n");
    }
    pause(paused);

    heading("3. Measured speed on a real device");
    std::printf("Device: %s\nMatrices %s. Each rung runs once to warm up, then 3 times;\n"
                "its result is checked against a CPU reference before any GFLOP/s is shown.\n\n",
                device.label().c_str(), size.label().c_str());
    Runner runner(device);
    std::printf("  %-20s %-14s %-10s %12s %10s\n", "rung", "NDRange", "group", "median ms", "GFLOP/s");
    for (const KernelSpec& k : ladder()) {
        LaunchConfig c{k, size, k.default_tile};
        const ResolvedLaunch r = resolve(c);
        RunOptions ro;
        ro.reps = 3;
        ro.cancelled = interrupted;
        const std::string name = k.name + (k.library.empty() ? "" : " (library)");
        try {
            const Measurement m = runner.measure(c, ro);
            char rate[32] = "not verified";
            if (m.verification.verified) std::snprintf(rate, sizeof rate, "%.2f", m.gflops);
            std::printf("  %-20s %-14s %-10s %12.3f %10s\n", name.c_str(), k.library.empty() ? r.global_text().c_str() : "-",
                        k.library.empty() ? r.local_text().c_str() : "-", m.median_s * 1e3, rate);
        } catch (const InputError& e) {
            std::printf("  %-20s not run here: %s\n", name.c_str(), e.what());
        }
        std::fflush(stdout);
    }
    pause(paused);

    heading("4. The lessons, with their questions answered from traces");
    std::printf("The GUI's lessons (tilescope gui --lesson assets/lessons/NAME.json), as text. Each\n"
                "question is answered by tracing the step's set-up, beside its closed form.\n");
    walk_lessons(paused);
    return 0;
}

}  // namespace tilescope::cli
