// Set-up: device, kernel, sizes, tile; what they imply; Trace / Measure. Bad input is a
// message here, never a crash: everything goes through the same validation as the CLI.
#include <cstdio>
#include <cstring>

#include "core/catalog.h"
#include "core/errors.h"
#include "ui/panels.h"
#include "ui/setup_form.h"
#include "ui/theme.h"

namespace tilescope::ui {
namespace {

// The form's text fields (ImGui edits char buffers); converted to a SetupForm each frame.
struct FormText {
    bool initialised = false;
    int kernel = 0;  // index into kernel_menu(), or its size for a custom kernel
    char size[64] = "32";
    int tile = 8;
    char source[256] = "", entry[64] = "", global[96] = "", local[96] = "", args[512] = "", defines[128] = "", check[64] = "";
};
FormText g_form;

void copy(char* dst, size_t n, const std::string& s) { std::snprintf(dst, n, "%s", s.c_str()); }

SetupForm form_of(const FormText& t) {
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
    return f;
}

std::string joined(const std::vector<std::string>& v, const char* sep) {
    std::string out;
    for (const std::string& x : v) out += (out.empty() ? "" : sep) + x;
    return out;
}

void sync_from(const LaunchConfig& c, const std::string& source_path) {
    const auto& rungs = kernel_menu();
    g_form.kernel = int(rungs.size());
    for (size_t i = 0; i < rungs.size(); ++i)
        if (!c.kernel.custom && rungs[i].name == c.kernel.name) g_form.kernel = int(i);
    copy(g_form.size, sizeof g_form.size, c.size.label());
    g_form.tile = c.tile;
    if (c.kernel.custom) {  // the custom kernel's options, back in the form's fields
        copy(g_form.source, sizeof g_form.source, source_path.empty() ? c.kernel.source_name : source_path);
        copy(g_form.entry, sizeof g_form.entry, c.kernel.entry);
        copy(g_form.global, sizeof g_form.global, joined(c.kernel.global, ","));
        copy(g_form.local, sizeof g_form.local, joined(c.kernel.local, ","));
        std::vector<std::string> args, defines;
        for (const ArgSpec& a : c.kernel.args) args.push_back(to_string(a));
        for (const auto& [name, value] : c.kernel.defines) defines.push_back(name + "=" + value);
        copy(g_form.args, sizeof g_form.args, joined(args, " "));
        copy(g_form.defines, sizeof g_form.defines, joined(defines, " "));
        if (c.kernel.check) copy(g_form.check, sizeof g_form.check, c.kernel.check->c + "=" + c.kernel.check->a + "*" + c.kernel.check->b);
    }
}

}  // namespace

void draw_setup_panel(AppState& s) {
    const Palette& pal = theme().pal;
    if (!g_form.initialised) {
        if (s.main.config) sync_from(*s.main.config, s.custom_source_path);
        g_form.initialised = true;
    }
    // Device for measurements (the emulator is always used for traces).
    const DeviceInfo* dev = s.measuring_device();
    ImGui::TextUnformatted("Device (for GFLOP/s)");
    if (s.devices.empty()) {
        ImGui::TextDisabled(s.devices_job && !s.devices_job->done ? "finding OpenCL devices..." : "no OpenCL devices");
    } else {
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
            ImGui::TextColored(ImColor(pal.faint_text), "%u CUs, local %llu KB, work-group <= %zu", dev->compute_units,
                               (unsigned long long)(dev->local_mem / 1024), dev->max_work_group);
    }

    ImGui::TextUnformatted("Kernel");
    const auto& rungs = kernel_menu();
    ImGui::SetNextItemWidth(-1);
    const std::string current = g_form.kernel < int(rungs.size()) ? rungs[size_t(g_form.kernel)].name + ": " + rungs[size_t(g_form.kernel)].title : "custom .cl file";
    if (ImGui::BeginCombo("##kernel", current.c_str())) {
        for (size_t i = 0; i < rungs.size(); ++i)
            if (ImGui::Selectable((rungs[i].name + ": " + rungs[i].title).c_str(), int(i) == g_form.kernel)) g_form.kernel = int(i);
        if (ImGui::Selectable("custom .cl file", g_form.kernel == int(rungs.size()))) g_form.kernel = int(rungs.size());
        ImGui::EndCombo();
    }
    if (g_form.kernel < int(rungs.size())) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(ImColor(pal.faint_text), "%s", rungs[size_t(g_form.kernel)].lesson.c_str());
        ImGui::PopTextWrapPos();
    } else {
        ImGui::InputText("file", g_form.source, sizeof g_form.source);
        ImGui::InputText("entry", g_form.entry, sizeof g_form.entry);
        ImGui::InputText("global", g_form.global, sizeof g_form.global);
        ImGui::InputText("local", g_form.local, sizeof g_form.local);
        ImGui::InputText("args", g_form.args, sizeof g_form.args);
        ImGui::InputText("defines", g_form.defines, sizeof g_form.defines);
        ImGui::InputText("check", g_form.check, sizeof g_form.check);
        ImGui::TextColored(ImColor(pal.faint_text), "args: A=matrix:MxK:in B=... (space separated)");
    }
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::InputText("size (S or MxNxK)", g_form.size, sizeof g_form.size);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::InputInt("tile TS", &g_form.tile, 0);
    ImGui::SameLine();
    for (int ts : {4, 8, 16, 32}) {
        ImGui::SameLine();
        char b[8];
        std::snprintf(b, sizeof b, "%d", ts);
        if (ImGui::SmallButton(b)) g_form.tile = ts;
    }

    // What the form implies, checked before anything runs.
    const SetupCheck check = check_setup(form_of(g_form), dev);
    for (const std::string& line : check.implied) ImGui::TextUnformatted(line.c_str());
    const std::optional<LaunchConfig>& config = check.config;
    const std::string& problem = check.problem;
    if (config && (config->size.M > 512 || config->size.N > 512 || config->size.K > 512))
        ImGui::TextColored(ImColor(pal.race), "large for the emulator: the trace may be refused or slow");
    if (!problem.empty()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(ImColor(pal.race), "%s", problem.c_str());
        ImGui::PopTextWrapPos();
    }
    const bool ok = config && problem.empty();
    if (!ok) ImGui::BeginDisabled();
    if (ImGui::Button("Trace on emulator")) {
        s.main.start(*s.worker, *config);
        s.cursor.phase = 0;
    }
    ImGui::SameLine();
    if (ImGui::Button("Measure GFLOP/s")) {
        s.main.config = config;
        start_performance(s);
        s.view = View::Performance;
    }
    if (!ok) ImGui::EndDisabled();

    // Jobs in flight, with cancel.
    for (const JobHandle& j : {s.main.job, s.other.job, s.perf.job, s.compare_job}) {
        if (!j || j->done) continue;
        ImGui::ProgressBar(j->fraction(), ImVec2(-ImGui::GetFontSize() * 4, 0),
                           j->label.c_str());
        ImGui::SameLine();
        ImGui::PushID(j.get());
        if (ImGui::Button("Cancel")) j->cancel = true;
        ImGui::PopID();
        const std::string m = j->message();
        if (!m.empty()) ImGui::TextColored(ImColor(pal.faint_text), "%s", m.c_str());
    }
    for (const TraceSlot* slot : {&s.main, &s.other})
        if (!slot->error.empty()) {
            ImGui::PushTextWrapPos(0);
            ImGui::TextColored(ImColor(pal.race), "%s", slot->error.c_str());
            ImGui::PopTextWrapPos();
        }
}

}  // namespace tilescope::ui
