// Recording the cache model's requests. Depends on cache_recorder.h only.
#include "cache_recorder.h"

namespace tilescope::trace_plugin {

void CacheRecorder::begin(uint64_t linear, uint32_t lanes) {
    out = abi::CacheGroupRequests{};
    out.group = linear;
    lane_accesses.assign(lanes, 0);
}

void CacheRecorder::emit(CacheTag& t, const Request& r, uint32_t line, uint32_t interval, uint32_t subgroup) {
    abi::CacheRequest q;
    q.interval = interval;
    q.access_index = t.access_index;
    q.subgroup = subgroup;
    q.line = line;
    q.buffer = t.buffer;
    q.load = t.load;
    q.store = t.store;
    scratch.clear();
    r.for_each([&](uint64_t sector) { scratch.push_back(sector); });
    std::sort(scratch.begin(), scratch.end());
    q.sector_begin = static_cast<uint32_t>(out.sectors.size());
    q.sector_count = static_cast<uint32_t>(scratch.size());
    out.sectors.insert(out.sectors.end(), scratch.begin(), scratch.end());
    out.requests.push_back(q);
    t = CacheTag{};
}

void CacheRecorder::sort() {
    const auto& sec = out.sectors;
    std::sort(out.requests.begin(), out.requests.end(), [&](const abi::CacheRequest& a, const abi::CacheRequest& b) {
        if (a.interval != b.interval) return a.interval < b.interval;
        if (a.access_index != b.access_index) return a.access_index < b.access_index;
        if (a.subgroup != b.subgroup) return a.subgroup < b.subgroup;
        if (a.line != b.line) return a.line < b.line;
        if (a.store != b.store) return b.store;
        return sec[a.sector_begin] < sec[b.sector_begin];
    });
}

}  // namespace tilescope::trace_plugin
