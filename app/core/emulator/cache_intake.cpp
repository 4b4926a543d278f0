#include "core/emulator/cache_intake.h"

#include <algorithm>
#include <map>

namespace tilescope {
namespace abi = trace_abi;

namespace {

// Where each of Oclgrind's buffers starts in the model's flat address space.
struct FlatLayout {
    std::map<uint64_t, uint64_t> base_of_buffer;  // Oclgrind buffer number -> first byte
    uint64_t end = 0;
};

FlatLayout flat_layout(const abi::Result& raw) {
    std::map<uint64_t, uint64_t> bytes;  // buffer number -> bytes used by the parameters in it
    for (const abi::BufferStats& b : raw.buffers) {
        if (b.name == "(unbound)") continue;
        uint64_t& size = bytes[b.memory_buffer];
        size = std::max(size, b.base_offset + b.elements * b.element_size);
    }
    FlatLayout layout;
    for (const auto& [buffer, size] : bytes) {
        layout.base_of_buffer[buffer] = layout.end;
        layout.end += (size + 4095) / 4096 * 4096;
    }
    return layout;
}

}  // namespace

CacheRequestStream cache_stream(const abi::Result& raw) {
    CacheRequestStream s;
    s.sector_bytes = raw.sector_bytes;
    const FlatLayout layout = flat_layout(raw);
    for (const abi::BufferStats& b : raw.buffers) {
        s.buffers.push_back(b.name);
        const auto it = layout.base_of_buffer.find(b.memory_buffer);
        const uint64_t base = it == layout.base_of_buffer.end() || b.name == "(unbound)" ? 0 : it->second + b.base_offset;
        s.buffer_first_sector.push_back(base / raw.sector_bytes);
    }
    const unsigned sector_shift = static_cast<unsigned>(__builtin_ctz(raw.sector_bytes ? raw.sector_bytes : 32));
    const unsigned offset_sector_bits = raw.address_offset_bits - sector_shift;
    const uint64_t offset_mask = (uint64_t(1) << offset_sector_bits) - 1;
    size_t total_requests = 0, total_sectors = 0;
    for (const auto& g : raw.cache_groups) total_requests += g.requests.size(), total_sectors += g.sectors.size();
    s.requests.reserve(total_requests);
    s.sectors.reserve(total_sectors);
    // Groups that made no global request never reach the plugin's list; they still take a
    // compute unit's slot in no way that matters (they end at once), so skipping is exact.
    for (const abi::CacheGroupRequests& g : raw.cache_groups) {
        s.begin_group();
        for (const abi::CacheRequest& q : g.requests) {
            CacheRequestStream::Request r;
            r.sector_begin = static_cast<uint32_t>(s.sectors.size());
            for (uint32_t i = 0; i < q.sector_count; ++i) {
                const uint64_t key = g.sectors[q.sector_begin + i];
                const uint64_t buffer = key >> offset_sector_bits;
                const auto it = layout.base_of_buffer.find(buffer);
                // Memory no parameter points at: past every known buffer, apart per buffer.
                const uint64_t base = it != layout.base_of_buffer.end() ? it->second : layout.end + (buffer << 32);
                const uint64_t flat = (base >> sector_shift) + (key & offset_mask);
                s.sectors.push_back(flat);
            }
            // Sorted already unless one request spans buffers (pointer selects): sort anyway.
            const auto first = s.sectors.begin() + r.sector_begin;
            std::sort(first, s.sectors.end());
            s.sectors.erase(std::unique(first, s.sectors.end()), s.sectors.end());
            r.sector_count = static_cast<uint32_t>(s.sectors.size() - r.sector_begin);
            r.line = static_cast<int32_t>(q.line);
            r.buffer = q.buffer;
            r.load = q.load;
            r.store = q.store;
            s.requests.push_back(r);
            ++s.groups.back().request_count;
        }
    }
    return s;
}

}  // namespace tilescope
