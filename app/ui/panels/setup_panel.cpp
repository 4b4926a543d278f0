// Set-up: device, kernel, sizes, tile; what they imply; Trace / Measure. Bad input is a
// message here, never a crash: everything goes through the same validation as the CLI.
#include "ui/panels/setup_panel.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "core/caches/occupancy.h"
#include "core/kernel/catalog.h"
#include "core/base/errors.h"
#include "ui/panels/performance_view.h"
#include "ui/widgets/plot.h"
#include "ui/widgets/theme.h"

namespace tilescope::ui {
namespace {

void copy(char* dst, size_t n, const std::string& s) { std::snprintf(dst, n, "%s", s.c_str()); }

SetupForm form_of(const SetupPanel::FormText& t) {
    SetupForm f;
    const auto& menu = kernel_menu();
    f.kernel = t.kernel < int(menu.size()) ? menu[size_t(t.kernel)].name : "";
    f.size = t.size;
    f.tile = t.tile;
    f.source = t.source;
    f.entry = t.entry;
    f.global = t.global;
    f.local = t.local;
    f.args = t.args;
    f.defines = t.defines;
    f.check = t.check;
    f.params = t.params;
    return f;
}

std::string joined(const std::vector<std::string>& v, const char* sep) {
    std::string out;
    for (const std::string& x : v) out += (out.empty() ? "" : sep) + x;
    return out;
}

}  // namespace

void SetupPanel::sync_from(const LaunchConfig& c, const std::string& source_path) {
    const auto& rungs = kernel_menu();
    form_.kernel = int(rungs.size());
    for (size_t i = 0; i < rungs.size(); ++i)
        if (!c.kernel.custom && rungs[i].name == c.kernel.name) form_.kernel = int(i);
    copy(form_.size, sizeof form_.size, c.size.label());
    form_.tile = c.tile;
    form_.params = c.params;
    if (c.kernel.custom) {  // the custom kernel's options, back in the form's fields
        copy(form_.source, sizeof form_.source, source_path.empty() ? c.kernel.source_name : source_path);
        copy(form_.entry, sizeof form_.entry, c.kernel.entry);
        copy(form_.global, sizeof form_.global, joined(c.kernel.global, ","));
        copy(form_.local, sizeof form_.local, joined(c.kernel.local, ","));
        std::vector<std::string> args, defines;
        for (const ArgSpec& a : c.kernel.args) args.push_back(to_string(a));
        for (const auto& [name, value] : c.kernel.defines) defines.push_back(name + "=" + value);
        copy(form_.args, sizeof form_.args, joined(args, " "));
        copy(form_.defines, sizeof form_.defines, joined(defines, " "));
        if (c.kernel.check) copy(form_.check, sizeof form_.check, c.kernel.check->c + "=" + c.kernel.check->a + "*" + c.kernel.check->b);
    }
}


void SetupPanel::draw_device(AppState& s, const DeviceInfo* dev) {
    ImGui::TextUnformatted("Device (for GFLOP/s)");
    if (s.devices.empty()) {
        ImGui::TextDisabled(s.devices_job && !s.devices_job->done ? "finding OpenCL devices..." : "no OpenCL devices");
        return;
    }
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##device", dev ? dev->label().c_str() : "none")) {
        for (const DeviceInfo& d : s.devices) {
            const std::string label = d.selector() + "  " + d.label() + (d.is_emulator ? "  (emulator: traces)" : "");
            if (ImGui::Selectable(label.c_str(), dev && d.selector() == dev->selector(), d.is_emulator ? ImGuiSelectableFlags_Disabled : 0))
                s.device_sel = d.selector();
        }
        ImGui::EndCombo();
    }
    if (dev)
        ImGui::TextColored(ImColor(theme().pal.faint_text), "%u CUs, local %llu KB, work-group <= %zu", dev->compute_units,
                           (unsigned long long)(dev->local_mem / 1024), dev->max_work_group);
}

void SetupPanel::draw_kernel_fields() {
    ImGui::TextUnformatted("Kernel");
    const auto& rungs = kernel_menu();
    ImGui::SetNextItemWidth(-1);
    const std::string current = form_.kernel < int(rungs.size()) ? rungs[size_t(form_.kernel)].name + ": " + rungs[size_t(form_.kernel)].title : "custom .cl file";
    if (ImGui::BeginCombo("##kernel", current.c_str())) {
        for (size_t i = 0; i < rungs.size(); ++i)
            if (ImGui::Selectable((rungs[i].name + ": " + rungs[i].title).c_str(), int(i) == form_.kernel)) form_.kernel = int(i);
        if (ImGui::Selectable("custom .cl file", form_.kernel == int(rungs.size()))) form_.kernel = int(rungs.size());
        ImGui::EndCombo();
    }
    if (form_.kernel >= int(rungs.size())) {
        ImGui::InputText("File", form_.source, sizeof form_.source);
        ImGui::InputText("Entry", form_.entry, sizeof form_.entry);
        ImGui::InputText("Global", form_.global, sizeof form_.global);
        ImGui::InputText("Local", form_.local, sizeof form_.local);
        ImGui::InputText("Args", form_.args, sizeof form_.args);
        ImGui::InputText("Defines", form_.defines, sizeof form_.defines);
        ImGui::InputText("Check", form_.check, sizeof form_.check);
        ImGui::TextColored(ImColor(theme().pal.faint_text), "args: A=matrix:MxK:in B=... (space separated)");
    }
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::InputText("Size (S or MxNxK)", form_.size, sizeof form_.size);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::InputInt("Tile size TS", &form_.tile, 0);
    ImGui::SameLine();
    for (int ts : {4, 8, 16, 32}) {
        ImGui::SameLine();
        char b[8];
        std::snprintf(b, sizeof b, "%d", ts);
        if (ImGui::SmallButton(b)) form_.tile = ts;
    }
}

void SetupPanel::draw_lesson() {
    const auto& rungs = kernel_menu();
    if (form_.kernel >= int(rungs.size())) return;
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(ImColor(theme().pal.faint_text), "%s", rungs[size_t(form_.kernel)].lesson.c_str());
    ImGui::PopTextWrapPos();
}

void SetupPanel::draw_buttons(AppState& s, const SetupCheck& check) {
    const bool can_trace = check.ok();
    if (!can_trace) ImGui::BeginDisabled();
    if (ImGui::Button("Trace on emulator")) {
        s.main.start(*s.worker, *check.config);
        s.cursor.interval = 0;
    }
    if (!can_trace) ImGui::EndDisabled();
    ImGui::SameLine();
    const bool can_measure = check.config && check.device_problem.empty() && s.measuring_device();
    if (!can_measure) ImGui::BeginDisabled();
    if (ImGui::Button("Measure GFLOP/s")) {
        s.main.config = check.config;
        start_performance(s);
        s.view = View::Performance;
    }
    if (!can_measure) ImGui::EndDisabled();
    // Measure also runs the rung the tuning data pick here (bench --kernel fastest); its own
    // line, so it stays whole in a narrow side panel.
    ImGui::Checkbox("and the rung picked for you (fastest)", &s.perf.ask_fastest);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Also measure the rung, tile and parameters the device's tuning data pick at this size,\n"
                          "and say why (as tilescope bench --kernel fastest)");
}

void SetupPanel::draw_check(const SetupCheck& check) {
    const Palette& pal = theme().pal;
    for (const std::string& line : check.implied) ImGui::TextUnformatted(line.c_str());
    const std::optional<LaunchConfig>& config = check.config;
    if (config && (config->size.M > 512 || config->size.N > 512 || config->size.K > 512))
        ImGui::TextColored(ImColor(pal.race), "Large for the emulator: the trace may be refused or slow");
    ImGui::PushTextWrapPos(0);
    if (!check.problem.empty()) ImGui::TextColored(ImColor(pal.race), "%s", check.problem.c_str());
    if (!check.device_problem.empty() && check.device_problem != check.problem)
        ImGui::TextColored(ImColor(pal.race), "Measuring: %s", check.device_problem.c_str());
    ImGui::PopTextWrapPos();
}

void SetupPanel::draw_jobs(AppState& s) {
    const Palette& pal = theme().pal;
    for (const JobHandle& j : {s.main.job, s.other.job, s.perf.job, s.compare_job}) {
        if (!j || j->done) continue;
        ImGui::ProgressBar(j->fraction(), ImVec2(-ImGui::GetFontSize() * 4, 0), j->label.c_str());
        ImGui::SameLine();
        ImGui::PushID(j.get());
        if (ImGui::Button("Cancel")) ask_cancel(*j);
        ImGui::PopID();
        const std::string m = j->message();
        if (!m.empty()) ImGui::TextColored(ImColor(pal.faint_text), "%s", m.c_str());
        if (cancel_is_stuck(*j)) {
            ImGui::PushTextWrapPos(0);
            ImGui::TextColored(ImColor(pal.race), "%s", kStuckCancelText);
            ImGui::PopTextWrapPos();
        }
    }
    for (const TraceSlot* slot : {&s.main, &s.other})
        if (!slot->error.empty()) {
            ImGui::PushTextWrapPos(0);
            ImGui::TextColored(ImColor(pal.race), "%s", slot->error.c_str());
            ImGui::PopTextWrapPos();
        }
}

// The slides' "blocks per SM" for the work-group on screen, on every device profile (the
// slide's 16 KB / 1536-thread SM, the H100, the H200, this workplace's CPU): each limit in
// its own column, as `tilescope occupancy` prints them. It follows from the local bytes, so
// it waits for Reveal with them.
void SetupPanel::draw_occupancy(const Trace& t, const HiddenFigures& hide) {
    uint64_t bytes = 0;
    for (const LocalBuffer& l : t.local_buffers) bytes += l.bytes;
    if (bytes == 0) return;
    if (hide(Figure::LocalBytes)) {
        text_wrapped("work-groups one compute unit holds at once: %s", kHiddenUntilReveal);
        return;
    }
    const std::pair<uint64_t, uint64_t> key{t.local[0] * t.local[1] * t.local[2], bytes};
    if (key != occupancy_key_) {
        occupancy_rows_ = occupancy_of_trace(t);
        occupancy_key_ = key;
    }
    if (occupancy_rows_.empty()) return;
    text_wrapped("Work-groups of %llu work-items one compute unit holds at once (modelled from device profiles; "
                       "tilescope occupancy):", static_cast<unsigned long long>(key.first));
    const std::vector<std::string> heads = occupancy_row_headings();
    // The table only where every column fits the panel at its widest cell; a narrower panel gets the
    // same figures as one sentence per profile (a fixed-fit table would cut its right-hand columns).
    const ImGuiStyle& style = ImGui::GetStyle();
    float table_width = 0;
    for (size_t c = 0; c < heads.size(); ++c) {
        float widest = ImGui::CalcTextSize(heads[c].c_str()).x;
        for (const ProfileOccupancy& r : occupancy_rows_)
            widest = std::max(widest, ImGui::CalcTextSize(occupancy_row_cells(r)[c].c_str()).x);
        table_width += widest + 2 * style.CellPadding.x + 1;
    }
    if (table_width > ImGui::GetContentRegionAvail().x) {
        for (const ProfileOccupancy& r : occupancy_rows_) text_wrapped_keeping_tuples(occupancy_sentence(r));
        return;
    }
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersInnerV;
    if (!ImGui::BeginTable("occupancy", int(heads.size()), flags)) return;
    for (const std::string& h : heads) ImGui::TableSetupColumn(h.c_str());
    ImGui::TableHeadersRow();
    for (const ProfileOccupancy& r : occupancy_rows_) {
        ImGui::TableNextRow();
        for (const std::string& c : occupancy_row_cells(r)) {
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(c.c_str());
        }
    }
    ImGui::EndTable();
}

// Buttons right under the fields they act on, above everything whose length varies, so
// they stay put while the text below them changes.
void SetupPanel::draw(AppState& s) {
    if (!initialised_ || s.imposed != imposed_seen_) {  // at start, and when a lesson step sets the launch
        if (s.main.config) sync_from(*s.main.config, s.custom_source_path);
        initialised_ = true;
        imposed_seen_ = s.imposed;
    }
    const DeviceInfo* dev = s.measuring_device();
    draw_kernel_fields();
    const SetupCheck check = check_setup(form_of(form_), dev, s.emulator_device(), hidden_figures(s));  // checked before anything runs
    // an error is about the set-up that failed: once the form says something else, it goes
    if (!s.main.busy() && !s.main.error.empty() && (!check.config || !s.main.config || config_key(*check.config) != config_key(*s.main.config)))
        s.main.error.clear();
    draw_buttons(s, check);
    draw_check(check);
    // the slides' shared-memory table, for what is on screen and the device measured on
    if (s.main.trace)
        if (const std::string line = local_memory_line(*s.main.trace, s.measuring_device(), hidden_figures(s)); !line.empty())
            text_wrapped("%s", line.c_str());
    if (s.main.trace) draw_occupancy(*s.main.trace, hidden_figures(s));
    draw_jobs(s);
    draw_lesson();
    draw_device(s, dev);
}

}  // namespace tilescope::ui
