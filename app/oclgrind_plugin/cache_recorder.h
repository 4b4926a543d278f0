#pragma once
// The cache model's input (Config::caches): every global request of the work-group a
// worker thread runs, tagged with what the model needs beyond its sectors, and sorted in
// the order a lockstep GPU issues them when the group completes.
// Depends on subgroup_requests.h and trace_abi.h.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "subgroup_requests.h"
#include "trace_abi.h"

namespace tilescope::trace_plugin {

// What the cache model needs of one open global request beyond its sectors.
struct CacheTag {
    uint32_t access_index = UINT32_MAX;
    uint16_t buffer = 0;
    bool load = false, store = false;
};

// The cache model's requests of the work-group a worker runs.
struct CacheRecorder {
    bool on = false;
    std::vector<uint32_t> lane_accesses;  // global accesses each lane made in the open interval
    abi::CacheGroupRequests out;
    std::vector<uint64_t> scratch;

    void begin(uint64_t linear, uint32_t lanes);
    // A global access by `lane` to buffer `slot` joined the request tagged `t`.
    void note(CacheTag& t, uint32_t lane, int32_t slot, bool store) {
        t.access_index = std::min(t.access_index, lane_accesses[lane]++);
        t.buffer = static_cast<uint16_t>(slot);
        (store ? t.store : t.load) = true;
    }
    // Moves one closed request (its sectors sorted) into `out`; resets its tag.
    void emit(CacheTag& t, const Request& r, uint32_t line, uint32_t interval, uint32_t subgroup);
    void end_interval() { std::fill(lane_accesses.begin(), lane_accesses.end(), 0); }
    // Lockstep issue order within the work-group.
    void sort();
};

}  // namespace tilescope::trace_plugin
