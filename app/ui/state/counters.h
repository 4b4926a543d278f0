#pragma once
// The counters panel's rows as plain data (no ImGui): what each shows, its closed form,
// and what hovering it explains, so other panels can reuse them and tests can read them.
#include <string>
#include <vector>

#include "core/trace/trace.h"

namespace tilescope::ui {

// "1.50 MB", "12.0 KB", "512 B": bytes as the panels show them.
std::string bytes_text(double bytes);

enum class NumberKind { Traced, Modelled, Measured };  // DESIGN.md: the three kinds of number

struct CounterRow {
    std::string what, traced, reference;  // traced: the value; reference: its closed form (or "-")
    int verdict = 0;                      // +1 matches the closed form, -1 differs, 0 nothing to compare
    NumberKind kind = NumberKind::Traced;
    std::string tooltip;                  // what it counts, which kind of number, the closed form
};

// The whole NDRange: traffic, barriers, reuse, coalescing, bank conflicts.
std::vector<CounterRow> ndrange_counter_rows(const Trace& trace);
// One work-group with detail, over the run and in `phase`.
std::vector<CounterRow> group_counter_rows(const Trace& trace, const GroupTrace& group, int phase);

}  // namespace tilescope::ui
