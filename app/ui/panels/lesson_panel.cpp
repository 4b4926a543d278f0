#include "ui/panels/lesson_panel.h"

#include <imgui.h>

#include <cstdlib>

#include "core/base/errors.h"
#include "core/teach/phase_gif.h"
#include "gfx/backend.h"
#include "ui/panels/emulation_panel.h"
#include "ui/state/settings.h"
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
    try {
        return answer_question(step.question->quantity, *s.main.trace, needs_other ? s.other.trace.get() : nullptr);
    } catch (const InputError& e) {
        why = e.what();
        return std::nullopt;
    }
}

std::string number(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, v == double(int64_t(v)) ? "%.0f" : "%.2f", v);
    return buf;
}

// "Record GIF": the selected group's phases, into the screenshot folder.
void record_gif(AppState& s) {
    if (!s.main.trace) return;
    const Trace& t = *s.main.trace;
    const GroupId g = s.cursor.group;
    const std::string path = screenshot_dir() + "/tilescope-" + t.kernel + "-" + t.size.label() + "-group-" +
                             std::to_string(g[0]) + "-" + std::to_string(g[1]) + ".gif";
    try {
        const int frames = write_phase_gif(t, s.main.roles, g, path);
        s.message = "Saved " + std::to_string(frames) + " frames (one per part of each phase) as " + absolute_path(path);
    } catch (const InputError& e) {
        s.message = e.what();
    }
}

}  // namespace

void apply_step_options(AppState& s, const GuiOptions& o) {
    s.view = o.view.value_or(View::Emulation);
    s.cursor.group = o.group.value_or(GroupId{0, 0, 0});
    s.cursor.interval = o.interval.value_or(0);
    s.cursor.wanted.reset();
    if (o.phase || o.part || o.iteration) s.cursor.wanted = PhaseRequest{o.phase.value_or(0), o.part.value_or(""), o.iteration};
    s.cursor.item = o.item;
    if (o.naming) s.naming = *o.naming;
    s.cursor.progress = 1.0;
    s.cursor.playing = o.play;
    if (o.presenter && !s.presenter) {
        s.presenter = true;
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
}

LessonPanel::LessonPanel(std::shared_ptr<const Lesson> lesson, int step) : lesson_(std::move(lesson)), step_(step) {}

void LessonPanel::open_step(AppState& s, int step) {
    if (!lesson_ || step < 0 || step >= int(lesson_->steps.size())) return;
    step_ = step;
    revealed_ = false;
    guess_[0] = 0;
    try {
        apply_step_options(s, lesson_step_options(*lesson_, step));
    } catch (const std::exception& e) {
        s.message = e.what();
    }
}

void LessonPanel::handle_keys(AppState& s) {
    if (!lesson_ || ImGui::GetIO().WantTextInput) return;
    if (ImGui::IsKeyPressed(gfx::key::PageDown, false)) open_step(s, step_ + 1);
    if (ImGui::IsKeyPressed(gfx::key::PageUp, false)) open_step(s, step_ - 1);
    if (ImGui::IsKeyPressed(gfx::key::R, false) && lesson_->steps[size_t(step_)].question) revealed_ = true;
}

void LessonPanel::draw(AppState& s) {
    handle_keys(s);
    if (lesson_) draw_step(s);
    else draw_menu(s);
    ImGui::Separator();
    if (ImGui::Button("Record GIF of this group") && s.main.trace) record_gif(s);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Every phase of the selected work-group as an animated GIF for slides (one frame per part)");
}

void LessonPanel::draw_menu(AppState& s) {
    ImGui::TextWrapped("Lessons: each opens a prepared set-up with a script and questions.");
    for (const Lesson& l : builtin_lessons()) {
        if (ImGui::Selectable(l.title.c_str())) {
            lesson_ = std::make_shared<const Lesson>(l);
            open_step(s, 0);
        }
    }
}

void LessonPanel::draw_step(AppState& s) {
    const Palette& pal = theme().pal;
    const LessonStep& step = lesson_->steps[size_t(step_)];
    ImGui::TextWrapped("%s", lesson_->title.c_str());
    ImGui::TextColored(ImColor(pal.faint_text), "step %d of %zu", step_ + 1, lesson_->steps.size());
    ImGui::SameLine();
    ImGui::BeginDisabled(step_ == 0);
    if (ImGui::SmallButton("< PgUp")) open_step(s, step_ - 1);
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(step_ + 1 >= int(lesson_->steps.size()));
    if (ImGui::SmallButton("PgDn >")) open_step(s, step_ + 1);
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::SmallButton("all lessons")) lesson_.reset();
    if (!lesson_) return;
    ImGui::PushFont(theme().big);
    ImGui::TextWrapped("%s", step.title.c_str());
    ImGui::PopFont();
    ImGui::TextWrapped("%s", step.script.c_str());
    if (step.question) draw_question(s, step);
}

void LessonPanel::draw_question(AppState& s, const LessonStep& step) {
    const Palette& pal = theme().pal;
    ImGui::Spacing();
    ImGui::TextColored(ImColor(pal.a_loaded), "Question");
    ImGui::TextWrapped("%s", step.question->text.c_str());
    ImGui::SetNextItemWidth(120);
    ImGui::InputText("your guess", guess_, sizeof guess_, ImGuiInputTextFlags_CharsDecimal);
    ImGui::SameLine();
    if (!revealed_ && ImGui::Button("Reveal (R)")) revealed_ = true;
    if (!revealed_) return;
    std::string why;
    const auto a = answer(s, step, why);
    if (!a) {
        ImGui::TextDisabled("%s", why.c_str());
        return;
    }
    ImGui::Text("%s: %s", a->modelled ? "Modelled" : "Traced", number(a->traced).c_str());
    ImGui::TextWrapped("(%s)", a->explanation.c_str());
    if (a->closed_form) ImGui::TextWrapped("Closed form: %s", a->formula.c_str());
    else ImGui::TextDisabled("No closed form for this kernel.");
    const auto key = std::make_pair(lesson_->title, step_);
    char* end = nullptr;
    const double guess = std::strtod(guess_, &end);
    if (guess_[0] && end && *end == 0 && !guesses_.count(key))
        guesses_[key] = "guessed " + number(guess) + ": " + guess_distance(guess, a->traced);
    if (auto it = guesses_.find(key); it != guesses_.end()) ImGui::TextColored(ImColor(pal.c_stored), "You %s", it->second.c_str());
}

}  // namespace tilescope::ui
