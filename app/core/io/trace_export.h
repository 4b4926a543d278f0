#pragma once
// trace's output formats: the JSON object of docs/architecture.md ("Output contracts"),
// and the readable terminal summary (totals, expected-vs-traced, one work-group's
// phases, diagnostics).
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/trace/trace.h"

namespace tilescope {

// The contract's object, plus a few extra fields (entry, group_grid, checks, complete,
// geometry, expected, lines, per-interval end_line/stored ...). `groups` is the number
// of work-groups; `group_grid` their count per dimension.
nlohmann::json trace_to_json(const Trace& trace);
std::string trace_to_json_text(const Trace& trace);  // indented, newline-terminated

struct SummaryOptions {
    std::optional<GroupId> group;  // the work-group whose phases are tabled; default: the first with detail
    int max_phases = 12;           // rows of the phase table before "... N more"
    int max_diagnostics = 10;
    bool phases = true;            // false: leave the phase table out (printed already, as it came)
};
std::string trace_summary(const Trace& trace, const SummaryOptions& options = {});
// The summary's phase table of options.group (default: the first group with detail), or a
// line saying the group has no detail; empty when no group has any.
std::string group_phase_table(const Trace& trace, const SummaryOptions& options = {});

// "rows 0-7, cols 8-15" for one rectangle; "rows 0-7, cols 0-7 + 2 more" for several.
std::string rects_text(const std::vector<Rect>& rects, size_t max_listed = 2);

}  // namespace tilescope
