// The glue between the emulation view widget and the App's state: what it is given, and
// what a click on it does.
#include "ui/panels/emulation_panel.h"

#include <algorithm>

namespace tilescope::ui {

EmulationViewData view_data(const AppState& s, const TraceSlot& slot) {
    EmulationViewData d;
    d.trace = slot.trace.get();
    d.roles = &slot.roles;
    d.version = slot.version;
    d.group = s.cursor.group;
    d.interval = s.cursor.interval;
    d.progress = s.cursor.progress;
    d.tracing = slot.busy();
    d.pinned_hover = s.hover_cell;
    d.naming = s.naming;
    d.hidden = hidden_figures(s);
    if (d.trace) {
        const FrameKey key{slot.version, s.cursor.group, s.cursor.interval, s.cursor.iteration, s.cursor.item, s.naming};
        if (const auto frame = slot.frames.frame(*d.trace, slot.roles, key); frame && frame->has_log) {
            d.frame = frame.get();  // kept alive by the slot's cache until the key changes
            d.request = frame_request(*d.trace, key);
        }
    }
    if (!d.trace) d.empty_text = slot.busy() ? "Tracing on the emulator..." : slot.error.empty() ? "No trace yet: choose a kernel and press Trace." : "";
    return d;
}

void select_group(AppState& s, TraceSlot& slot, const GroupId& group) {
    if (s.cursor.group != group) s.cursor.item.reset();
    s.cursor.group = group;
    if (!slot.trace) return;
    const Trace& t = *slot.trace;
    s.cursor.interval = std::min(s.cursor.interval, std::max(0, interval_count(t, group) - 1));
    if (t.find_group(group) || !slot.config || slot.busy()) return;
    std::vector<GroupId> groups;
    for (const GroupTrace& g : t.detail) groups.push_back(g.group);
    if (groups.size() > 16) groups.resize(16);
    groups.push_back(group);
    slot.start(*s.worker, *slot.config, groups);
}

}  // namespace tilescope::ui
