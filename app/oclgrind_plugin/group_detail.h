#pragma once
// Element-level detail of one work-group on display (Config::detail_groups): per barrier
// interval, which elements of which buffer each work-item loaded and stored, each
// work-item's traffic, and each work-item's accesses in order (the access log, with the
// words its local stores wrote). Only the chosen groups pay for it (DESIGN.md: keep element-level
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
               const std::map<const llvm::Value*, int32_t>& local_index, uint64_t max_log_records);

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
        const int32_t lb = local_buffer_of(buffer_number);
        if (lb < 0) return;
        TouchSet& set = local_touches_[lb].of(store);
        for (uint64_t w = offset >> 2; w <= (offset + size - 1) >> 2; ++w) set.add(w, lane);
    }
    // Elements first..last of global buffer `slot`, touched by `lane` (or abi::kWholeGroup).
    void touch_global_elements(int32_t slot, uint64_t first, uint64_t last, uint32_t lane, bool store) {
        TouchSet& set = global_touches_[slot].of(store);
        for (uint64_t e = first; e <= last; ++e) set.add(e, lane);
    }

    // The local buffer (index into Result::local_buffers) of Oclgrind's local buffer
    // `buffer_number`; -1 when it is none of the kernel's.
    int32_t local_buffer_of(uint64_t buffer_number) const {
        return buffer_number < local_slot_.size() ? local_slot_[buffer_number] : -1;
    }
    // Appends an access by `lane` to its log: `buffer` (slot or local buffer), `element`
    // (global element or local word), `data` the stored bytes of a local store (else
    // null). False once the open interval's log holds max_log_records records: the
    // caller stops the detail then (Config::max_detail_touches).
    bool log_access(uint32_t lane, bool local, bool store, uint32_t buffer, uint64_t element, uint64_t size,
                    uint32_t line, const uint8_t* data);

    // Closes interval `d` (its totals filled in by the caller): adds the interval's
    // touches, every work-item that accessed memory and their logs, and appends it to
    // `out`. Returns the records it added (touches and log records).
    uint64_t close_interval(abi::IntervalDetail d);

private:
    std::vector<BufferTouchSets> global_touches_;  // by slot
    std::vector<BufferTouchSets> local_touches_;   // by local buffer
    std::vector<abi::WorkItemTraffic> by_lane_;
    std::vector<uint8_t> lane_seen_;
    std::vector<int32_t> local_slot_;  // local buffer number in this group's Memory -> local buffer
    std::vector<abi::WorkItemAccessLog> log_by_lane_;  // the open interval's access logs
    uint64_t log_records_ = 0, max_log_records_ = 0;
};

}  // namespace tilescope::trace_plugin
