// The timeline: the selected group's phases (trips round the tile loop) and their parts
// (one barrier interval each: load, use, store...), play controls.
#include <algorithm>
#include <cstdio>

#include "core/trace/phases.h"
#include "ui/panels/timeline_panel.h"
#include "ui/widgets/theme.h"

namespace tilescope::ui {

int cursor_interval_count(const AppState& s) {
    return s.main.trace ? interval_count(*s.main.trace, s.cursor.group) : 0;
}

bool resolve_wanted_phase(AppState& s, std::string* problem, const std::string& naming) {
    if (!s.cursor.wanted || !s.main.trace) return true;
    // A trace in flight whose first snapshot has not come: the trace on show is the previous set-up's, and
    // a lesson step's phase resolved against it landed on another part (session 51).
    if (s.main.busy() && !s.main.partial_shown()) return true;
    const GroupTrace* g = s.main.trace->find_group(s.cursor.group);
    if (!g) return true;  // not traced yet (or without detail): wait
    const PhaseRequest& w = *s.cursor.wanted;
    const bool partial = s.main.trace->partial;
    const std::string group = "group (" + std::to_string(s.cursor.group[0]) + "," + std::to_string(s.cursor.group[1]) + ")";
    const auto refuse = [&](const std::string& text) {
        if (problem) *problem = text;
        return false;
    };
    int interval = 0;
    if (w.interval) {
        const int n = interval_count(*s.main.trace, s.cursor.group);
        if (*w.interval >= n) {
            if (partial) return true;  // more may come
            return refuse(naming + "interval " + std::to_string(*w.interval) + ": " + group + " has " + std::to_string(n) +
                          " barrier intervals; accepted: 0.." + std::to_string(n - 1));
        }
        interval = *w.interval;
    } else {
        const PhasePlan plan = phase_plan(*g);
        if (partial && plan.phases > 0 && w.phase >= plan.phases) return true;
        interval = plan.interval_of(w.phase, w.part);
        if (interval < 0) {
            const std::string phase = std::to_string(w.phase);
            if (plan.phases == 0)
                return refuse(naming + "phase " + phase + ": " + group + " has no phases (its kernel passes no barrier); accepted: " +
                              naming + "interval 0");
            if (w.phase >= plan.phases)
                return refuse(naming + "phase " + phase + ": " + group + " has " + std::to_string(plan.phases) +
                              " phases; accepted: 0.." + std::to_string(plan.phases - 1));
            std::string names;
            for (const PhasePart& p : plan.parts_of(w.phase)) names += (names.empty() ? "" : ", ") + p.name;
            return refuse(naming + "part " + w.part + ": phase " + phase + " of " + group + " has the parts " + names +
                          "; accepted: one of those");
        }
    }
    if (w.iteration) {
        const int its = part_iterations(s, interval);
        if (*w.iteration >= its) {
            const std::string title = part_title(phase_plan(*g), interval, false);
            return refuse(naming + "iteration " + std::to_string(*w.iteration) + ": " + title.substr(0, title.rfind(" (")) +
                          " of " + group + " has " +
                          (its ? "iterations 0.." + std::to_string(its - 1) : std::string("no iterations (it reads no local memory)")) +
                          "; accepted: " + (its ? "0.." + std::to_string(its - 1) : std::string("none")));
        }
    }
    s.cursor.interval = interval;
    s.cursor.iteration = w.iteration;
    s.cursor.wanted.reset();
    return true;
}

std::string cursor_part_text(const AppState& s) {
    const GroupTrace* g = s.main.trace ? s.main.trace->find_group(s.cursor.group) : nullptr;
    if (!g) return "";
    const std::string title = part_title(phase_plan(*g), s.cursor.interval, hidden_until_reveal(s, Figure::PhaseCount));
    std::string text = title.substr(0, title.rfind(" ("));
    if (s.cursor.iteration)
        text += ", iteration " + std::to_string(*s.cursor.iteration) + " of " +
                std::to_string(part_iterations(s, s.cursor.interval));
    return text;
}

int part_iterations(const AppState& s, int interval) {
    if (!s.main.trace) return 0;
    return s.main.frames.iterations(*s.main.trace, s.main.roles, s.main.version, s.cursor.group, interval);
}

void step_part(AppState& s, int delta) {
    const int n = cursor_interval_count(s);
    if (n == 0) return;
    s.cursor.interval = std::clamp(s.cursor.interval + delta, 0, n - 1);
    s.cursor.iteration.reset();
    s.cursor.progress = 1.0;
}

void step_cursor(AppState& s, int delta) {
    const int n = cursor_interval_count(s);
    if (n == 0) return;
    if (delta > 1 || delta < -1) return step_part(s, delta);
    Cursor& c = s.cursor;
    const int its = part_iterations(s, c.interval);
    if (delta > 0) {
        if (its > 0 && (!c.iteration || *c.iteration < its - 1)) {
            c.iteration = c.iteration ? *c.iteration + 1 : 0;
        } else if (c.interval < n - 1) {
            ++c.interval;
            c.iteration.reset();
            if (part_iterations(s, c.interval) > 0) c.iteration = 0;
        }
    } else {
        if (c.iteration && *c.iteration > 0) {
            c.iteration = *c.iteration - 1;
        } else if (c.interval > 0) {
            --c.interval;
            const int before = part_iterations(s, c.interval);
            c.iteration.reset();
            if (before > 0) c.iteration = before - 1;
        } else {
            c.iteration.reset();
        }
    }
    c.progress = 1.0;
}

void advance_cursor(AppState& s, double dt) {
    Cursor& c = s.cursor;
    const int n = cursor_interval_count(s);
    if (!c.playing || n == 0) return;
    // progress runs 0 -> 1 through an interval (work-items storing into local memory),
    // then holds briefly at 1 before the next interval
    c.progress += dt * c.speed * 1.25;
    if (c.progress >= 1.25) {
        const int at = c.interval;
        const std::optional<int> it = c.iteration;
        step_cursor(s, +1);
        if (c.interval == at && c.iteration == it) {  // the end: round again
            c.interval = 0;
            c.iteration.reset();
        }
        c.progress = 0;  // a new part fills its local arrays work-item by work-item
    }
}

void handle_cursor_keys(AppState& s) {
    if (ImGui::GetIO().WantTextInput) return;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Space), false)) s.cursor.playing = !s.cursor.playing;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) step_cursor(s, +1);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) step_cursor(s, -1);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow))) step_part(s, +1);
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow))) step_part(s, -1);
}

namespace {

// |< Back Play Step > Part >>, speed, the part slider and the group's phase count.
void draw_controls(AppState& s, int n, const GroupTrace* g, const PhasePlan& plan) {
    Cursor& c = s.cursor;
    if (ImGui::Button("|<")) step_cursor(s, -1000000);
    ImGui::SameLine();
    if (ImGui::Button("< Back")) step_cursor(s, -1);
    ImGui::SameLine();
    if (ImGui::Button(c.playing ? "Pause" : "Play", ImVec2(ImGui::GetFontSize() * 4, 0))) c.playing = !c.playing;
    ImGui::SameLine();
    if (ImGui::Button("Step >")) step_cursor(s, +1);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("The next iteration of a use part, else the next part (Right arrow)");
    ImGui::SameLine();
    if (ImGui::Button("Part >>")) step_part(s, +1);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("The next part, whole (Down arrow; Up goes back)");
    // what follows shares the rest of the row: the group's line, the part slider, the speed
    // slider; a narrow row (a projector) drops the speed slider, then the group's line
    char group_line[160];
    if (g && plan.phases > 0 && hidden_until_reveal(s, Figure::PhaseCount))
        std::snprintf(group_line, sizeof group_line, "group (%u,%u): phases %s", c.group[0], c.group[1], kHiddenUntilReveal);
    else if (g && plan.phases > 0)
        std::snprintf(group_line, sizeof group_line, "group (%u,%u): %d phase%s, %d parts", c.group[0], c.group[1], plan.phases,
                      plan.phases == 1 ? "" : "s", n);
    else if (g)
        std::snprintf(group_line, sizeof group_line, "group (%u,%u): no phases (no barrier)", c.group[0], c.group[1]);
    else
        std::snprintf(group_line, sizeof group_line, "no group detail");
    const float fh = ImGui::GetFontSize(), sp = ImGui::GetStyle().ItemSpacing.x;
    const float avail = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x - ImGui::GetItemRectMax().x - sp;  // right of Part >>
    const float text_w = ImGui::CalcTextSize(group_line).x + sp, speed_w = fh * 7 + sp, part_min = fh * 8;
    const bool show_text = avail >= part_min + text_w, show_speed = avail >= part_min + text_w + speed_w;
    if (show_speed) {
        ImGui::SameLine();
        ImGui::SetNextItemWidth(fh * 7);
        ImGui::SliderFloat("##speed", &c.speed, 0.1f, 8.f, "%.1f parts/s", ImGuiSliderFlags_Logarithmic);
    }
    ImGui::SameLine();
    int interval = c.interval;
    const PhasePart* part = plan.part_at(c.interval);
    const bool count_held = plan.phases > 0 && hidden_until_reveal(s, Figure::PhaseCount);
    std::string slider = part && plan.phases > 0 ? (count_held ? "this phase: " : "phase " + std::to_string(part->phase) + ": ") + part->name
                                                 : "part %d";
    if (c.iteration) slider += " (iteration " + std::to_string(*c.iteration) + ")";
    ImGui::SetNextItemWidth(std::max(fh * 3, ImGui::GetContentRegionAvail().x - (show_text ? text_w : 0.f)));
    if (n > 0 && count_held) {
        ImGui::TextUnformatted(slider.c_str());  // a slider's range would count the phases
    } else if (n > 0 && ImGui::SliderInt("##part", &interval, 0, n - 1, slider.c_str())) {
        c.interval = interval;
        c.iteration.reset();
        c.progress = 1.0;
    }
    if (!show_text) return;
    ImGui::SameLine();
    if (g) ImGui::TextUnformatted(group_line);
    else ImGui::TextDisabled("%s", group_line);
}

}  // namespace

namespace {
TimelineLayout g_last_layout;  // the UI thread's alone
}  // namespace

const TimelineLayout& last_timeline_layout() { return g_last_layout; }
void forget_timeline_layout() { g_last_layout = {}; }

void draw_timeline_panel(AppState& s, float height) {
    g_last_layout = {};
    const Palette& pal = theme().pal;
    Cursor& c = s.cursor;
    const int n = cursor_interval_count(s);
    const GroupTrace* g = s.main.trace ? s.main.trace->find_group(c.group) : nullptr;
    const PhasePlan plan = g ? phase_plan(*g) : PhasePlan{};
    draw_controls(s, n, g, plan);

    // Segments: one per part (barrier interval), equal widths, grouped under their phase;
    // bars inside show its traffic.
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x, h = std::max(30.f, height - (p0.y - ImGui::GetWindowPos().y) - 8);
    ImGui::InvisibleButton("##timeline", ImVec2(w, h));
    if (!g || n == 0) return;
    const float fh = ImGui::GetFontSize();
    // On a question about the phase count only the part on show is drawn, unnumbered, and the
    // others are one grey block until Reveal: a segment per part (or their widths, or the part's
    // phase number) would count the phases for the room. A lesson step may open at the last
    // phase (lesson 4 step 2), where even the parts before it count them.
    const bool held = plan.phases > 0 && hidden_until_reveal(s, Figure::PhaseCount);
    const int first = held ? std::clamp(c.interval, 0, n - 1) : 0;  // the part drawn in the first slot
    const int shown = held ? 1 : n;
    const float seg = w / float(held ? 4 : n);
    g_last_layout.held = held;
    uint64_t max_bytes = 1;
    for (int i = first; i < first + shown; ++i) {
        const BarrierInterval& in = g->intervals[size_t(i)];
        max_bytes = std::max<uint64_t>(max_bytes, std::max(in.global.load_bytes + in.global.store_bytes, in.local.load_bytes + in.local.store_bytes));
    }
    const float bar_top = p0.y + fh * 1.3f, bar_h = h - fh * 2.6f;
    g_last_layout.bar_room = bar_h;
    if (held) {
        const float x0 = p0.x + seg * float(shown), x1 = p0.x + w;
        dl->AddRectFilled(ImVec2(x0 + 1, p0.y), ImVec2(x1 - 1, p0.y + h), IM_COL32(200, 200, 200, 255));
        const std::string later = std::string("the other parts: ") + kHiddenUntilReveal;
        const std::string text = ImGui::CalcTextSize(later.c_str()).x <= x1 - x0 - 8 ? later : kHiddenUntilReveal;
        dl->AddText(ImVec2(x0 + 4, p0.y + 1), pal.text, text.c_str());
    }
    for (int i = first; i < first + shown; ++i) {
        TimelineLayout::Segment laid;
        const BarrierInterval& in = g->intervals[size_t(i)];
        const float x0 = p0.x + seg * float(i - first), x1 = x0 + seg;
        const bool current = i == c.interval;
        dl->AddRectFilled(ImVec2(x0 + 1, p0.y), ImVec2(x1 - 1, p0.y + h), current ? IM_COL32(255, 235, 150, 255) : IM_COL32(232, 232, 232, 255));
        const float gb = bar_h * float(double(in.global.load_bytes + in.global.store_bytes) / double(max_bytes));
        const float lb = bar_h * float(double(in.local.load_bytes + in.local.store_bytes) / double(max_bytes));
        const float bw = std::min(seg * 0.3f, fh * 2);
        const float cx = (x0 + x1) / 2;
        laid.x0 = x0, laid.x1 = x1, laid.global_bar_h = gb, laid.local_bar_h = lb;
        dl->AddRectFilled(ImVec2(cx - bw - 1, bar_top + bar_h - gb), ImVec2(cx - 1, bar_top + bar_h), pal.global_bar);
        dl->AddRectFilled(ImVec2(cx + 1, bar_top + bar_h - lb), ImVec2(cx + bw + 1, bar_top + bar_h), pal.local_bar);
        // "P1 use" where it fits, else "1"; a phase's first part carries the phase number
        const PhasePart* part = plan.part_at(i);
        char buf[48];
        if (part && plan.phases > 0)
            std::snprintf(buf, sizeof buf, "%s%s", part->index == 0 && !held ? ("P" + std::to_string(part->phase) + " ").c_str() : "",
                          part->name.c_str());
        else
            std::snprintf(buf, sizeof buf, "%d", i);
        if (ImGui::CalcTextSize(buf).x > seg - 6 && part && !held) std::snprintf(buf, sizeof buf, "%d", part->phase);
        if (seg > fh * 1.2f) dl->AddText(ImVec2(x0 + 4, p0.y + 1), pal.text, buf);
        // a heavier line where a new phase begins
        if (part && part->index == 0 && i > first) dl->AddLine(ImVec2(x0, p0.y), ImVec2(x0, p0.y + h), pal.text, theme().line * 2);
        // the barrier that closes the interval
        float line_label_w = 0;  // the foot's right end it takes ("L30")
        if (in.end_line > 0) {
            dl->AddLine(ImVec2(x1, p0.y), ImVec2(x1, p0.y + h), pal.outline, theme().line);
            std::snprintf(buf, sizeof buf, "L%d", in.end_line);
            if (seg > fh * 2.2f) {
                line_label_w = ImGui::CalcTextSize(buf).x + 3 + fh * 0.3f;
                laid.line_label_x0 = x1 - ImGui::CalcTextSize(buf).x - 3;
                dl->AddText(ImVec2(laid.line_label_x0, p0.y + h - fh - 2), pal.text, buf);
            }
        }
        if (current)
            dl->AddRect(ImVec2(x0 + 1, p0.y), ImVec2(x1 - 1, p0.y + h), pal.hover, 0, 0, theme().line);
        // a use part's iterations as boxes along its foot, the one on show filled, left of the
        // barrier's line label (issue 33: at 720p "L30" sat over them)
        if (current) {
            const int its = part_iterations(s, i);
            const float box = std::min((seg - 8 - line_label_w) / float(std::max(1, its)), fh * 0.9f);
            if (its > 0 && box >= 3) {
                for (int k = 0; k < its; ++k) {
                    const ImVec2 b0(x0 + 4 + box * float(k), p0.y + h - box - 2), b1(b0.x + box - 1, b0.y + box);
                    if (c.iteration && *c.iteration == k) dl->AddRectFilled(b0, b1, pal.local_read);
                    dl->AddRect(b0, b1, pal.text);
                    laid.boxes_x1 = b1.x;
                }
            }
        }
        g_last_layout.segments.push_back(laid);
        if (ImGui::IsItemHovered() && ImGui::GetMousePos().x >= x0 && ImGui::GetMousePos().x < x1) {
            ImGui::BeginTooltip();
            ImGui::Text("%s", part_title(plan, i, hidden_until_reveal(s, Figure::PhaseCount)).c_str());
            ImGui::Text("global %llu B loaded, %llu B stored; local %llu B loaded, %llu B stored (traced)",
                        (unsigned long long)in.global.load_bytes, (unsigned long long)in.global.store_bytes,
                        (unsigned long long)in.local.load_bytes, (unsigned long long)in.local.store_bytes);
            if (!held) ImGui::Text("barrier interval %d of the group (the raw level beneath phases and parts)", i);
            ImGui::EndTooltip();
            if (ImGui::IsMouseClicked(0)) {
                c.interval = i;
                c.iteration.reset();
                c.progress = 1.0;
            }
        }
    }
    // playing: a thin bar shows how far through the interval the work-items are
    if (c.playing) {
        const float x = p0.x + seg * (float(c.interval - first) + float(std::min(1.0, c.progress)));
        dl->AddLine(ImVec2(x, p0.y), ImVec2(x, p0.y + h), pal.hover, 2.f);
    }
}

}  // namespace tilescope::ui
