#pragma once
// Synthetic sub-groups (DESIGN.md, "Oclgrind facts"; trace_abi.h, Coalescing and
// BankConflicts). Oclgrind has no warps, so the plugin makes its own requests: the k-th
// execution of one instruction by `warp` consecutive lanes of a work-group, within one
// barrier interval. A Request collects the distinct keys its accesses touch (sectors on
// global memory, unit-and-pass keys on local memory); when the interval closes it is
// judged for coalescing or for bank conflicts. Depends on trace_abi.h only.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "trace_abi.h"

namespace tilescope::trace_plugin {
namespace abi = tilescope::trace_abi;

// Distinct keys (sectors or words) one request touched. Most requests touch a handful,
// so the first few live inline.
struct Request {
    static constexpr uint32_t kInline = 6;
    uint32_t n = 0;
    uint64_t inline_keys[kInline];
    std::vector<uint64_t> spill;

    void add(uint64_t key) {
        const uint32_t in = std::min(n, kInline);
        for (uint32_t i = 0; i < in; ++i)
            if (inline_keys[i] == key) return;
        for (uint64_t k : spill)
            if (k == key) return;
        if (n < kInline) inline_keys[n] = key;
        else spill.push_back(key);
        ++n;
    }
    template <class F> void for_each(F&& f) const {
        const uint32_t in = std::min(n, kInline);
        for (uint32_t i = 0; i < in; ++i) f(inline_keys[i]);
        for (uint64_t k : spill) f(k);
    }
    void clear() {
        n = 0;
        spill.clear();
    }
};

// How the requests of one local-memory instruction are judged, from its access width:
// log2 of the unit judged (max(width, bank_bytes), a power of two), the passes a
// sub-group is served in, the lanes per pass, and the groups of banks a unit falls in.
struct BankGeometry {
    uint32_t unit_shift = 2, passes = 1, lanes_per_pass = 32;
    uint64_t bank_groups = 1;

    static BankGeometry for_width(uint32_t width, const abi::Config& config) {
        BankGeometry b;
        const uint32_t unit = std::bit_ceil(std::max<uint32_t>(width, config.bank_bytes));
        b.unit_shift = static_cast<uint32_t>(std::countr_zero(unit));
        b.passes = unit / config.bank_bytes;
        b.lanes_per_pass = std::max<uint32_t>(1, config.warp / b.passes);
        b.bank_groups = std::max<uint64_t>(1, uint64_t(config.banks) * config.bank_bytes >> b.unit_shift);
        return b;
    }
    // Counters judge_bank_conflicts needs: one per (pass, bank group).
    uint64_t histogram_slots() const { return passes * bank_groups; }
};

// A local access of `size` bytes at `address` by `lane`: its units, each keyed with the
// pass the lane is served in (key = unit * passes + pass).
inline void add_bank_keys(Request& r, const BankGeometry& b, uint64_t address, uint64_t size, uint32_t lane,
                          uint32_t warp) {
    const uint64_t pass = std::min<uint32_t>(b.passes - 1, lane % warp / b.lanes_per_pass);
    const uint64_t first = address >> b.unit_shift, last = (address + size - 1) >> b.unit_shift;
    for (uint64_t u = first; u <= last; ++u) r.add(u * b.passes + pass);
}

// A global access of `size` bytes at `address`: the sectors it covers.
inline void add_sectors(Request& r, uint64_t address, uint64_t size, uint32_t sector_shift) {
    const uint64_t first = address >> sector_shift, last = (address + size - 1) >> sector_shift;
    for (uint64_t sec = first; sec <= last; ++sec) r.add(sec);
}

// A closed local request: its degree is the most keys falling into one (pass, bank
// group). `histogram` holds at least b.histogram_slots() zeroes, and is left so.
abi::BankConflicts judge_bank_conflicts(const Request& r, const BankGeometry& b, uint64_t offset_mask,
                                        std::vector<uint32_t>& histogram);

// A closed global request of accesses `width` bytes wide: its sectors against the ideal.
abi::Coalescing judge_coalescing(const Request& r, uint32_t width, const abi::Config& config);

}  // namespace tilescope::trace_plugin
