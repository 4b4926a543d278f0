#include "core/trace/phases.h"

#include <algorithm>
#include <type_traits>

namespace tilescope {

// Parts are in interval order and their phases never decrease (phase_plan makes them
// so): a phase's parts are found by binary search, so stepping through every part of a
// long trace stays linear (issue 32).
namespace {
std::pair<std::vector<PhasePart>::const_iterator, std::vector<PhasePart>::const_iterator> phase_range(
    const std::vector<PhasePart>& parts, int phase) {
    return std::equal_range(parts.begin(), parts.end(), phase, [](const auto& a, const auto& b) {
        if constexpr (std::is_same_v<std::decay_t<decltype(a)>, PhasePart>) return a.phase < b;
        else return a < b.phase;
    });
}
}  // namespace

std::vector<PhasePart> PhasePlan::parts_of(int phase) const {
    const auto [from, to] = phase_range(parts, phase);
    return std::vector<PhasePart>(from, to);
}

int PhasePlan::interval_of(int phase, const std::string& name) const {
    const auto [from, to] = phase_range(parts, phase);
    for (auto p = from; p != to; ++p)
        if (name.empty() || p->name == name) return p->interval;
    return -1;
}

const PhasePart* PhasePlan::part_at(int interval) const {
    if (interval >= 0 && size_t(interval) < parts.size() && parts[size_t(interval)].interval == interval) return &parts[size_t(interval)];
    for (const PhasePart& p : parts)
        if (p.interval == interval) return &p;
    return nullptr;
}

std::string part_name(const BarrierInterval& in) {
    const bool fills_local = in.local.store_bytes > 0;
    const bool reads_local = in.local.load_bytes > 0;
    if (fills_local && reads_local) return "load + use";
    if (fills_local) return "load";
    if (reads_local) return "use";
    if (in.global.store_bytes > 0) return "store";
    return "compute";
}

PhasePlan phase_plan(const std::vector<int>& end_lines, const std::vector<std::string>& part_names) {
    PhasePlan plan;
    // The barriers passed, in order: every interval but the last ends at one.
    std::vector<int> barriers;
    for (size_t i = 0; i + 1 < end_lines.size(); ++i) barriers.push_back(end_lines[i]);
    if (end_lines.empty()) return plan;
    const int n = int(barriers.size());

    // The cycle: the run of barrier lines that, repeated back to back at least twice,
    // covers most of the sequence (the loop's body); ties go to the shorter run, then the
    // earlier start. A sequence with no repeat is one trip: one phase.
    int best_len = n, best_start = 0, best_repeats = n > 0 ? 1 : 0;
    int best_cover = 0;
    // A loop body holds a few barriers and starts after a few more (the prologue), so the
    // search is bounded: it stays linear in the number of barriers a group passes.
    constexpr int kMaxBodyBarriers = 16, kMaxPrologueBarriers = 8;
    for (int len = 1; len <= std::min(n / 2, kMaxBodyBarriers); ++len)
        for (int start = 0; start <= std::min(n - 2 * len, kMaxPrologueBarriers); ++start) {
            int repeats = 1;
            while (start + (repeats + 1) * len <= n &&
                   std::equal(barriers.begin() + start, barriers.begin() + start + len,
                              barriers.begin() + start + repeats * len))
                ++repeats;
            if (repeats >= 2 && repeats * len > best_cover)
                best_len = len, best_start = start, best_repeats = repeats, best_cover = repeats * len;
        }

    plan.phases = n == 0 ? 0 : best_repeats;
    plan.cycle_start = best_start;
    plan.cycle_lines.assign(barriers.begin() + best_start, barriers.begin() + best_start + best_len);
    const int cycle_end = best_start + best_repeats * best_len;
    for (int i = 0; i < int(end_lines.size()); ++i) {
        PhasePart p;
        p.interval = i;
        p.end_line = end_lines[i];
        p.name = i < int(part_names.size()) ? part_names[i] : "compute";
        if (n == 0) p.phase = 0;
        else if (i < best_start) p.phase = 0;                        // before the loop: phase 0
        else if (i < cycle_end) p.phase = (i - best_start) / best_len;
        else p.phase = best_repeats - 1;                             // after the loop: the last phase
        plan.parts.push_back(p);
    }
    for (size_t i = 0; i < plan.parts.size(); ++i)
        plan.parts[i].index = i > 0 && plan.parts[i - 1].phase == plan.parts[i].phase ? plan.parts[i - 1].index + 1 : 0;
    return plan;
}

PhasePlan phase_plan(const GroupTrace& group) {
    std::vector<int> lines;
    std::vector<std::string> names;
    for (const BarrierInterval& in : group.intervals) {
        lines.push_back(in.end_line);
        names.push_back(part_name(in));
    }
    return phase_plan(lines, names);
}

PhasePlan phase_plan(const Trace& trace, const GroupId& group) {
    const GroupTrace* g = trace.find_group(group);
    return g ? phase_plan(*g) : PhasePlan{};
}

std::string part_title(const PhasePlan& plan, int interval, bool count_hidden) {
    const PhasePart* p = plan.part_at(interval);
    if (!p) return "";
    if (plan.phases == 0) return "no phases (no barrier)";
    // Hidden, the phase's number goes too: on the last phase it would be the count less one.
    std::string s = count_hidden ? "phase ? of ? (hidden until Reveal), " + p->name
                                 : "phase " + std::to_string(p->phase) + " of " + std::to_string(plan.phases) + ", " + p->name;
    s += p->end_line > 0 ? " (ends at the barrier on line " + std::to_string(p->end_line) + ")" : " (to the end)";
    return s;
}

std::string title_without_phase_number(const std::string& title) {
    if (title.rfind("Phase ", 0) != 0) return title;
    size_t end = 6;
    while (end < title.size() && title[end] >= '0' && title[end] <= '9') ++end;
    if (end == 6 || end >= title.size() || title[end] != ' ') return title;
    return "This phase: " + title.substr(end + 1);
}

}  // namespace tilescope
