// Judging closed synthetic sub-group requests. Depends on subgroup_requests.h only.
#include "subgroup_requests.h"

namespace tilescope::trace_plugin {

abi::BankConflicts judge_bank_conflicts(const Request& r, const BankGeometry& b, uint64_t offset_mask,
                                        std::vector<uint32_t>& histogram) {
    auto slot = [&](uint64_t key) {
        const uint64_t unit = key / b.passes;
        return (key % b.passes) * b.bank_groups + (unit & (offset_mask >> b.unit_shift)) % b.bank_groups;
    };
    uint32_t degree = 0;
    r.for_each([&](uint64_t key) { degree = std::max(degree, ++histogram[slot(key)]); });
    r.for_each([&](uint64_t key) { histogram[slot(key)] = 0; });
    return abi::BankConflicts{1, degree, degree, degree > 1 ? 1u : 0u};
}

abi::Coalescing judge_coalescing(const Request& r, uint32_t width, const abi::Config& config) {
    const uint64_t ideal = (uint64_t(config.warp) * width + config.sector_bytes - 1) / config.sector_bytes;
    return abi::Coalescing{1, r.n, std::max<uint64_t>(1, ideal)};
}

}  // namespace tilescope::trace_plugin
