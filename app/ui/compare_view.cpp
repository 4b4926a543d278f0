// Compare mode: two configurations side by side, one phase cursor, their counters and
// measured GFLOP/s beside each other.
#include <algorithm>
#include <cstdio>

#include "core/analysis.h"
#include "core/errors.h"
#include "ui/emulation_view.h"
#include "ui/panels.h"
#include "ui/theme.h"

namespace tilescope::ui {
namespace {

EmulationView g_left, g_right;

// The other configuration's group that computes the same corner of C as the selected one.
GroupId matching_group(const AppState& s) {
    if (!s.main.trace || !s.other.trace) return s.cursor.group;
    const GroupPhaseView v = group_phase_view(*s.main.trace, s.main.roles, s.cursor.group, 0);
    int64_t r = 0, c = 0;
    if (!v.c_block.empty()) {
        r = v.c_block[0].r0;
        c = v.c_block[0].c0;
    } else if (auto o = cell_owner(*s.main.trace, s.main.roles, 0, 0)) {
        (void)o;
    }
    if (auto o = cell_owner(*s.other.trace, s.other.roles, r, c)) return o->group;
    return GroupId{0, 0, 0};
}

void summary(AppState& s, const TraceSlot& slot, const GroupId& group) {
    if (!slot.config) return;
    ImGui::PushFont(theme().big);
    ImGui::TextUnformatted(config_label(*slot.config).c_str());
    ImGui::PopFont();
    if (!slot.trace) {
        ImGui::TextDisabled(slot.busy() ? "tracing..." : slot.error.c_str());
        return;
    }
    const Trace& t = *slot.trace;
    ImGui::Text("global loads %s, %.0f FLOP/load", t.totals.global_load_bytes >= (1u << 20) ? (std::to_string(t.totals.global_load_bytes >> 20) + " MB").c_str()
                                                                                         : (std::to_string(t.totals.global_load_bytes >> 10) + " KB").c_str(),
                compute_to_global_ratio(t));
    auto it = s.compare_gflops.find(config_key(*slot.config));
    if (it != s.compare_gflops.end())
        ImGui::Text("measured: %.2f GFLOP/s", it->second.gflops);
    else
        ImGui::TextDisabled(s.compare_job && !s.compare_job->done ? "measuring GFLOP/s..." : "GFLOP/s not measured");
    ImGui::TextColored(ImColor(theme().pal.faint_text), "group (%u,%u), phase %d", group[0], group[1], s.cursor.phase);
}

}  // namespace

void start_compare_measurements(AppState& s) {
    if (!s.main.config || !s.other.config) return;
    if (s.compare_job && !s.compare_job->done) return;
    const std::vector<LaunchConfig> configs = {*s.main.config, *s.other.config};
    const std::string sel = s.device_sel;
    s.compare_job = s.worker->submit("measure both", [configs, sel](JobStatus& st) -> std::any {
        std::map<std::string, Measurement> out;
        const DeviceInfo& dev = select_device(sel);
        Runner r(dev);
        RunOptions o;
        o.reps = 3;
        o.cancelled = [&st] { return st.cancel.load(); };
        st.units_total = configs.size();
        for (const LaunchConfig& c : configs) {
            st.set_message("measuring " + config_label(c));
            try {
                out[config_key(c)] = r.measure(c, o);
            } catch (const InputError&) {
            }
            ++st.units_done;
        }
        return out;
    });
}

void draw_compare_view(AppState& s, ImVec2 size) {
    if (s.compare_job && s.compare_job->done) {
        if (auto* m = s.compare_job->result<std::map<std::string, Measurement>>())
            for (const auto& [k, v] : *m) s.compare_gflops[k] = v;
        s.compare_job.reset();
    }
    if (!s.other.config) {
        ImGui::TextWrapped("Compare mode shows two configurations with one phase cursor. Start it with "
                           "`tilescope gui --view compare --compare tiled:16`, or press Compare to add the same kernel at twice the tile size.");
        return;
    }
    const float half = (size.x - ImGui::GetStyle().ItemSpacing.x) / 2;
    const float head = ImGui::GetFontSize() * 4.6f;
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const GroupId right_group = matching_group(s);
    ImGui::PushClipRect(o, ImVec2(o.x + half - 4, o.y + head), true);
    ImGui::BeginGroup();
    summary(s, s.main, s.cursor.group);
    ImGui::EndGroup();
    ImGui::PopClipRect();
    ImGui::SetCursorScreenPos(ImVec2(o.x + half + 8, o.y));
    ImGui::BeginGroup();
    summary(s, s.other, right_group);
    ImGui::EndGroup();
    g_left.draw(s, s.main, ImVec2(o.x, o.y + head), ImVec2(half, size.y - head), false, !s.scripted, true);
    ImGui::GetWindowDrawList()->AddLine(ImVec2(o.x + half + 3, o.y), ImVec2(o.x + half + 3, o.y + size.y), theme().pal.outline, 2.f);
    // the same phase, in the group covering the same corner of C
    const GroupId saved = s.cursor.group;
    const int saved_phase = s.cursor.phase;
    s.cursor.group = right_group;
    g_right.draw(s, s.other, ImVec2(o.x + half + 8, o.y + head), ImVec2(half - 8, size.y - head), false, false, true);
    s.cursor.group = saved;
    s.cursor.phase = saved_phase;
}

}  // namespace tilescope::ui
