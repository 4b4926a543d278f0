// The kernel source with barrier lines and the current interval's barrier marked.
#include <algorithm>
#include <cstdio>
#include <string_view>
#include <vector>

#include "core/kernel/source_edit.h"
#include "ui/panels/source_view.h"
#include "ui/panels/timeline_panel.h"
#include "ui/widgets/plot.h"
#include "ui/widgets/theme.h"

namespace tilescope::ui {

void toggle_barrier(AppState& s, int line) {
    if (!s.main.config || !s.worker) return;
    if (s.dropped_barriers.empty() || !s.undropped_kernel || s.undropped_kernel->name != s.main.config->kernel.name) {
        s.undropped_kernel = s.main.config->kernel;
        s.dropped_barriers.clear();
    }
    auto it = std::find(s.dropped_barriers.begin(), s.dropped_barriers.end(), line);
    if (it == s.dropped_barriers.end()) s.dropped_barriers.push_back(line);
    else s.dropped_barriers.erase(it);
    LaunchConfig config = *s.main.config;
    try {
        config.kernel = drop_barriers(*s.undropped_kernel, s.dropped_barriers, "barrier toggle");
    } catch (const std::exception& e) {
        s.message = e.what();
        return;
    }
    s.message = s.dropped_barriers.empty() ? "Barriers restored; tracing again" : "Barrier removed; tracing again";
    s.main.start(*s.worker, config, {}, s.cursor.group);
}

void SourceView::draw(AppState& s, ImVec2 size) {
    const Palette& pal = theme().pal;
    // the source of the trace on screen (a trace in flight has not replaced it yet)
    const std::optional<LaunchConfig>& shown = s.main.shown ? s.main.shown : s.main.config;
    if (!shown) {
        ImGui::TextDisabled("No kernel chosen.");
        return;
    }
    // Dropped barriers stay visible (struck out): the source before the toggle removed them.
    const KernelSpec& base = s.undropped_kernel && s.undropped_kernel->name == shown->kernel.name && !s.dropped_barriers.empty()
                                 ? *s.undropped_kernel
                                 : shown->kernel;
    const std::string& src = base.source;
    const std::vector<int> source_barriers = barrier_lines(src);
    int toggled = 0;
    const Trace* t = s.main.trace.get();
    int current_line = -1;
    if (t)
        if (const GroupTrace* g = t->find_group(s.cursor.group); g && s.cursor.interval < int(g->intervals.size()))
            current_line = g->intervals[size_t(s.cursor.interval)].end_line;
    // Below the source: the diagnostics, or the key and one line (three when the race check was off:
    // what was not looked for, and why).
    const float diag_h = t && !t->diagnostics.empty() ? std::min(size.y * 0.35f, ImGui::GetFontSize() * 10)
                         : t && !t->checks                ? ImGui::GetFontSize() * 5.5f
                                                          : ImGui::GetFontSize() * 3;
    // long lines scroll sideways rather than being cut off (28 px text on a projector)
    ImGui::BeginChild("source", ImVec2(size.x, size.y - diag_h), true, ImGuiWindowFlags_HorizontalScrollbar);
    ImGui::PushFont(theme().mono);
    // What each line is marked with, found once a frame, and only the lines in view drawn: a saved trace of
    // 50,000 source lines and 200,000 diagnostics looked each line up in both lists every frame, and the
    // view froze for minutes (session 51).
    std::vector<std::string_view> lines;
    for (size_t at = 0; at <= src.size();) {
        const size_t end = std::min(src.find('\n', at), src.size());
        if (end == src.size() && at == end) break;  // no empty line after a last newline
        lines.push_back(std::string_view(src).substr(at, end - at));
        at = end + 1;
    }
    enum : unsigned char { kTracedBarrier = 1, kDiagnosed = 2, kSourceBarrier = 4, kDropped = 8 };
    std::vector<unsigned char> marks(lines.size() + 1, 0);
    const auto mark = [&](int line, unsigned char m) {
        if (line >= 1 && size_t(line) <= lines.size()) marks[size_t(line)] |= m;
    };
    if (t) {
        for (int l : t->barrier_lines) mark(l, kTracedBarrier);
        for (const Diagnostic& d : t->diagnostics) mark(d.line, kDiagnosed);
    }
    for (int l : source_barriers) mark(l, kSourceBarrier);
    if (&base != &shown->kernel)
        for (int l : s.dropped_barriers) mark(l, kDropped);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float h = ImGui::GetTextLineHeightWithSpacing();
    if (current_line >= 1 && scrolled_to_ != current_line) {  // keep the current barrier in view when it moves
        ImGui::SetScrollY(std::max(0.f, (current_line - 1) * h - (ImGui::GetWindowHeight() - h) * 0.5f));
        scrolled_to_ = current_line;
    }
    ImGuiListClipper clipper;
    clipper.Begin(int(lines.size()), h);
    while (clipper.Step())
        for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
            const int line = i + 1;
            const unsigned char m = marks[size_t(line)];
            const bool barrier = m & kTracedBarrier;
            const ImVec2 p = ImGui::GetCursorScreenPos();
            const float w = ImGui::GetContentRegionAvail().x;
            if (line == current_line) dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), IM_COL32(255, 225, 120, 255));
            else if (barrier) dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), IM_COL32(225, 235, 250, 255));
            if (m & kDiagnosed) dl->AddRect(p, ImVec2(p.x + w, p.y + h), pal.race, 0, 0, 2.f);
            char num[24];
            std::snprintf(num, sizeof num, "%3d %s ", line, barrier ? (line == current_line ? ">>" : "||") : "  ");
            ImGui::TextColored(ImColor(pal.faint_text), "%s", num);
            ImGui::SameLine(0, 0);
            // One draw call holds at most 65,536 vertices (16-bit indices, 4 per glyph): a line
            // from a file is cut well before that (issue 23: a 17,000-character text aborted).
            constexpr size_t kMaxShownLineChars = 2000;
            const std::string_view text = lines[size_t(i)];
            if (text.size() > kMaxShownLineChars) ImGui::TextUnformatted((std::string(text.substr(0, kMaxShownLineChars)) + " ...").c_str());
            else ImGui::TextUnformatted(text.data(), text.data() + text.size());
            if (m & kSourceBarrier) {
                const bool dropped = m & kDropped;
                if (dropped) dl->AddLine(ImVec2(p.x, p.y + h * 0.5f), ImVec2(p.x + w, p.y + h * 0.5f), pal.race, 2.f);
                ImGui::SameLine();
                ImGui::PushID(line);
                if (ImGui::SmallButton(dropped ? "restore barrier" : "remove barrier")) toggled = line;
                if (ImGui::IsItemHovered())
                    ImGui::SetTooltip(dropped ? "Put this barrier back and trace again" : "Trace again without this barrier: watch the race and the wrong cells of P");
                ImGui::PopID();
            }
        }
    ImGui::PopFont();
    ImGui::EndChild();
    if (toggled) toggle_barrier(s, toggled);
    if (t) {  // its own scrolling region: a long race report scrolls instead of running off the view
        ImGui::BeginChild("diagnostics", ImVec2(size.x, std::max(ImGui::GetFontSize() * 2, ImGui::GetContentRegionAvail().y)), false);
        draw_diagnostics(s, *t);
        ImGui::EndChild();
    }
}

void SourceView::draw_diagnostics(const AppState& s, const Trace& trace) {
    const Palette& pal = theme().pal;
    const Trace* t = &trace;
    if (!t->wrong_cells.empty() && hidden_until_reveal(s, Figure::WrongCells))
        ImGui::TextColored(ImColor(pal.faint_text), "How many cells of P are wrong, and where: %s.", kHiddenUntilReveal);
    else if (!t->wrong_cells.empty())
        ImGui::TextColored(ImColor(pal.wrong), "%zu cells of P are wrong (filled in red in the emulation view).", t->wrong_cells.size());
    ImGui::TextColored(ImColor(pal.faint_text), "|| a barrier   >> the barrier that closes %s", cursor_part_text(s).c_str());
    if (t->diagnostics.empty()) {
        if (t->checks)
            ImGui::TextUnformatted("Oclgrind's checks: no races, divergence or out-of-bounds accesses.");
        else  // divergence and bounds are Oclgrind's own, always on; races are looked for only with the check
            text_wrapped_keeping_tuples("Oclgrind found no divergence or out-of-bounds accesses; races were not looked for (its race check was off" +
                         (t->checks_off_because.empty() ? std::string() : ": " + t->checks_off_because) + ").");
        return;
    }
    // The first ones, and how many more: the list is read, not scrolled through, and wrapped text of
    // 200,000 entries a frame froze the view.
    constexpr size_t kShownDiagnostics = 200;
    for (size_t i = 0; i < t->diagnostics.size() && i < kShownDiagnostics; ++i) {
        const Diagnostic& d = t->diagnostics[i];
        ImGui::TextColored(ImColor(pal.race), "[%s] line %d:", std::string(to_string(d.kind)).c_str(), d.line);
        ImGui::SameLine();
        text_wrapped_keeping_tuples(d.message + " (x" + std::to_string(d.count) + ")");  // "work-item (1,0,0)" whole
    }
    if (t->diagnostics.size() > kShownDiagnostics)
        ImGui::TextColored(ImColor(pal.faint_text), "... and %zu more diagnostics (the first %zu are listed here).",
                           t->diagnostics.size() - kShownDiagnostics, kShownDiagnostics);
}

}  // namespace tilescope::ui
