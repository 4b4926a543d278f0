#include "core/trace/frame_replay.h"

#include <algorithm>
#include <cstring>
#include <list>
#include <memory>
#include <mutex>
#include <tuple>

#include "core/device/matrix.h"

namespace tilescope::frame_replay {
namespace {

// The values the run's inputs held: every matrix nothing stored into was filled by
// random_matrix under its parameter's name (core/device/runner.cpp, make_matrices).
// Drawing them is the dear part of a replay (issue 32: twelve 8192^2 inputs took 3.4 GB
// and 30 s, drawn again for every frame), so each is drawn once and kept while it is
// among the last few asked for; a saved trace's budget (core/io/trace_cost.h) bounds
// what one trace may ask for.
using InputKey = std::tuple<std::string, int64_t, int64_t, int>;
struct InputCache {
    std::mutex mutex;
    std::list<std::pair<InputKey, std::shared_ptr<const HostMatrix>>> recent;  // newest first
    uint64_t draws = 0;
};
InputCache& input_cache() {
    static InputCache cache;
    return cache;
}
constexpr uint64_t kInputCacheBytes = uint64_t(1) << 30;

std::shared_ptr<const HostMatrix> input_matrix(const TracedBuffer& b) {
    InputCache& cache = input_cache();
    const InputKey key{b.name, b.rows, b.cols, int(b.layout)};
    std::lock_guard<std::mutex> lock(cache.mutex);
    for (auto it = cache.recent.begin(); it != cache.recent.end(); ++it)
        if (it->first == key) {
            cache.recent.splice(cache.recent.begin(), cache.recent, it);
            return it->second;
        }
    auto m = std::make_shared<const HostMatrix>(random_matrix(b.name, b.rows, b.cols, b.layout));
    ++cache.draws;
    cache.recent.emplace_front(key, m);
    uint64_t kept = 0;
    for (auto it = cache.recent.begin(); it != cache.recent.end();) {
        kept += it->second->data.size() * sizeof(float);
        if (it != cache.recent.begin() && (kept > kInputCacheBytes || cache.recent.size() > 16)) it = cache.recent.erase(it);
        else ++it;
    }
    return m;
}

std::vector<std::shared_ptr<const HostMatrix>> input_words(const Trace& trace) {
    std::vector<std::shared_ptr<const HostMatrix>> out(trace.buffers.size());
    for (size_t i = 0; i < trace.buffers.size(); ++i) {
        const TracedBuffer& b = trace.buffers[i];
        if (!b.is_matrix || b.traffic.store_bytes > 0 || b.rows <= 0 || b.cols <= 0) continue;
        out[i] = input_matrix(b);
    }
    return out;
}

// A loaded word a later local store may copy.
struct LoadedWord {
    uint32_t bits = 0;
    Held held;
};

class Replayer {
public:
    Replayer(const Trace& trace, const MatrixRoles& roles, const GroupTrace& group)
        : trace_(trace), inputs_(input_words(trace)) {
        out_.group = &group;
        const uint32_t lanes = group.size[0] * group.size[1] * group.size[2];
        out_.c_element.assign(lanes, -1);
        out_.c_stores.assign(lanes, 0);
        for (size_t i = 0; i < trace.buffers.size(); ++i)
            if (trace.buffers[i].name == roles.c && !roles.c.empty()) c_buffer_ = int(i);
        for (const LocalBuffer& l : trace.local_buffers)
            held_.emplace_back(std::max<uint64_t>(l.rows * l.cols, (l.bytes + 3) / 4));
        for (const BarrierInterval& in : group.intervals) {
            out_.parts.emplace_back(lanes);
            if (!in.access_log.empty()) out_.has_log = true;
            for (const WorkItemAccesses& w : in.access_log)
                if (w.work_item < lanes) walk(w, out_.parts.back()[w.work_item]);
            out_.after.push_back(held_);
        }
    }
    GroupReplay take() { return std::move(out_); }

private:
    void walk(const WorkItemAccesses& w, ItemPart& part) {
        loaded_.clear();
        std::vector<int> reads(trace_.local_buffers.size(), 0);
        for (const MemoryAccess& a : w.accesses) {
            const uint32_t words = std::max<uint32_t>(1, (uint32_t(a.size) + 3) / 4);
            if (!a.local()) {
                // Every element it covers (a float4 load of a float matrix covers four).
                const TracedBuffer& b = trace_.buffers[a.buffer];
                const uint32_t es = std::max<uint32_t>(1, b.element_size);
                for (uint32_t k = 0; k < (uint32_t(a.size) + es - 1) / es && a.element + k < b.elements; ++k)
                    (a.store() ? part.stores : part.loads).push_back({a.buffer, a.element + k});
                if (!a.store()) remember_load(a, words);
                if (a.store() && int(a.buffer) == c_buffer_) {
                    if (out_.c_element[w.work_item] < 0) out_.c_element[w.work_item] = int(a.element);
                    if (uint32_t(out_.c_element[w.work_item]) != a.element || !out_.c_stores[w.work_item])
                        ++out_.c_stores[w.work_item];
                }
                continue;
            }
            std::vector<Held>& cells = held_[a.buffer];
            if (a.store()) {
                for (uint32_t k = 0; k < words && a.element + k < cells.size(); ++k) {
                    // the words it carries (a file's are validated; none is read past them here either)
                    const bool known = a.has_value() && k < a.value_count() && size_t(a.value_begin) + k < w.stored_words.size();
                    const Held h = known ? match(w.stored_words[a.value_begin + k]) : Held{Held::Unknown};
                    cells[a.element + k] = h;
                    part.local_stores.push_back({a.buffer, a.element + k, h, -1});
                }
            } else {
                const int iteration = reads[a.buffer]++;
                part.iterations = std::max(part.iterations, iteration + 1);
                for (uint32_t k = 0; k < words && a.element + k < cells.size(); ++k)
                    part.local_reads.push_back({a.buffer, a.element + k, cells[a.element + k], iteration});
            }
        }
    }

    // The words a global load brought, when the host knows them.
    void remember_load(const MemoryAccess& a, uint32_t words) {
        if (!inputs_[a.buffer]) return;
        const std::vector<float>& values = inputs_[a.buffer]->data;
        const uint32_t per_element = std::max<uint32_t>(1, trace_.buffers[a.buffer].element_size / 4);
        for (uint32_t k = 0; k < words; ++k) {
            const uint64_t at = uint64_t(a.element) * per_element + k;
            if (at >= values.size()) break;
            Held h{Held::Element, uint8_t((at % per_element)), a.buffer, uint32_t(at / per_element)};
            uint32_t bits = 0;
            std::memcpy(&bits, &values[at], sizeof bits);
            loaded_.push_back({bits, h});
        }
    }

    // A stored word: the latest earlier load of the same value, else a written zero, else
    // a value the work-item computed.
    Held match(uint32_t bits) const {
        for (auto it = loaded_.rbegin(); it != loaded_.rend(); ++it)
            if (it->bits == bits) return it->held;
        return Held{(bits & 0x7fffffffu) == 0 ? Held::Zero : Held::Unknown};
    }

    const Trace& trace_;
    std::vector<std::shared_ptr<const HostMatrix>> inputs_;
    int c_buffer_ = -1;
    std::vector<std::vector<Held>> held_;  // [local array][word], as the replay goes
    std::vector<LoadedWord> loaded_;       // the current work-item's loads in this interval
    GroupReplay out_;
};

}  // namespace

GroupReplay replay(const Trace& trace, const MatrixRoles& roles, const GroupTrace& group) {
    ++replay_counters().replays;
    for (const BarrierInterval& in : group.intervals)
        for (const WorkItemAccesses& w : in.access_log) replay_counters().accesses += w.accesses.size();
    return Replayer(trace, roles, group).take();
}

ReplayCounters& replay_counters() {
    static ReplayCounters c;
    return c;
}

uint64_t input_draws() {
    std::lock_guard<std::mutex> lock(input_cache().mutex);
    return input_cache().draws;
}

char role_of(const Trace& trace, const MatrixRoles& roles, uint32_t buffer) {
    if (buffer >= trace.buffers.size()) return 0;
    const std::string& name = trace.buffers[buffer].name;
    if (!roles.a.empty() && name == roles.a) return 'A';
    if (!roles.b.empty() && name == roles.b) return 'B';
    if (!roles.c.empty() && name == roles.c) return 'C';
    return 0;
}

std::array<int64_t, 2> global_cell(const Trace& trace, uint32_t buffer, uint32_t element) {
    const TracedBuffer& b = trace.buffers[buffer];
    if (!b.is_matrix) return {0, int64_t(element)};
    return b.coords(element);
}

std::array<int64_t, 2> local_cell(const Trace& trace, uint32_t array, uint32_t word) {
    const uint64_t cols = trace.local_buffers[array].cols;
    if (cols == 0) return {0, int64_t(word)};
    return {int64_t(word / cols), int64_t(word % cols)};
}

}  // namespace tilescope::frame_replay
