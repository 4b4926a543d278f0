#include "core/trace/trace.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

namespace tilescope {

std::string_view to_string(DiagnosticKind kind) {
    switch (kind) {
    case DiagnosticKind::Race: return "race";
    case DiagnosticKind::Divergence: return "divergence";
    case DiagnosticKind::OutOfBounds: return "out_of_bounds";
    case DiagnosticKind::Uninitialized: return "uninitialized";
    case DiagnosticKind::Other: return "other";
    }
    return "other";
}

std::array<int64_t, 2> TracedBuffer::coords(uint64_t e) const {
    const int64_t i = static_cast<int64_t>(e);
    if (!is_matrix || cols <= 0) return {0, i};
    if (layout == Layout::RowMajor) return {i / cols, i % cols};
    return {i % rows, i / rows};
}

uint64_t TracedBuffer::element(int64_t row, int64_t col) const {
    if (!is_matrix) return static_cast<uint64_t>(col);
    return static_cast<uint64_t>(layout == Layout::RowMajor ? row * cols + col : col * rows + row);
}

uint32_t TracedBuffer::loads_at(int64_t row, int64_t col) const {
    const uint64_t e = element(row, col);
    return e < load_counts.size() ? load_counts[e] : 0;
}

const BufferIntervalAccess* BarrierInterval::find(std::string_view buffer) const {
    for (const auto& b : buffers)
        if (b.buffer == buffer) return &b;
    for (const auto& b : local_buffers)
        if (b.buffer == buffer) return &b;
    return nullptr;
}

WorkItemId GroupTrace::local_id(uint32_t linear) const {
    // 64-bit: x * y of two 32-bit sizes must not wrap to 0 (a hostile saved trace, issue 23).
    const uint64_t x = size[0] ? size[0] : 1, y = size[1] ? size[1] : 1;
    return {uint32_t(linear % x), uint32_t((linear / x) % y), uint32_t(linear / (x * y))};
}

const TracedBuffer* Trace::find_buffer(std::string_view name) const {
    for (const auto& b : buffers)
        if (b.name == name) return &b;
    return nullptr;
}

const GroupTrace* Trace::find_group(const GroupId& group) const {
    for (const auto& g : detail)
        if (g.group == group) return &g;
    return nullptr;
}

std::vector<Rect> cover_rectangles(const TracedBuffer& buffer, const std::vector<uint64_t>& elements) {
    std::vector<std::array<int64_t, 2>> rc;
    rc.reserve(elements.size());
    for (uint64_t e : elements) rc.push_back(buffer.coords(e));
    std::sort(rc.begin(), rc.end());
    rc.erase(std::unique(rc.begin(), rc.end()), rc.end());

    std::vector<Rect> done;
    std::map<std::pair<int64_t, int64_t>, Rect> open, next;  // by (c0, c1): rectangles ending on the previous row
    size_t i = 0;
    while (i < rc.size()) {
        const int64_t row = rc[i][0];
        next.clear();
        while (i < rc.size() && rc[i][0] == row) {
            const int64_t c0 = rc[i][1];
            int64_t c1 = c0;
            ++i;
            while (i < rc.size() && rc[i][0] == row && rc[i][1] == c1 + 1) c1 = rc[i++][1];
            auto it = open.find({c0, c1});
            if (it != open.end() && it->second.r1 == row - 1) {
                Rect r = it->second;
                r.r1 = row;
                open.erase(it);
                next[{c0, c1}] = r;
            } else {
                next[{c0, c1}] = Rect{row, c0, row, c1};
            }
        }
        for (auto& [key, r] : open) done.push_back(r);
        open.swap(next);
    }
    for (auto& [key, r] : open) done.push_back(r);
    std::sort(done.begin(), done.end(), [](const Rect& a, const Rect& b) {
        return a.r0 != b.r0 ? a.r0 < b.r0 : a.c0 < b.c0;
    });
    return done;
}

}  // namespace tilescope
