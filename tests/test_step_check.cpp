// One truth per screen (issue 33): every step of every shipped lesson says only what its
// screen shows (the frame model) or names where a figure comes from; stepping on (→ for
// iterations, ↓ for parts) the strip's heading follows the frame. And the check is shown to
// bite: one changed word in a lesson, in memory, makes it fail.
#include <gtest/gtest.h>

#include <map>

#include "core/emulator/trace_runner.h"
#include "core/teach/lesson.h"
#include "core/teach/step_check.h"
#include "core/trace/phases.h"
#include "core/trace/view_model.h"

using namespace tilescope;

namespace {

// The step's set-up traced once per (launch, group): only frame steps need one (small sizes).
const Trace* trace_for(const LessonStep& step) {
    static std::map<std::string, Trace> cache;
    // Frame steps only: a step that opens a frame on the emulation view (small sizes).
    if (!step.state.contains("phase") || step.state.value("view", std::string("emulation")) != "emulation") return nullptr;
    const LaunchConfig c = step_launch(step);
    GroupId g{0, 0, 0};
    if (step.state.contains("group")) g = GroupId{step.state["group"][0].get<uint32_t>(), step.state["group"][1].get<uint32_t>(), 0};
    std::string key = c.kernel.name + " " + c.size.label() + " TS=" + std::to_string(c.tile) + " @" + std::to_string(g[0]) + "," + std::to_string(g[1]);
    for (const auto& [k, v] : c.params) key += " " + k + "=" + std::to_string(v);
    auto it = cache.find(key);
    if (it == cache.end()) {
        TraceOptions o;
        o.groups = {g};
        it = cache.emplace(key, run_trace(c, o)).first;
    }
    return &it->second;
}

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (const std::string& x : v) s += "  " + x + "\n";
    return s;
}

LessonStep step_of(const std::string& lesson, size_t i) {
    for (const Lesson& l : builtin_lessons())
        if (l.name == lesson) return l.steps.at(i);
    ADD_FAILURE() << "no lesson " << lesson;
    return {};
}

void replace(std::string& text, const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from << " not in " << text;
    text.replace(at, from.size(), to);
}

}  // namespace

TEST(StepCheck, EveryStepOfEveryLessonSaysWhatItsScreenShows) {
    ASSERT_FALSE(builtin_lessons().empty());
    int frames = 0;
    for (const Lesson& l : builtin_lessons())
        for (size_t i = 0; i < l.steps.size(); ++i) {
            const LessonStep& s = l.steps[i];
            SCOPED_TRACE(l.name + " step " + std::to_string(i + 1) + " (" + s.title + ")");
            const Trace* t = trace_for(s);
            EXPECT_EQ(joined(step_disagreements(s, t)), "");
            if (t) ++frames;
        }
    EXPECT_GE(frames, 10);  // the slides' lesson alone opens 11 frames
}

// → and ↓ from every frame step: the heading names the frame on show, all the way through
// the group (every part of every phase, every iteration of a use part).
TEST(StepCheck, StepppingOnTheHeadingFollowsTheFrame) {
    for (const Lesson& l : builtin_lessons())
        for (size_t i = 0; i < l.steps.size(); ++i) {
            const LessonStep& s = l.steps[i];
            const Trace* t = trace_for(s);
            if (!t) continue;
            SCOPED_TRACE(l.name + " step " + std::to_string(i + 1));
            const Frame opened = *step_frame(s, *t);
            EXPECT_EQ(step_heading(s, opened.title, opened.title), s.title);
            const GroupFrames gf(*t, matrix_roles(*t), opened.group);
            const PhasePlan plan = phase_plan(*t, opened.group);
            for (const PhasePart& p : plan.parts) {
                FrameRequest r{opened.group, p.phase, p.name, std::nullopt, std::nullopt, Naming::Slides};
                const Frame whole = gf.frame(r, false);
                for (int it = -1; it < whole.iterations; ++it) {
                    if (it >= 0) r.iteration = it;
                    const Frame shown = it >= 0 ? gf.frame(r, false) : whole;
                    const std::string heading = step_heading(s, opened.title, shown.title);
                    EXPECT_EQ(joined(heading_disagreements(heading, shown)), "") << heading;
                }
            }
        }
}

// The check bites: one changed word, in memory, and it fails.
TEST(StepCheck, OneChangedWordFails) {
    // Lesson 9 step 4: Phase 1's load. Its title saying Phase 0 (the bug of issue 33's strip).
    LessonStep s = step_of("9_slides_frame_by_frame", 3);
    ASSERT_EQ(joined(step_disagreements(s, trace_for(s))), "");
    replace(s.title, "Phase 1", "Phase 0");
    EXPECT_NE(joined(step_disagreements(s, trace_for(s))), "");
    // An element the frame does not show.
    s = step_of("9_slides_frame_by_frame", 3);
    replace(s.script, "M0,2", "M2,2");
    EXPECT_NE(joined(step_disagreements(s, trace_for(s))), "");
    // An iteration other than the one on show.
    s = step_of("9_slides_frame_by_frame", 1);
    replace(s.title, "(iteration 0)", "(iteration 1)");
    EXPECT_NE(joined(step_disagreements(s, trace_for(s))), "");
    // A block other than the one on show.
    s = step_of("9_slides_frame_by_frame", 7);
    replace(s.title, "Block(1,1)", "Block(0,1)");
    EXPECT_NE(joined(step_disagreements(s, trace_for(s))), "");
    // A local id other than the step's work-item.
    s = step_of("9_slides_frame_by_frame", 7);
    replace(s.script, "local id (0,1)", "local id (1,0)");
    EXPECT_NE(joined(step_disagreements(s, trace_for(s))), "");
    // A measured figure that loses its source (lesson 8 step 3: the H200 at 4096, docs/caches.md).
    s = step_of("8_why_naive_is_fast", 2);
    ASSERT_EQ(joined(step_disagreements(s)), "");
    replace(s.script, "docs/caches.md", "the notes");
    EXPECT_NE(joined(step_disagreements(s)), "");
    // A PAD neither side runs (lesson 6 step 3).
    s = step_of("6_coalescing_banks", 2);
    ASSERT_EQ(joined(step_disagreements(s)), "");
    replace(s.script, "PAD=4", "PAD=8");
    EXPECT_NE(joined(step_disagreements(s)), "");
    // A tile other than the step's (lesson 9 step 10).
    s = step_of("9_slides_frame_by_frame", 9);
    replace(s.title, "TILE_WIDTH 16", "TILE_WIDTH 32");
    EXPECT_NE(joined(step_disagreements(s, trace_for(s))), "");
    // Stepping on: the step's own title over phase 1's frame disagrees; the heading does not.
    s = step_of("9_slides_frame_by_frame", 0);
    const Trace* t = trace_for(s);
    const Frame opened = *step_frame(s, *t);
    FrameRequest r{opened.group, 1, "load", std::nullopt, std::nullopt, Naming::Slides};
    const Frame later = build_frame(*t, matrix_roles(*t), r);
    EXPECT_NE(joined(heading_disagreements(s.title, later)), "");
    EXPECT_EQ(joined(heading_disagreements(step_heading(s, opened.title, later.title), later)), "");
}
