#pragma once
// Phases as the slides count them: one trip round the kernel's tile loop ("for (p = 0;
// p < Width/TILE_WIDTH; ++p) // Phases"). Found from the trace, not from the kernel's
// name, so custom kernels get them too: the barrier lines a work-group passes repeat in
// a cycle, and one cycle is one phase. Each barrier interval is one *part* of a phase,
// named by what happens in it:
//   load        global -> local (the tiles are filled)
//   use         local -> each work-item's sum
//   load + use  both in one part (double buffering: use this tile, load the next)
//   store       the results written to global memory (after the loop)
//   compute     global memory only (no local traffic)
// What runs before the loop's first barrier belongs to phase 0 (tiled: it loads tile 0,
// so it is phase 0's load); what runs after the loop's last barrier belongs to the last
// phase (tiled: the store of P). A group that passes no barrier has no phases.
// Barrier intervals stay the raw level underneath: a part is one interval.
#include <string>
#include <vector>

#include "core/trace/trace.h"

namespace tilescope {

struct PhasePart {
    int interval = 0;     // index of the barrier interval this part is
    int phase = 0;        // 0-based phase it belongs to
    int index = 0;        // its place among the parts of its phase, 0-based
    std::string name;     // "load", "use", "load + use", "store", "compute"
    int end_line = 0;     // the barrier that closes it; 0: the work-group ends there
    bool operator==(const PhasePart&) const = default;
};

struct PhasePlan {
    int phases = 0;                // trips round the loop; 0: no barriers, no phases
    int cycle_start = 0;           // first barrier (index among the group's barriers) of the cycle
    std::vector<int> cycle_lines;  // barrier lines of one phase, in order (tiled: 33, 37)
    std::vector<PhasePart> parts;  // one per barrier interval, in order
    bool operator==(const PhasePlan&) const = default;

    // The parts of phase p, in order (empty when p is out of range).
    std::vector<PhasePart> parts_of(int phase) const;
    // The first part of phase p named `name` ("" = the phase's first part); -1 if none.
    int interval_of(int phase, const std::string& name = "") const;
    const PhasePart* part_at(int interval) const;
};

// From the barrier lines of a group's intervals (the last interval ends with the group,
// line 0) and what each interval did. Pure; tested on hand-made sequences.
PhasePlan phase_plan(const std::vector<int>& end_lines, const std::vector<std::string>& part_names);
PhasePlan phase_plan(const GroupTrace& group);
// The plan of a group of `trace` (an empty plan when the trace kept no detail for it).
PhasePlan phase_plan(const Trace& trace, const GroupId& group);

// What an interval did, as a part's name (see above).
std::string part_name(const BarrierInterval& interval);

// "phase 1 of 2, use (ends at the barrier on line 37)": the words every view uses.
// "phase 1 of 2, load (ends at the barrier on line 33)"; with `count_hidden` (a lesson asks
// how many phases) the count and the phase's number are left out: "phase ? of ? (hidden until
// Reveal), load ..." (on the last phase the number is the count less one).
std::string part_title(const PhasePlan& plan, int interval, bool count_hidden = false);
// A slide's title ("Phase 5 Load for Block (0,0)") without its phase number ("This phase: Load
// for Block (0,0)"), while a question on the phase count waits: on the last phase the number
// is the count less one. Other titles are returned as they are.
std::string title_without_phase_number(const std::string& title);

}  // namespace tilescope
