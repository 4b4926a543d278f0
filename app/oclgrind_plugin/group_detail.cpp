// Element-level detail of a work-group on display. Depends on group_detail.h only.
#include "group_detail.h"

namespace tilescope::trace_plugin {

void GroupDetailRecorder::begin(const oclgrind::WorkGroup* work_group, const abi::Id3& id, const abi::Id3& size,
                                uint32_t lanes, size_t slots, const std::vector<abi::LocalBufferInfo>& local_buffers,
                                const std::map<const llvm::Value*, int32_t>& local_index,
                                uint64_t max_log_records) {
    out = abi::GroupDetail{};
    out.group = id;
    out.size = size;
    global_touches_.resize(slots);
    for (BufferTouchSets& t : global_touches_) t.reset(0, lanes, false);
    local_touches_.resize(local_buffers.size());
    for (size_t i = 0; i < local_buffers.size(); ++i) {
        const uint64_t words = (local_buffers[i].bytes + 3) / 4;
        local_touches_[i].reset(words, lanes, true);
    }
    by_lane_.assign(lanes, abi::WorkItemTraffic{});
    lane_seen_.assign(lanes, 0);
    log_by_lane_.assign(lanes, abi::WorkItemAccessLog{});
    log_records_ = 0;
    max_log_records_ = max_log_records;
    // Local buffer numbers of this group's memory, for naming local touches.
    local_slot_.clear();
    for (const auto& [value, index] : local_index) {
        const size_t number = local_buffer_number(work_group, value);
        if (local_slot_.size() <= number) local_slot_.resize(number + 1, -1);
        local_slot_[number] = index;
    }
}

bool GroupDetailRecorder::log_access(uint32_t lane, bool local, bool store, uint32_t buffer, uint64_t element,
                                     uint64_t size, uint32_t line, const uint8_t* data) {
    if (log_records_ >= max_log_records_) return false;
    ++log_records_;
    abi::WorkItemAccessLog& log = log_by_lane_[lane];
    abi::AccessRecord r;
    r.element = static_cast<uint32_t>(element);
    r.line = line;
    r.buffer = static_cast<uint16_t>(buffer);
    r.size = static_cast<uint8_t>(size < 255 ? size : 255);
    r.flags = (local ? abi::AccessRecord::kLocal : 0) | (store ? abi::AccessRecord::kStore : 0);
    if (local && store && data) {
        // The stored bytes, 4 to a word: the host matches them against the inputs' values.
        r.flags |= abi::AccessRecord::kValue;
        r.value_begin = static_cast<uint32_t>(log.stored_words.size());
        for (uint64_t at = 0; at < size; at += 4) {
            uint32_t word = 0;
            for (uint64_t b = 0; b < 4 && at + b < size; ++b) word |= uint32_t(data[at + b]) << (8 * b);
            log.stored_words.push_back(word);
        }
    }
    log.work_item = lane;
    log.accesses.push_back(r);
    return true;
}

uint64_t GroupDetailRecorder::close_interval(abi::IntervalDetail d) {
    uint64_t records = 0;
    auto collect = [&](std::vector<BufferTouchSets>& sets, std::vector<abi::BufferTouches>& into) {
        for (size_t b = 0; b < sets.size(); ++b) {
            if (sets[b].loads.empty() && sets[b].stores.empty()) continue;
            abi::BufferTouches t;
            t.buffer = static_cast<uint32_t>(b);
            t.loads = sets[b].loads.take();
            t.stores = sets[b].stores.take();
            records += t.loads.size() + t.stores.size();
            into.push_back(std::move(t));
        }
    };
    collect(global_touches_, d.global_touches);
    collect(local_touches_, d.local_touches);
    for (uint32_t lane = 0; lane < lane_seen_.size(); ++lane)
        if (lane_seen_[lane]) {
            d.work_items.push_back(by_lane_[lane]);
            by_lane_[lane] = abi::WorkItemTraffic{};
            lane_seen_[lane] = 0;
        }
    for (abi::WorkItemAccessLog& log : log_by_lane_)
        if (!log.accesses.empty()) {
            records += log.accesses.size();
            d.access_log.push_back(std::move(log));
            log = abi::WorkItemAccessLog{};
        }
    log_records_ = 0;
    // An interval costs beyond its records: its own detail here, its BarrierInterval on the
    // host and its phase part, about 700 bytes measured (issue 32: a loop of barriers with
    // no access gave every detail group 200,000 empty intervals, 3.6 GB, no record counted).
    // Counted in records of 16 bytes, as Config::max_detail_touches budgets them.
    records += (sizeof(abi::IntervalDetail) + 640 + d.work_items.size() * sizeof(abi::WorkItemTraffic) * 2) / 16;
    out.intervals.push_back(std::move(d));
    return records;
}

}  // namespace tilescope::trace_plugin
