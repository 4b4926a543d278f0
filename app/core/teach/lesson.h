#pragma once
// Lessons as data (assets/lessons/*.json): a title and steps; a step is a state to open
// (the GUI's scene keys: kernel, size, tile, view, group, phase, part, compare, presenter ...),
// an instructor script, and optionally a question whose answer is computed from the
// trace and shown beside its closed form (predict, then reveal).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/kernel/launch_config.h"
#include "core/trace/trace.h"

namespace tilescope {

// Limits of a lesson file (issue 23): files come from other people.
inline constexpr uint64_t kMaxLessonBytes = 1u << 20;   // 1 MiB
inline constexpr int kMaxLessonNesting = 16;             // a real lesson nests 4 deep
inline constexpr size_t kMaxLessonTitleChars = 200;      // step titles; question texts 4x this
inline constexpr size_t kMaxLessonScriptChars = 4000;    // the instructor's script of one step
inline constexpr size_t kMaxLessonSteps = 256;           // issue 32; the shipped lessons have at most 11
inline constexpr size_t kMaxLessonSetups = 16;           // different set-ups (traces); the shipped ones need at most 4

struct LessonQuestion {
    std::string text;      // what the screen asks
    std::string quantity;  // which number answers it (see lesson_quantities)
};

struct LessonStep {
    std::string title;
    nlohmann::json state;  // a scene object (gui --scene): kernel, size, tile, group, phase, part, interval, view, compare, presenter, play, device
    std::string script;    // what the instructor points at, asks, and what the class should notice
    std::optional<LessonQuestion> question;
};

struct Lesson {
    std::string name;   // file stem ("1_naive")
    std::string file;   // how messages name it ("--lesson 'dir/1_naive.json'"), parse_lesson's `name`
    std::string title;
    std::vector<LessonStep> steps;
};

// Parses a lesson; `name` is used in messages. Throws InputError (one line naming the
// file, the step and the key) on anything malformed.
Lesson parse_lesson(std::string_view json_text, std::string_view name);
Lesson load_lesson(const std::string& path);  // InputError naming --lesson and the path

// The launch a step's state opens (kernel, size, tile), and its compare
// configuration ("kernel:tile", same size) when it has one. Throws InputError.
LaunchConfig step_launch(const LessonStep& step);
std::optional<LaunchConfig> step_compare_launch(const LessonStep& step);

// The lessons shipped in assets/lessons/, compiled in, in file-name order.
const std::vector<Lesson>& builtin_lessons();

// The numbers a question may ask, each answered from a trace.
std::vector<std::string> lesson_quantities();

struct LessonAnswer {
    double traced = 0;                // from the trace (and, for comparisons, the second trace)
    std::optional<double> closed_form;  // from the sizes, when the kernel has one
    std::string formula;              // "ceil(N/TS) = 4"
    std::string explanation;          // one sentence: what was counted
    bool modelled = false;            // a cache model's figure (issue 11), not a count: the UI says so
};

// Answers `quantity` for `trace` (`compare`: the step's second configuration, needed by
// the comparisons). Throws InputError for an unknown quantity or a missing comparison.
LessonAnswer answer_question(std::string_view quantity, const Trace& trace, const Trace* compare = nullptr);

// How far a typed guess was: "exact", "off by 2 (50%)", "8x too high".
std::string guess_distance(double guess, double answer);

// A guess judged: exact (equal to the answer as shown, two decimals), close (within 10 %
// of it, or off by one where the answer is a small count), off (anything else). The
// GUI gives each its own colour and word.
enum class GuessVerdict { Exact, Close, Off };
GuessVerdict judge_guess(double guess, double answer);
const char* verdict_word(GuessVerdict v);  // "exact", "close", "off"

// The figures the views draw that may give a question's answer away. While a lesson
// step's question waits for Reveal, every figure that answers its quantity is hidden
// ("hidden until Reveal" in its place).
enum class Figure {
    LoadsPerElement,  // the heatmap's reuse lines and marks, a cell's global reads
    FlopPerLoad,      // FLOP per global load (counters, compare)
    GlobalTraffic,    // global bytes / loads of a configuration (counters, compare, timeline)
    PhaseCount,       // "phase 0 of 2", "8 phases", the set-up's phase count
    WorkGroups,       // the number of work-groups (set-up, counters)
    IdleItems,        // work-items that store no cell of P
    WrongCells,       // how many cells of P are wrong
    LocalBytes,       // local memory per work-group
    CacheFigures,     // the cache model's hit rates and DRAM bytes
};
bool figure_answers(Figure figure, std::string_view quantity);
inline constexpr Figure kAllFigures[] = {Figure::LoadsPerElement, Figure::FlopPerLoad, Figure::GlobalTraffic,
                                         Figure::PhaseCount,      Figure::WorkGroups,  Figure::IdleItems,
                                         Figure::WrongCells,      Figure::LocalBytes,  Figure::CacheFigures};
// A figure's key in the hand-out ("phase_count"): the page hides what the GUI hides.
const char* figure_key(Figure figure);
inline constexpr const char* kHiddenUntilReveal = "hidden until Reveal";

// The figures hidden now: those answering `quantity`, the question waiting for Reveal
// (empty: none waits, nothing is hidden). Views take one and ask it before drawing a figure.
struct HiddenFigures {
    std::string quantity;
    bool operator()(Figure f) const { return !quantity.empty() && figure_answers(f, quantity); }
};

}  // namespace tilescope
