#pragma once
// What the emulation view shows, as plain data: "what is highlighted at phase p of group
// g", which work-item owns a cell of C, how often elements were fetched. Pure functions
// over a Trace; the UI only paints their results (and tests check them headless).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/trace/trace.h"

namespace tilescope {

// Which traced buffers play A ("M" on the slides), B ("N") and C ("P").
struct MatrixRoles {
    std::string a, b, c;  // empty when the trace has no such matrix
};
// From a --check spec when given; else the first two matrices loaded and the first stored.
MatrixRoles matrix_roles(const Trace& trace, const std::optional<CheckSpec>& check = std::nullopt);

// A __local array drawn as a rows x cols grid of words, as the kernel declares it
// (LocalBuffer), and what the group has stored into it so far.
struct LocalArrayView {
    std::string name;
    int rows = 0, cols = 0;
    std::vector<int32_t> writer;  // per word: linear local id of the last store so far, -1: none
    std::vector<uint8_t> read;    // per word: read in this interval (so far)
    std::vector<uint8_t> fresh;   // per word: stored in this interval (so far), not left from earlier ones
    uint64_t stored = 0;          // words stored so far in this interval
};

// The group's view at one part of a phase (one barrier interval), `progress` of the way
// through it: work-items with linear id < progress * group size have run their part
// (Oclgrind runs them one at a time between barriers, so this is how the arrays fill).
struct GroupPhaseView {
    GroupId group{};
    int interval = 0, intervals = 0;  // the raw level: which barrier interval, of how many
    int phase = 0, phases = 0;      // the slides' phase (trip round the tile loop) it belongs to
    std::string part;               // what the part does: "load", "use", "store", ...
    std::string title;              // "phase 1 of 2, use (ends at the barrier on line 37)"
    bool has_detail = false;        // the trace kept element-level detail for this group
    int end_line = 0;               // barrier that closes the interval; 0: the group ends
    std::vector<Rect> a_strip, b_strip, c_block;  // all the group touches, over the whole run (bounding boxes)
    std::vector<Rect> a_loaded, b_loaded;          // loaded from global in this phase
    std::vector<Rect> c_stored;                    // stored to C in this phase
    std::vector<LocalArrayView> locals;
    AccessTotals global, local;     // the interval's traffic
};
GroupPhaseView group_phase_view(const Trace& trace, const MatrixRoles& roles, const GroupId& group, int interval,
                                double progress = 1.0);
// Every interval's view of a group in order (progress 1), as group_phase_view gives each,
// in one walk: linear in the group's detail, where calling group_phase_view for each
// interval replays the local arrays from the start every time (issue 32).
void for_each_phase_view(const Trace& trace, const MatrixRoles& roles, const GroupId& group,
                         const std::function<void(const GroupPhaseView&)>& visit);

// Number of barrier intervals (parts) of a group (0 when it has no detail). Phases, as
// the slides count them, come from core/trace/phases.h.
int interval_count(const Trace& trace, const GroupId& group);

// Who computes C(row, col): the work-group and work-item, from the detail when the trace
// has it, else from the NDRange (2D: dimension 0 runs along columns; 1D: along rows).
struct CellOwner {
    GroupId group{};
    WorkItemId local{}, global{};
    uint32_t linear = 0;
    bool from_trace = false;
};
std::optional<CellOwner> cell_owner(const Trace& trace, const MatrixRoles& roles, int64_t row, int64_t col);

// What hovering C(row, col) tells: the work-item's reads from global and local memory
// (over all phases, from the detail), and what it needs (2K operands).
struct CellInfo {
    CellOwner owner;
    bool has_detail = false;
    uint64_t global_loads = 0, local_loads = 0;  // by this work-item, whole run
    uint64_t operands = 0;                       // 2*K: what computing C(row, col) reads
    double a_row_mean_loads = 0, b_col_mean_loads = 0;  // heatmap means along its row of A / column of B
};
std::optional<CellInfo> cell_info(const Trace& trace, const MatrixRoles& roles, int64_t row, int64_t col);

// The heatmap sentence beside A and B: how often each element was fetched from global
// memory, the closed form when the rung has one ("N/TS = 4"), and the traced range.
struct ReuseLine {
    std::string buffer;
    uint32_t min_loads = 0, max_loads = 0;
    double mean_loads = 0;
    std::string formula;        // e.g. "each element of A is loaded ceil(N/TS) = 4 times"; empty: none known
    bool formula_matches = false;
};
ReuseLine reuse_line(const Trace& trace, std::string_view buffer, std::string_view role);

// The heatmap's scale is absolute: a count of global loads per element has the same place
// in every run and configuration (logarithmic over 1..kHeatMaxLoads), so naive (each
// element loaded N times) and tiled (N/TS times) look as different as they are.
inline constexpr uint32_t kHeatMaxLoads = 4096;
float heat_position(uint32_t loads);  // 1 -> 0, kHeatMaxLoads and more -> 1; 0 (never loaded) -> -1
std::vector<uint32_t> heat_ticks();   // the legend's ticks: 1, 4, 16, ..., kHeatMaxLoads

}  // namespace tilescope
