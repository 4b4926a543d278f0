// Compare mode: two configurations side by side, one phase cursor, their counters and
// measured GFLOP/s beside each other.
#include "ui/panels/compare_view.h"

#include <algorithm>
#include <cstdio>
#include <tuple>

#include "core/device/spread.h"
#include "core/tasks/measure.h"
#include "core/kernel/catalog.h"
#include "core/trace/analysis.h"
#include "core/trace/phases.h"
#include "ui/panels/emulation_panel.h"
#include "ui/state/setup_form.h"
#include "ui/widgets/theme.h"

namespace tilescope::ui {
namespace {

int64_t ceil_div(int64_t a, int64_t b) { return b > 0 ? (a + b - 1) / b : 0; }

// Rows and columns of C each group computes, from the NDRange (2D: dimension 0 along
// columns; 1D: along rows), as the ladder's rungs split C.
std::pair<int64_t, int64_t> group_block(const LaunchConfig& c, const ResolvedLaunch& r) {
    if (r.dims >= 2) return {ceil_div(c.size.M, int64_t(r.groups[1])), ceil_div(c.size.N, int64_t(r.groups[0]))};
    return {ceil_div(c.size.M, int64_t(r.groups[0])), c.size.N};
}

// `other`: the other side of the comparison; a parameter the two set differently is named
// on both (PAD=4 beside PAD=0, though 4 is the default).
std::string trace_label(const Trace& t, const Trace* other = nullptr) {
    std::string s = t.kernel + " " + t.size.label();
    if (t.tile > 0) s += " TS=" + std::to_string(t.tile);
    if (const KernelSpec* k = t.custom ? nullptr : find_kernel(t.kernel)) {  // as config_label: the parameters that differ
        const std::string p = other && other->kernel == t.kernel ? compared_params_text(*k, t.params, other->params)
                                                                 : changed_params_text(*k, t.params);
        if (!p.empty()) s += " " + p;
    }
    return s;
}

std::string group_text(const GroupId& g) { return "(" + std::to_string(g[0]) + "," + std::to_string(g[1]) + ")"; }

// The first cell of C a group computes, from the NDRange.
std::pair<int64_t, int64_t> block_origin(const LaunchConfig& c, const GroupId& g) {
    try {
        const ResolvedLaunch r = resolve(c);
        const auto [rows, cols] = group_block(c, r);
        if (r.dims >= 2) return {int64_t(g[1]) * rows, int64_t(g[0]) * cols};
        return {int64_t(g[0]) * rows, 0};
    } catch (const std::exception&) {
        return {0, 0};
    }
}

// The part of `v2` that loads column k of A, the first one `v1` loads now.
std::optional<int> phase_loading(const Trace& t2, const MatrixRoles& roles2, const GroupId& g2, int64_t k) {
    // The intervals' own rectangles: one group_phase_view per interval rebuilt the local
    // arrays from the start each time, every drawn frame (issue 32).
    const GroupTrace* g = t2.find_group(g2);
    if (!g || roles2.a.empty()) return std::nullopt;
    for (int p = 0; p < int(g->intervals.size()); ++p)
        for (const BufferIntervalAccess& acc : g->intervals[size_t(p)].buffers)
            if (acc.buffer == roles2.a)
                for (const Rect& r : acc.loaded)
                    if (r.c0 <= k && k <= r.c1) return p;
    return std::nullopt;
}

}  // namespace

GroupId group_covering(const LaunchConfig& c, int64_t row, int64_t col) {
    GroupId g{0, 0, 0};
    try {
        const ResolvedLaunch r = resolve(c);
        const auto [rows, cols] = group_block(c, r);
        if (r.dims >= 2) {
            g[0] = uint32_t(std::clamp<int64_t>(cols ? col / cols : 0, 0, int64_t(r.groups[0]) - 1));
            g[1] = uint32_t(std::clamp<int64_t>(rows ? row / rows : 0, 0, int64_t(r.groups[1]) - 1));
        } else {
            g[0] = uint32_t(std::clamp<int64_t>(rows ? row / rows : 0, 0, int64_t(r.groups[0]) - 1));
        }
    } catch (const std::exception&) {  // an unresolvable launch has only group 0
    }
    return g;
}

GroupId ComparePanel::mapped_group(const LaunchConfig& first, const GroupId& group, const LaunchConfig& second) {
    const auto [row, col] = block_origin(first, group);
    return group_covering(second, row, col);
}

ComparePanel::Shown ComparePanel::match(const AppState& s) const {
    Shown out;
    out.group = s.cursor.group;
    out.interval = s.cursor.interval;
    if (!s.main.trace || !s.other.trace || !s.main.config || !s.other.config) return out;
    const Trace& t2 = *s.other.trace;
    // the first cell of C the selected group computes: traced, else from the NDRange
    const GroupPhaseView v1 = group_phase_view(*s.main.trace, s.main.roles, s.cursor.group, s.cursor.interval);
    int64_t row = 0, col = 0;
    if (!v1.c_block.empty()) {
        row = v1.c_block[0].r0;
        col = v1.c_block[0].c0;
    } else {
        std::tie(row, col) = block_origin(*s.main.config, s.cursor.group);
    }
    const auto owner = cell_owner(t2, s.other.roles, row, col);
    out.group = owner && owner->from_trace ? owner->group : group_covering(*s.other.config, row, col);
    out.interval = std::clamp(s.cursor.interval, 0, std::max(0, interval_count(t2, out.group) - 1));
    out.why = "group " + group_text(out.group) + ": same P(" + std::to_string(row) + "," + std::to_string(col) + ")";
    if (!v1.a_loaded.empty())
        if (auto p = phase_loading(t2, s.other.roles, out.group, v1.a_loaded[0].c0)) {
            out.interval = *p;
            const GroupTrace* g2 = t2.find_group(out.group);
            const std::string title = g2 ? part_title(phase_plan(*g2), *p, hidden_until_reveal(s, Figure::PhaseCount)) : "";
            out.why += ", " + title.substr(0, title.rfind(" (")) + ": same k=" + std::to_string(v1.a_loaded[0].c0);
        }
    return out;
}

void ComparePanel::retrace_for(AppState& s, const GroupId& group) {
    if (!s.other.config || s.other.busy()) return;
    if (asked_ == group && asked_version_ == s.other.version) return;  // asked once per trace: never a loop
    asked_ = group;
    asked_version_ = s.other.version + 1;  // the version the answer will carry
    s.other.start(*s.worker, *s.other.config, {}, group);
}

// Until the user picks the second configuration, it is the first one at twice the tile
// (half when twice is over the device's limit), re-traced whenever the first changes.
void ComparePanel::follow_main(AppState& s) {
    if (s.imposed != imposed_seen_) {  // a lesson step's compare is the step's, never followed away
        imposed_seen_ = s.imposed;
        if (s.imposed_compare) {
            chosen_ = true;
            kernel_ = -1;  // the form reads the step's configuration
        }
    }
    if (!s.main.config || chosen_) return;
    const std::string key = config_key(*s.main.config);
    if (followed_.empty() && s.other.config) {  // given on the command line: adopted as chosen unless it is the default
        followed_ = key;
        chosen_ = s.other.config->kernel.name != s.main.config->kernel.name || s.other.config->tile != s.main.config->tile * 2;
        return;
    }
    if (key == followed_ && s.other.config) return;
    followed_ = key;
    LaunchConfig c = *s.main.config;
    SetupForm form;
    form.kernel = c.kernel.custom ? "" : c.kernel.name;
    form.size = c.size.label();
    form.tile = c.tile * 2;
    if (c.kernel.custom || !check_setup(form, s.measuring_device()).ok()) form.tile = std::max(1, c.tile / 2);
    c.tile = form.tile;
    s.other.start(*s.worker, c, {}, mapped_group(*s.main.config, s.cursor.group, c));
    start_compare_measurements(s);
}

void ComparePanel::draw_form(AppState& s) {
    const auto& menu = kernel_menu();
    if (kernel_ < 0 && s.other.config) {  // the form starts from the configuration on show
        for (size_t i = 0; i < menu.size(); ++i)
            if (!s.other.config->kernel.custom && menu[i].name == s.other.config->kernel.name) kernel_ = int(i);
        std::snprintf(size_, sizeof size_, "%s", s.other.config->size.label().c_str());
        tile_ = s.other.config->tile;
    }
    bool changed = false;
    const float fh = ImGui::GetFontSize();
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Right: kernel");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(fh * 9);
    if (ImGui::BeginCombo("##kernel2", kernel_ >= 0 && kernel_ < int(menu.size()) ? menu[size_t(kernel_)].name.c_str() : "kernel")) {
        for (size_t i = 0; i < menu.size(); ++i)
            if (ImGui::Selectable(menu[i].name.c_str(), int(i) == kernel_)) {
                kernel_ = int(i);
                changed = true;
            }
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("the kernel of the right-hand configuration");
    ImGui::SameLine();
    ImGui::TextUnformatted("size");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(fh * 5);
    ImGui::InputText("##size2", size_, sizeof size_);
    changed |= ImGui::IsItemDeactivatedAfterEdit();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("S (square) or MxNxK; press Enter to trace");
    ImGui::SameLine();
    ImGui::TextUnformatted("TS");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(fh * 3);
    changed |= ImGui::InputInt("##tile2", &tile_, 0, 0, ImGuiInputTextFlags_EnterReturnsTrue);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("the tile size TS; press Enter to trace");
    for (int ts : {4, 8, 16, 32}) {
        same_line_if_fits(ImGui::GetFontSize() * 1.6f);
        if (ImGui::SmallButton(std::to_string(ts).c_str())) {
            tile_ = ts;
            changed = true;
        }
    }
    if (!problem_.empty()) {
        ImGui::SameLine();
        ImGui::TextColored(ImColor(theme().pal.race), "%s", problem_.c_str());
    }
    if (!changed || kernel_ < 0 || kernel_ >= int(menu.size())) return;
    SetupForm form;
    form.kernel = menu[size_t(kernel_)].name;
    form.size = size_;
    form.tile = tile_;
    const SetupCheck check = check_setup(form, s.measuring_device());
    problem_ = check.ok() ? "" : "right: " + check.problem;
    if (!check.ok()) return;
    chosen_ = true;
    s.other.start(*s.worker, *check.config, {}, s.main.config ? mapped_group(*s.main.config, s.cursor.group, *check.config) : GroupId{});
    start_compare_measurements(s);
}

void ComparePanel::summary(const AppState& s, const TraceSlot& slot, const GroupId& group, int interval, const std::string& why,
                           bool projector) const {
    ImGui::PushFont(theme().big);
    const TraceSlot& opposite = &slot == &s.main ? s.other : s.main;
    const Trace* other_trace = opposite.trace.get();
    ImGui::TextUnformatted(slot.trace ? trace_label(*slot.trace, other_trace).c_str() : slot.config ? config_label(*slot.config).c_str() : "");
    ImGui::PopFont();
    if (slot.busy()) {
        ImGui::SameLine();
        ImGui::TextColored(ImColor(theme().pal.faint_text), slot.config ? ("tracing " + config_label(*slot.config) + "...").c_str() : "tracing...");
    }
    if (!slot.trace) {
        if (!slot.error.empty()) ImGui::TextColored(ImColor(theme().pal.race), "%s", slot.error.c_str());
        return;
    }
    const Trace& t = *slot.trace;
    const uint64_t b = t.totals.global_load_bytes;
    const std::string loaded = b >= (1u << 20) ? std::to_string(b >> 20) + " MB" : std::to_string(b >> 10) + " KB";
    if (hidden_until_reveal(s, Figure::GlobalTraffic) || hidden_until_reveal(s, Figure::FlopPerLoad))
        ImGui::Text("global loads and FLOP per load: %s", kHiddenUntilReveal);
    else if (projector)
        ImGui::Text("traced: %s, %.1f FLOP/load", loaded.c_str(), compute_to_global_ratio(t));
    else
        ImGui::Text("global loads %s (traced), %.1f FLOP per global load", loaded.c_str(), compute_to_global_ratio(t));
    // The bank-conflict degree (lesson 6 asks to compare it): the worst local request, traced.
    // At the projector only where there is one (degree above 1) or a lesson may ask.
    const BankConflictCounts& bank = t.bank_conflicts;
    if (t.partial) {
        if (!projector) ImGui::TextDisabled("bank conflicts: at the end of the launch");
    } else if (bank.requests == 0) {
        if (!projector) ImGui::TextUnformatted("bank conflicts: no local-memory requests");
    } else if (!projector || bank.max_degree > 1) {
        ImGui::Text("bank-conflict degree %u at most, mean %.2f (traced)", bank.max_degree, bank.mean_degree());
    }
    const LaunchConfig* c = slot.config ? &*slot.config : nullptr;
    auto it = c ? s.compare_gflops.find(config_key(*c)) : s.compare_gflops.end();
    if (it != s.compare_gflops.end() && c && trace_label(t) == config_label(*c)) {
        // the runs' spread, and against the other side: faster only when the ranges are apart
        const GflopsSpread mine = gflops_spread(it->second);
        std::string verdict;
        const TraceSlot& other = &slot == &s.main ? s.other : s.main;
        if (other.config)
            if (auto ot = s.compare_gflops.find(config_key(*other.config)); ot != s.compare_gflops.end()) {
                const Comparison cmp = compare_measurements(mine, gflops_spread(ot->second));
                char f[32];
                std::snprintf(f, sizeof f, "%.1f\u00d7", cmp.factor);
                verdict = cmp.ranking == Ranking::within_noise    ? "; within noise of the other"
                          : cmp.ranking == Ranking::first_faster  ? std::string("; ") + f + " faster"
                          : cmp.ranking == Ranking::second_faster ? std::string("; ") + f + " slower"
                                                                  : "";
            }
        const std::string at = c->size.M == c->size.N && c->size.N == c->size.K ? c->size.label() + "\u00b3" : c->size.label();
        // Below the performance view's size (256³) the launch is too short to time (lesson 7):
        // the runs are shown, not ranked, as the performance view says of the same size.
        const int64_t timed = int64_t(s.perf.size);
        if (!verdict.empty() && c->size.M * c->size.N * c->size.K < timed * timed * timed)
            verdict = "; too short a launch to rank";
        if (mine.valid() && projector)
            ImGui::Text("%.2f GFLOP/s (%.2f-%.2f, measured at %s)%s", mine.median, mine.low, mine.high, at.c_str(), verdict.c_str());
        else if (mine.valid())
            ImGui::Text("%.2f GFLOP/s at %s (runs %.2f-%.2f, measured)%s", mine.median, at.c_str(), mine.low, mine.high, verdict.c_str());
        else
            ImGui::Text("%.2f GFLOP/s (measured)", it->second.gflops);
    } else
        ImGui::TextDisabled(s.compare_job && !s.compare_job->done ? "measuring GFLOP/s..." : "GFLOP/s not measured");
    if (!projector)
        ImGui::TextColored(ImColor(theme().pal.faint_text), "%s",
                           why.empty() ? ("group " + group_text(group) + ", part " + std::to_string(interval)).c_str() : why.c_str());
}

void ComparePanel::draw(AppState& s, ImVec2 size, bool projector) {
    if (s.compare_job && s.compare_job->done) {
        if (auto* m = s.compare_job->result<std::map<std::string, Measurement>>())
            for (const auto& [k, v] : *m) s.compare_gflops[k] = v;
        s.compare_job.reset();
    }
    follow_main(s);
    const ImVec2 start = ImGui::GetCursorScreenPos();
    if (!projector) draw_form(s);
    size.y -= ImGui::GetCursorScreenPos().y - start.y;
    const float gap = ImGui::GetStyle().ItemSpacing.x, half = (size.x - gap) / 2;
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const Shown right = match(s);
    if (s.other.trace && !s.other.trace->find_group(right.group)) retrace_for(s, right.group);
    // the two summaries side by side, wrapped in their halves; the matrices start below the taller
    const float local_x = ImGui::GetCursorPosX();
    ImGui::PushTextWrapPos(local_x + half - 8);
    ImGui::BeginGroup();
    summary(s, s.main, s.cursor.group, s.cursor.interval, "", projector);
    ImGui::EndGroup();
    ImGui::PopTextWrapPos();
    const float left_h = ImGui::GetItemRectSize().y;
    ImGui::SetCursorScreenPos(ImVec2(o.x + half + 8, o.y));
    ImGui::PushTextWrapPos(local_x + size.x);
    ImGui::BeginGroup();
    summary(s, s.other, right.group, right.interval, right.why, projector);
    ImGui::EndGroup();
    ImGui::PopTextWrapPos();
    const float right_h = ImGui::GetItemRectSize().y;
    const float top = o.y + std::max(left_h, right_h) + ImGui::GetStyle().ItemSpacing.y;
    const float view_h = std::max(10.f, size.y - (top - o.y) - (projector ? 0.f : ImGui::GetFrameHeightWithSpacing()));
    const EmulationViewFlags input = s.scripted ? EmulationViewFlags_NoInput : 0;
    const EmulationViewFlags narrow = projector ? EmulationViewFlags_CornerLocals : 0;
    EmulationViewData d1 = view_data(s, s.main);
    const EmulationViewResult r1 = left_.draw(d1, ImVec2(o.x, top), ImVec2(half, view_h), EmulationViewFlags_Compact | input | narrow);
    if (r1.clicked_group) select_group(s, s.main, *r1.clicked_group);
    ImGui::GetWindowDrawList()->AddLine(ImVec2(o.x + half + 3, o.y), ImVec2(o.x + half + 3, o.y + size.y), theme().pal.outline, 2.f);
    EmulationViewData d2 = view_data(s, s.other);
    d2.group = right.group;
    d2.interval = right.interval;
    d2.pinned_hover.reset();
    right_.draw(d2, ImVec2(o.x + half + 8, top), ImVec2(half - 8, view_h), EmulationViewFlags_Compact | EmulationViewFlags_NoInput | narrow);
}

std::vector<MatrixPlacement> ComparePanel::placements() const {
    std::vector<MatrixPlacement> all = left_.placements();
    all.insert(all.end(), right_.placements().begin(), right_.placements().end());
    return all;
}

void start_compare_measurements(AppState& s) {
    if (!s.main.config || !s.other.config) return;
    if (s.compare_job && !s.compare_job->done) s.compare_job->cancel = true;
    tasks::MeasureJob job;  // median of 5 after a warm-up: the runs' spread decides "within noise"
    job.reps = 5;
    job.device = s.device_sel;
    job.configs = {*s.main.config, *s.other.config};
    s.compare_job = s.worker->submit("measure both", [job](JobStatus& st) -> std::any {
        const std::vector<std::optional<Measurement>> measured = tasks::measure_configs(job, task_progress(st));
        std::map<std::string, Measurement> out;  // config key -> measurement, for the configs the device ran
        for (size_t i = 0; i < measured.size(); ++i)
            if (measured[i]) out[config_key(job.configs[i])] = *measured[i];
        return out;
    });
}

}  // namespace tilescope::ui
