// Collecting and handing over the (element, work-item) pairs of one buffer.
// Depends on touch_set.h only.
#include "touch_set.h"

#include <algorithm>
#include <bit>

namespace tilescope::trace_plugin {

void TouchSet::reset(uint64_t elements, uint32_t lanes, bool allow_bitmap) {
    elements_ = elements;
    lanes_ = lanes;
    bitmap_ = allow_bitmap && elements * lanes <= (uint64_t(1) << 20);
    bits_.assign(bitmap_ ? (elements * lanes + 63) / 64 : 0, 0);
    keys_.clear();
    any_ = false;
}

std::vector<abi::ElementTouch> TouchSet::take() {
    std::vector<abi::ElementTouch> out;
    if (bitmap_) {
        size_t n = 0;
        for (uint64_t x : bits_) n += static_cast<size_t>(std::popcount(x));
        out.reserve(n);
        for (size_t w = 0; w < bits_.size(); ++w) {
            for (uint64_t x = bits_[w]; x; x &= x - 1) {
                const uint64_t i = w * 64 + static_cast<uint64_t>(std::countr_zero(x));
                out.push_back({static_cast<uint32_t>(i / lanes_), static_cast<uint32_t>(i % lanes_)});
            }
            bits_[w] = 0;
        }
    } else {
        std::sort(keys_.begin(), keys_.end());
        keys_.erase(std::unique(keys_.begin(), keys_.end()), keys_.end());
        out.reserve(keys_.size());
        for (uint64_t k : keys_) out.push_back({static_cast<uint32_t>(k >> 32), static_cast<uint32_t>(k)});
        keys_.clear();
    }
    any_ = false;
    return out;
}

}  // namespace tilescope::trace_plugin
