#include "ui/panels/lesson_panel.h"

#include "core/caches/occupancy.h"
#include "ui/panels/class_panel.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <tuple>
#include <cstdlib>

#include "core/base/errors.h"
#include "core/teach/phase_gif.h"
#include "core/teach/step_check.h"
#include "core/trace/phases.h"
#include "gfx/backend.h"
#include "ui/panels/emulation_panel.h"
#include "ui/state/settings.h"
#include "ui/widgets/plot.h"
#include "ui/widgets/theme.h"

namespace tilescope::ui {
namespace {

bool differs(const std::optional<LaunchConfig>& now, const LaunchConfig& want) {
    return !now || config_key(*now) != config_key(want) || now->kernel.source != want.kernel.source;
}

// The answer to `step`'s question from the traces on show; nullopt while they are coming.
std::optional<LessonAnswer> answer(const AppState& s, const LessonStep& step, std::string& why) {
    if (!s.main.trace || s.main.busy()) {
        why = "tracing...";
        return std::nullopt;
    }
    const bool needs_other = step.state.contains("compare");
    if (needs_other && (!s.other.trace || s.other.busy())) {
        why = "tracing the second configuration...";
        return std::nullopt;
    }
    // Worked out once per step and traces: a modelled answer runs the cache model, and once
    // revealed it was run every frame (a lesson's naive at 160 with a compare: 274 ms a frame).
    // The answer depends on the quantity and the traces only; the snapshots held here keep a
    // trace's address from being reused by another while it is the key.
    static std::tuple<std::string, TraceSnapshot, TraceSnapshot> last_key;
    static std::optional<LessonAnswer> last;
    static std::string last_why;
    const TraceSnapshot other = needs_other ? s.other.trace : nullptr;
    const auto key = std::make_tuple(step.question->quantity, s.main.trace, other);
    if (key != last_key) {
        last_key = key;
        last_why.clear();
        try {
            last = answer_question(step.question->quantity, *s.main.trace, other.get());
        } catch (const InputError& e) {
            last.reset();
            last_why = e.what();
        }
    }
    if (!last) why = last_why;
    return last;
}

std::string number(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, v == double(int64_t(v)) ? "%.0f" : "%.2f", v);
    return buf;
}

// A judged guess: its own colour and its own word, never green for a wrong one.
ImVec4 verdict_colour(GuessVerdict v) {
    const Palette& pal = theme().pal;
    switch (v) {
        case GuessVerdict::Exact: return ImColor(pal.verdict_exact);
        case GuessVerdict::Close: return ImColor(pal.verdict_close);
        case GuessVerdict::Off: return ImColor(pal.verdict_off);
    }
    return ImColor(pal.verdict_off);
}

}  // namespace

// The GIF holds every phase, and its message counts the frames: on a question about the
// phase count that is the answer, so it waits for Reveal like the count itself.
bool record_gif_allowed(const AppState& s) { return !hidden_until_reveal(s, Figure::PhaseCount); }

namespace {

// "Record GIF": the selected group's phases, into the screenshot folder.
void record_gif(AppState& s) {
    if (!s.main.trace) return;
    const Trace& t = *s.main.trace;
    const GroupId g = s.cursor.group;
    const std::string path = screenshot_dir() + "/" + phase_gif_file_name(t, g);
    try {
        const int frames = write_phase_gif(t, s.main.roles, g, path);
        s.message = "Saved " + std::to_string(frames) + " frames (one per part, and per iteration of each use part) as " + absolute_path(path);
    } catch (const std::exception& e) {  // refused (InputError) or not written whole (OutputError)
        s.message = e.what();
    }
}

// The step's heading as the screen stands (issue 33): its title while the frame it opened is
// on show; once → or ↓ moved on, the frame on show's title, the step's after it. Kept per
// (trace version, cursor) so a frame is built only when the cursor moves.
std::string step_heading_now(const AppState& s, const LessonStep& step) {
    if (!s.main.trace || s.main.busy() || !step.state.contains("phase") || s.cursor.wanted) return step.title;
    const bool count_held = hidden_until_reveal(s, Figure::PhaseCount);
    static std::tuple<const LessonStep*, uint64_t, GroupId, int, std::optional<int>, bool> last_key;
    static std::string last;
    const auto key = std::make_tuple(&step, s.main.version, s.cursor.group, s.cursor.interval, s.cursor.iteration, count_held);
    if (key == last_key && !last.empty()) return last;
    std::string heading = step.title;
    try {
        const Trace& t = *s.main.trace;
        const GroupFrames& gf = s.main.frames.group(t, s.main.roles, s.main.version, s.cursor.group);
        const std::optional<Frame> opened = step_frame(step, t);
        const PhasePlan plan = phase_plan(t, s.cursor.group);
        if (const PhasePart* part = plan.part_at(s.cursor.interval); part && opened) {
            FrameRequest r{s.cursor.group, part->phase, part->name, s.cursor.iteration, std::nullopt, s.naming};
            const std::string shown = gf.frame(r, false).title;
            // compared as built (the step's own frame keeps the step's title), then held back
            heading = shown == opened->title ? step.title
                                             : step_heading(step, opened->title, count_held ? title_without_phase_number(shown) : shown);
        }
    } catch (const std::exception&) {
        heading = step.title;  // no detail for the group yet: the title as written
    }
    last_key = key;
    last = heading;
    return heading;
}

// The heading: the frame's title large; "(stepped on from: ...)" small and faint under it.
void draw_heading(const AppState& s, const LessonStep& step) {
    const std::string h = step_heading_now(s, step);
    const size_t cut = h.find("  (stepped on from: ");
    ImGui::PushFont(theme().big);
    text_wrapped_keeping_tuples(h.substr(0, cut));
    ImGui::PopFont();
    if (cut != std::string::npos) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImU32(ImColor(theme().pal.faint_text)));
        text_wrapped_keeping_tuples(h.substr(cut + 2));
        ImGui::PopStyleColor();
    }
}

// "step 2 of 3  < PgUp  PgDn >"
void draw_step_nav(AppState& s) {
    const LessonOnShow& l = s.lesson;
    ImGui::TextColored(ImColor(theme().pal.faint_text), "step %d of %zu", l.step + 1, l.lesson->steps.size());
    same_line_if_fits(button_width("< PgUp"));
    ImGui::BeginDisabled(l.step == 0);
    if (ImGui::SmallButton("< PgUp")) open_lesson_step(s, l.step - 1);
    ImGui::EndDisabled();
    same_line_if_fits(button_width("PgDn >"));
    ImGui::BeginDisabled(l.step + 1 >= int(l.lesson->steps.size()));
    if (ImGui::SmallButton("PgDn >")) open_lesson_step(s, l.step + 1);
    ImGui::EndDisabled();
}

// The question, the guess, Reveal, and once revealed the answer and the verdict.
void draw_question(AppState& s, const LessonStep& step, bool strip) {
    const Palette& pal = theme().pal;
    LessonOnShow& l = s.lesson;
    ImGui::Spacing();
    ImGui::TextColored(ImColor(pal.a_loaded), "Question");
    text_wrapped_keeping_tuples(step.question->text);
    ImGui::SetNextItemWidth(std::min(ImGui::GetFontSize() * 8, ImGui::GetContentRegionAvail().x));
    ImGui::InputTextWithHint("##guess", "your guess", &l.guess, ImGuiInputTextFlags_CharsDecimal);
    if (!l.revealed) {
        if (!strip) ImGui::SameLine();  // the strip is narrow: Reveal goes under the guess
        if (ImGui::Button("Reveal (R)")) reveal_answer(s);
        return;
    }
    std::string why;
    const auto a = answer(s, step, why);
    if (!a) {
        ImGui::TextDisabled("%s", why.c_str());
        return;
    }
    ImGui::PushFont(theme().big);
    ImGui::Text("Answer: %s", number(a->traced).c_str());
    ImGui::PopFont();
    const char* kind = a->modelled ? "(modelled)" : "(traced)";
    same_line_if_fits(ImGui::CalcTextSize(kind).x);
    ImGui::TextColored(ImColor(pal.faint_text), "%s", kind);
    if (a->closed_form) text_wrapped("Closed form: %s", a->formula.c_str());
    else if (!strip) ImGui::TextDisabled("No closed form for this kernel.");
    if (!strip) text_wrapped("(%s)", a->explanation.c_str());
    // The slides follow the bytes per block with blocks per SM: after Reveal, the occupancy
    // model's count for this block (the slide's SM in the strip; every profile in the panel).
    // At a 720-line projector the strip has no room left for it above the legend: there it
    // stays in the side panel (H) and the hand-out.
    const bool room = !strip || ImGui::GetMainViewport()->Size.y >= 900;
    if (step.question->quantity == "local_bytes_per_group" && s.main.trace && room) {
        // occupancy_of_trace parses the profiles: once per work-group shape on show
        const Trace& t = *s.main.trace;
        uint64_t bytes = 0;
        for (const LocalBuffer& b : t.local_buffers) bytes += b.bytes;
        static std::pair<uint64_t, uint64_t> cached_for{0, 0};
        static std::vector<ProfileOccupancy> cached;
        if (cached_for != std::make_pair(t.local[0] * t.local[1] * t.local[2], bytes)) {
            cached = occupancy_of_trace(t);
            cached_for = {t.local[0] * t.local[1] * t.local[2], bytes};
        }
        const std::vector<ProfileOccupancy>& rows = cached;
        if (!rows.empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImU32(ImColor(pal.faint_text)));
            text_wrapped("Blocks one SM holds at once (modelled, tilescope occupancy):");
            ImGui::PopStyleColor();
        }
        // the slide's SM first: the slide's own arithmetic; then the others
        for (const bool slide : {true, false})
            for (const ProfileOccupancy& r : rows)
                if ((r.profile == "slide") == slide && (!strip || slide)) text_wrapped_keeping_tuples(occupancy_sentence(r));
    }
    const auto key = std::make_pair(l.lesson->title, l.step);
    char* end = nullptr;
    const double guess = std::strtod(l.guess.c_str(), &end);
    if (!l.guess.empty() && end && *end == 0 && !l.judged.count(key)) {
        const GuessVerdict v = judge_guess(guess, a->traced);
        l.judged[key] = std::string(verdict_word(v)) + ": you guessed " + number(guess) +
                        (v == GuessVerdict::Exact ? "" : " (" + guess_distance(guess, a->traced) + ")");
    }
    if (auto it = l.judged.find(key); it != l.judged.end()) {
        const std::string& text = it->second;
        const GuessVerdict v = text.rfind("exact", 0) == 0 ? GuessVerdict::Exact
                               : text.rfind("close", 0) == 0 ? GuessVerdict::Close
                                                             : GuessVerdict::Off;
        ImGui::PushStyleColor(ImGuiCol_Text, verdict_colour(v));
        text_wrapped("%s", text.c_str());
        ImGui::PopStyleColor();
    }
}

}  // namespace

void apply_step_options(AppState& s, const GuiOptions& o) {
    s.view = o.view.value_or(View::Emulation);
    s.cursor.group = o.group.value_or(GroupId{0, 0, 0});
    s.cursor.interval = 0;
    s.cursor.iteration.reset();  // an earlier step's iteration is not this step's
    s.cursor.wanted.reset();
    if (o.phase || o.part || o.iteration || o.interval)
        s.cursor.wanted = PhaseRequest{o.phase.value_or(0), o.part.value_or(""), o.iteration, o.interval};
    s.cursor.item = o.item;
    if (o.naming) s.naming = *o.naming;
    s.cursor.progress = 1.0;
    s.cursor.playing = o.play;
    if (o.presenter && !s.presenter) {
        s.presenter = true;
        s.presenter_by_lesson = true;
        apply_theme(true);
    }
    if (!o.device.empty()) s.device_sel = o.device;
    if (o.config && differs(s.main.config, *o.config)) {
        s.dropped_barriers.clear();
        s.main.start(*s.worker, *o.config, {}, s.cursor.group);
    } else if (s.main.trace && !s.main.trace->find_group(s.cursor.group)) {
        select_group(s, s.main, s.cursor.group);  // traces the group when the trace kept no detail for it
    }
    if (o.compare && differs(s.other.config, *o.compare)) s.other.start(*s.worker, *o.compare);
    ++s.imposed;
    s.imposed_compare = o.compare.has_value();
}

void open_lesson_step(AppState& s, int step) {
    LessonOnShow& l = s.lesson;
    if (!l.lesson || step < 0 || step >= int(l.lesson->steps.size())) return;
    l.step = step;
    l.revealed = false;
    l.guess.clear();
    try {
        apply_step_options(s, lesson_step_options(*l.lesson, step));
    } catch (const std::exception& e) {
        s.message = e.what();
    }
}

std::string lesson_heading(const AppState& s) {
    const LessonStep* st = s.lesson.current();
    return st ? step_heading_now(s, *st) : std::string();
}

void reveal_answer(AppState& s) {
    const LessonStep* st = s.lesson.current();
    if (st && st->question) s.lesson.revealed = true;
}

void handle_lesson_keys(AppState& s) {
    if (!s.lesson.lesson || ImGui::GetIO().WantTextInput) return;
    if (ImGui::IsKeyPressed(gfx::key::PageDown, false)) open_lesson_step(s, s.lesson.step + 1);
    if (ImGui::IsKeyPressed(gfx::key::PageUp, false)) open_lesson_step(s, s.lesson.step - 1);
    if (ImGui::IsKeyPressed(gfx::key::R, false)) reveal_answer(s);
}

void LessonPanel::draw(AppState& s) {
    if (s.lesson.lesson) draw_step(s);
    else draw_menu(s);
    if (s.lesson.lesson) draw_class_section(s);  // class mode (issue 34)
    ImGui::Separator();
    const bool count_held = !record_gif_allowed(s);
    ImGui::BeginDisabled(count_held);
    if (ImGui::Button("Record GIF of this group") && s.main.trace && !count_held) record_gif(s);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s", count_held ? "Waits for Reveal: the GIF shows every phase of the group, and how many there "
                                             "are is this step's question"
                                           : "Every phase of the selected work-group as an animated GIF for slides (one frame per part)");
}

void LessonPanel::draw_menu(AppState& s) {
    text_wrapped("Lessons: each opens a prepared set-up with a script and questions.");
    for (const Lesson& l : builtin_lessons()) {
        if (ImGui::Selectable(l.title.c_str())) {
            s.lesson.lesson = std::make_shared<const Lesson>(l);
            open_lesson_step(s, 0);
        }
    }
}

void LessonPanel::draw_step(AppState& s) {
    const LessonStep& step = *s.lesson.current();
    text_wrapped("%s", s.lesson.lesson->title.c_str());
    draw_step_nav(s);
    same_line_if_fits(button_width("all lessons"));
    if (ImGui::SmallButton("all lessons")) {
        s.lesson.lesson.reset();
        return;
    }
    draw_heading(s, step);
    ImGui::TextColored(ImColor(theme().pal.faint_text), "Script (for the instructor)");
    text_wrapped_keeping_tuples(step.script);
    if (step.question) draw_question(s, step, false);
}

float lesson_strip_width(float window_w, bool narrow) {
    return narrow ? std::clamp(window_w * 0.24f, 280.f, 460.f) : std::clamp(window_w * 0.3f, 300.f, 560.f);
}

float draw_lesson_strip(AppState& s, ImVec2 pos, ImVec2 size) {
    const LessonStep* step = s.lesson.current();
    if (!step) return 0;
    ImGui::SetNextWindowPos(pos);
    ImGui::SetNextWindowSize(size);
    ImGui::Begin("##lesson_strip", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoBackground);
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(ImColor(theme().pal.faint_text), "%s", s.lesson.lesson->title.c_str());
    draw_step_nav(s);
    draw_heading(s, *step);
    if (step->question) draw_question(s, *step, true);
    ImGui::PopTextWrapPos();
    const float used = ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y;
    ImGui::End();
    return std::min(used, size.y);
}

}  // namespace tilescope::ui
