#pragma once
// Distinct (element, work-item) pairs of one buffer within one barrier interval: the
// element-level detail of a work-group on display. Depends on trace_abi.h only.
#include <cstdint>
#include <vector>

#include "trace_abi.h"

namespace tilescope::trace_plugin {
namespace abi = tilescope::trace_abi;

// Small buffers (local tiles) use a bitmap over element x lane, which needs neither
// sorting nor allocation per access; the rest collect keys and sort them once per interval.
class TouchSet {
public:
    void reset(uint64_t elements, uint32_t lanes, bool allow_bitmap);
    void add(uint64_t element, uint32_t lane) {
        any_ = true;
        if (bitmap_) {
            if (element >= elements_ || lane >= lanes_) return;
            const uint64_t i = element * lanes_ + lane;
            bits_[i >> 6] |= uint64_t(1) << (i & 63);
            return;
        }
        const uint64_t key = element << 32 | lane;
        if (keys_.empty() || keys_.back() != key) keys_.push_back(key);
    }
    bool empty() const { return !any_; }
    // The pairs sorted by element, then work-item; leaves the set empty.
    std::vector<abi::ElementTouch> take();

private:
    uint64_t elements_ = 0;
    uint32_t lanes_ = 1;
    bool bitmap_ = false, any_ = false;
    std::vector<uint64_t> bits_, keys_;
};

// Loads and stores of one buffer.
struct BufferTouchSets {
    TouchSet loads, stores;

    TouchSet& of(bool store) { return store ? stores : loads; }
    void reset(uint64_t elements, uint32_t lanes, bool allow_bitmap) {
        loads.reset(elements, lanes, allow_bitmap);
        stores.reset(elements, lanes, allow_bitmap);
    }
};

}  // namespace tilescope::trace_plugin
