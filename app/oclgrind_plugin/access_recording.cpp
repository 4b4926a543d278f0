// Per-thread accumulation of memory accesses. Depends on access_recording.h (run.h),
// access_tallies.h and subgroup_requests.h; only trace_plugin.cpp calls it.
#include "access_recording.h"

#include <oclgrind/Memory.h>
#include <oclgrind/WorkItem.h>

#include <algorithm>

#include "access_tallies.h"
#include "subgroup_requests.h"

namespace tilescope::trace_plugin {
using oclgrind::AddrSpaceGlobal;
using oclgrind::AddrSpaceLocal;
using oclgrind::AddrSpacePrivate;

namespace {

// The elements of a buffer an access covers, clipped to the buffer: none when `empty`;
// `outside` when any of its bytes lies outside the buffer.
struct ElementSpan {
    uint64_t first = 0, last = 0;
    bool empty = true, outside = false;
};

ElementSpan elements_covered(const Slot& slot, uint64_t offset, uint64_t size) {
    ElementSpan span;
    if (offset < slot.base || slot.elements == 0) {
        span.outside = true;
        return span;
    }
    span.first = (offset - slot.base) / slot.element_size;
    span.last = (offset - slot.base + size - 1) / slot.element_size;
    if (span.last >= slot.elements) {
        span.outside = true;
        span.last = slot.elements - 1;
    }
    span.empty = span.first >= slot.elements;
    return span;
}

// Adds one to the heatmap of buffer `slot` for each element of `span`.
void count_elements(ThreadState& ts, int32_t slot, const Slot& sl, const ElementSpan& span, bool store) {
    auto& counts = store ? ts.store_counts[slot] : ts.load_counts[slot];
    if (counts.empty()) counts.assign(sl.elements, 0);
    for (uint64_t e = span.first; e <= span.last; ++e) ++counts[e];
}

// The linear local id of `work_item`. A work-item makes all its accesses of an interval
// in a row, so the last one is remembered.
uint32_t lane_of(GroupState& g, const oclgrind::WorkItem* work_item) {
    if (work_item != g.last_item) {
        const oclgrind::Size3 lid = work_item->getLocalID();
        g.last_item = work_item;
        g.last_lane = static_cast<uint32_t>(lid.x + g.size[0] * (lid.y + g.size[1] * lid.z));
    }
    return g.last_lane;
}

// The stats of the instruction `work_item` executes; its width (and so its bank
// geometry) is set by its first access.
uint32_t instruction_of(Run& run, ThreadState& ts, const oclgrind::WorkItem* work_item, bool local, size_t size) {
    const uint32_t ii = ts.instruction_index(work_item->getCurrentInstruction(), local, run.max_lanes);
    InstructionStats& s = ts.instructions[ii];
    if (s.width == 0) {
        s.width = static_cast<uint32_t>(size);
        s.bank = BankGeometry::for_width(s.width, run.config);
        if (s.bank.histogram_slots() > ts.bank_histogram.size()) ts.bank_histogram.resize(s.bank.histogram_slots(), 0);
    }
    return ii;
}

// The k-th execution of instruction `ii` by `lane` joins request (k, sub-group);
// returns its index in the instruction's requests, noting it when first used.
size_t request_of(Run& run, GroupState& g, InstructionStats& s, uint32_t ii, uint32_t lane) {
    const uint32_t k = g.executions[static_cast<size_t>(ii) * run.max_lanes + lane]++;
    const size_t ri = static_cast<size_t>(k) * run.subgroups + lane / run.config.warp;
    if (ri >= s.requests.size()) s.requests.resize(std::max(ri + 1, s.requests.size() * 2));
    if (s.requests[ri].n == 0) g.touched.emplace_back(ii, static_cast<uint32_t>(ri));
    return ri;
}

// Appends an access to a detail group's log; at the bound on detail records, stops all
// detail (as Config::max_detail_touches promises) and says so in the result.
void log_or_stop(Run& run, GroupDetailRecorder& d, uint32_t lane, bool local, bool store, uint32_t buffer,
                 uint64_t element, uint64_t size, uint32_t line, const uint8_t* data) {
    if (!d.log_access(lane, local, store, buffer, element, size, line, data)) run.detail_truncated = true;
}

}  // namespace

void record_work_item_access(Run& run, const oclgrind::Memory* memory, const oclgrind::WorkItem* work_item,
                             size_t address, size_t size, bool store, const uint8_t* data) {
    const unsigned space = memory == run.global_memory ? unsigned(AddrSpaceGlobal) : memory->getAddressSpace();
    ThreadState& ts = run.thread_state();
    if (space == AddrSpacePrivate) {
        add(ts.private_mem, size, store);
        return;
    }
    GroupState& g = ts.group;
    if (!g.work_group || size == 0) return;
    const bool local = space == AddrSpaceLocal;
    const uint32_t lane = lane_of(g, work_item);
    const uint32_t ii = instruction_of(run, ts, work_item, local, size);
    InstructionStats& s = ts.instructions[ii];
    add(s.counts, size, store);
    const size_t ri = request_of(run, g, s, ii, lane);
    Request& r = s.requests[ri];
    const uint64_t offset = address & run.offset_mask;
    const uint64_t buffer = address >> run.offset_bits;

    if (local) {
        add(g.open.local, size, store);  // folded into the group's and thread's totals at the interval's end
        add_bank_keys(r, s.bank, address, size, lane, run.config.warp);
        if (run.keeps_detail(g)) {
            GroupDetailRecorder& d = g.detail_recorder;
            d.add_traffic(lane, true, size, store);
            d.touch_local_words(buffer, offset, size, lane, store);
            if (const int32_t lb = d.local_buffer_of(buffer); lb >= 0)
                log_or_stop(run, d, lane, true, store, uint32_t(lb), offset >> 2, size, s.line, data);
        }
        return;
    }

    add(g.open.global, size, store);
    add_sectors(r, address, size, run.sector_shift);
    const int32_t slot = run.slot_of(buffer);
    add(ts.slot_counts[slot], size, store);
    if (g.cache.on) g.cache.note(s.cache_tag(ri), lane, slot, store);
    const bool detail = run.keeps_detail(g);
    if (detail) g.detail_recorder.add_traffic(lane, false, size, store);
    const Slot& sl = run.slots[slot];
    const ElementSpan span = elements_covered(sl, offset, size);
    if (span.outside) ++ts.slot_out_of_range[slot];
    if (span.empty) return;
    count_elements(ts, slot, sl, span, store);
    if (!detail) return;
    g.detail_recorder.touch_global_elements(slot, span.first, span.last, lane, store);
    log_or_stop(run, g.detail_recorder, lane, false, store, uint32_t(slot), span.first, size, s.line, nullptr);
}

void record_work_group_access(Run& run, const oclgrind::Memory* memory, size_t address, size_t size, bool store) {
    const unsigned space = memory->getAddressSpace();
    ThreadState& ts = run.thread_state();
    GroupState& g = ts.group;
    if (space == AddrSpacePrivate || !g.work_group || size == 0) return;
    const uint64_t offset = address & run.offset_mask;
    if (space == AddrSpaceLocal) {
        add(g.open.local, size, store);
        return;
    }
    add(g.open.global, size, store);
    const int32_t slot = run.slot_of(address >> run.offset_bits);
    add(ts.slot_counts[slot], size, store);
    const Slot& sl = run.slots[slot];
    const ElementSpan span = elements_covered(sl, offset, size);
    if (span.empty) return;
    count_elements(ts, slot, sl, span, store);
    if (run.keeps_detail(g)) g.detail_recorder.touch_global_elements(slot, span.first, span.last, abi::kWholeGroup, store);
}

}  // namespace tilescope::trace_plugin
