#pragma once
// Every work-group of a launch made from one traced group (issue 24, item 3): the cache
// model at sizes too large to trace whole. Pure and headless, like cache_model.h; the
// replay itself is cache_model.cpp's.
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/caches/cache_model.h"

namespace tilescope {

// A launch too large to trace whole (issue 24, item 3: 4096^3), stood in for by a traced
// block of work-groups at its origin: when every traced group's requests are group
// (0,0,0)'s moved by a fixed number of sectors per step along each dimension (sector by
// sector), every group of the launch is made from group (0,0,0) that way. Modelled from
// a traced sample: the figures say so wherever they are shown.
struct TranslatedGroups {
    CacheRequestStream base;                  // group (0,0,0)'s requests: one group
    std::array<std::vector<int64_t>, 3> step; // per sector of `base`: its move per group along x, y, z
    std::array<uint64_t, 3> grid{1, 1, 1};   // the whole launch's work-groups per dimension
    std::array<uint32_t, 3> sample{1, 1, 1}; // the traced block, from the origin
    uint64_t groups_checked = 0;              // traced groups found exactly where the rule puts them
    uint64_t total_groups() const { return grid[0] * grid[1] * grid[2]; }
};

// Fits the rule to `sample` (the traced block's groups in linear order, dimension 0
// fastest): the steps from groups (1,0,0), (0,1,0), (0,0,1), then checks every other traced
// group against them. Throws InputError naming the first group, request and sector that
// breaks the rule, or a dimension of more than one group that the sample does not step
// along.
TranslatedGroups fit_translated_groups(const CacheRequestStream& sample, std::array<uint32_t, 3> sample_dims,
                                       std::array<uint64_t, 3> grid);

// Replays the first `first_groups` work-groups of `groups` (in linear order, dealt as the
// whole launch deals them) as run_cache_model does. `progress(done, total)` is called every
// 256 groups; returning false stops after the groups already dealt. The report's bounds
// are left at zero (order-independent bounds of a launch this size are not computed).
CacheReport run_cache_model(const TranslatedGroups& groups, const CacheParams& params, const std::string& profile,
                            uint64_t first_groups,
                            const std::function<bool(uint64_t done, uint64_t total)>& progress = {});


}  // namespace tilescope
