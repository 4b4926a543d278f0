#pragma once
// Element-level detail of one work-group on display (Config::detail_groups): per barrier
// interval, which elements of which buffer each work-item loaded and stored, and each
// work-item's traffic. Only the chosen groups pay for it (DESIGN.md: keep element-level
// detail only for the work-groups on display).
// Depends on touch_set.h, access_tallies.h, oclgrind_lookups.h and trace_abi.h.
#include <cstdint>
#include <map>
#include <vector>

#include "access_tallies.h"
#include "oclgrind_lookups.h"
#include "touch_set.h"
#include "trace_abi.h"

namespace tilescope::trace_plugin {

class GroupDetailRecorder {
public:
    abi::GroupDetail out;  // the intervals closed so far

    // Starts `work_group` (`lanes` work-items), whose global accesses fall in `slots`
    // buffers and local ones in `local_buffers` (LLVM value -> index in it: `local_index`).
    void begin(const oclgrind::WorkGroup* work_group, const abi::Id3& id, const abi::Id3& size, uint32_t lanes,
               size_t slots, const std::vector<abi::LocalBufferInfo>& local_buffers,
               const std::map<const llvm::Value*, int32_t>& local_index);

    // An access of `size` bytes by `lane`, in its work-item's traffic.
    void add_traffic(uint32_t lane, bool local, uint64_t size, bool store) {
        abi::WorkItemTraffic& t = by_lane_[lane];
        add(local ? t.local : t.global, size, store);
        t.work_item = lane;
        lane_seen_[lane] = 1;
    }
    // A local access at `offset` in Oclgrind's local buffer `buffer_number`: the 4-byte
    // words it covers, when the buffer is one of the kernel's.
    void touch_local_words(uint64_t buffer_number, uint64_t offset, uint64_t size, uint32_t lane, bool store) {
        const int32_t lb = buffer_number < local_slot_.size() ? local_slot_[buffer_number] : -1;
        if (lb < 0) return;
        TouchSet& set = local_touches_[lb].of(store);
        for (uint64_t w = offset >> 2; w <= (offset + size - 1) >> 2; ++w) set.add(w, lane);
    }
    // Elements first..last of global buffer `slot`, touched by `lane` (or abi::kWholeGroup).
    void touch_global_elements(int32_t slot, uint64_t first, uint64_t last, uint32_t lane, bool store) {
        TouchSet& set = global_touches_[slot].of(store);
        for (uint64_t e = first; e <= last; ++e) set.add(e, lane);
    }

    // Closes interval `d` (its totals filled in by the caller): adds the interval's
    // touches and every work-item that accessed memory, and appends it to `out`.
    // Returns the touch records it added.
    uint64_t close_interval(abi::IntervalDetail d);

private:
    std::vector<BufferTouchSets> global_touches_;  // by slot
    std::vector<BufferTouchSets> local_touches_;   // by local buffer
    std::vector<abi::WorkItemTraffic> by_lane_;
    std::vector<uint8_t> lane_seen_;
    std::vector<int32_t> local_slot_;  // local buffer number in this group's Memory -> local buffer
};

}  // namespace tilescope::trace_plugin
