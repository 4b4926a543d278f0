#include "core/io/trace_cost.h"

#include <algorithm>

#include "core/base/input_budget.h"
#include "core/io/trace_file.h"
#include "core/trace/frame_replay.h"

namespace tilescope {

uint64_t rebuilt_input_bytes(const Trace& t) {
    uint64_t bytes = 0;
    for (const TracedBuffer& b : t.buffers)  // as frame_replay's input_words picks them
        if (b.is_matrix && b.traffic.store_bytes == 0 && b.rows > 0 && b.cols > 0)
            bytes = saturating_add(bytes, saturating_mul(saturating_mul(uint64_t(b.rows), uint64_t(b.cols)), 4));
    return bytes;
}

namespace {
uint64_t local_words(const Trace& t) {
    uint64_t w = 0;
    for (const LocalBuffer& l : t.local_buffers)
        w = saturating_add(w, std::max<uint64_t>(saturating_mul(l.rows, l.cols), (l.bytes + 3) / 4));
    return w;
}
uint64_t lanes_of(const GroupTrace& g) { return uint64_t(g.size[0]) * g.size[1] * g.size[2]; }

// What one access becomes in the replay: entries of 8 (global) or 20 (local) bytes.
uint64_t access_entries(const Trace& t, const MemoryAccess& a) {
    if (!a.local()) {
        if (a.buffer >= t.buffers.size()) return 1;
        const uint64_t es = std::max<uint32_t>(1, t.buffers[a.buffer].element_size);
        return std::max<uint64_t>(1, (uint64_t(a.size) + es - 1) / es);
    }
    return std::max<uint64_t>(1, (uint64_t(a.size) + 3) / 4);
}
}  // namespace

uint64_t replay_bytes(const Trace& t, const GroupTrace& g) {
    const uint64_t n = g.intervals.size();
    // Per interval: one ItemPart per work-item and a copy of every local word (`after`).
    uint64_t bytes = saturating_mul(n, saturating_add(saturating_mul(lanes_of(g), sizeof(frame_replay::ItemPart) + 32),
                                                      saturating_mul(local_words(t), sizeof(frame_replay::Held))));
    for (const BarrierInterval& in : g.intervals)
        for (const WorkItemAccesses& w : in.access_log)
            for (const MemoryAccess& a : w.accesses)
                bytes = saturating_add(bytes, saturating_mul(access_entries(t, a), sizeof(frame_replay::LocalAccess)));
    return bytes;
}

uint64_t replay_steps(const Trace& t, const GroupTrace& g) {
    uint64_t steps = saturating_mul(g.intervals.size(), saturating_add(lanes_of(g), local_words(t)));
    for (const BarrierInterval& in : g.intervals)
        for (const WorkItemAccesses& w : in.access_log)
            for (const MemoryAccess& a : w.accesses) steps = saturating_add(steps, saturating_mul(access_entries(t, a), 4));
    return steps;
}

void charge_trace_views(const TraceFile& file, InputCost& cost) {
    const Trace& t = file.trace;
    if (!t.detail.empty()) {
        // The frames know what each local cell holds from the values the inputs were
        // filled with: every input matrix is drawn again, once per open trace.
        const uint64_t inputs = rebuilt_input_bytes(t);
        cost.bytes("trace.buffers: the input matrices the frames rebuild", inputs);
        cost.steps("trace.buffers: the input matrices the frames rebuild", inputs / 4);
    }
    // One group's replay is held at a time (a view's cursor, the hand-out's group); every
    // group with detail is replayed once by the hand-out.
    uint64_t peak = 0;
    for (const GroupTrace& g : t.detail) {
        peak = std::max(peak, replay_bytes(t, g));
        cost.steps("trace.detail: replaying a group's access log", replay_steps(t, g));
        // The hand-out's parts: every interval with its local arrays drawn as text.
        cost.steps("trace.detail: the hand-out's parts", saturating_mul(g.intervals.size(), saturating_add(local_words(t), 64)));
    }
    cost.peak_bytes("trace.detail: one group's replay", peak);
    // The hand-out's heatmaps: a number per cell of A and B (and C's owners, bounded there).
    uint64_t cells = 0;
    for (const TracedBuffer& b : t.buffers)
        if (b.is_matrix && !b.load_counts.empty()) cells = saturating_add(cells, saturating_mul(uint64_t(b.rows), uint64_t(b.cols)));
    cost.steps("trace.buffers: the hand-out's heatmaps", cells, 4);
}

}  // namespace tilescope
