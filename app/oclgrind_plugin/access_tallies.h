#pragma once
// Adding up what the plugin counts: one access into AccessCounts, one request's coalescing
// or bank-conflict figure into a total. Depends on trace_abi.h only.
#include <algorithm>
#include <cstddef>

#include "trace_abi.h"

namespace tilescope::trace_plugin {
namespace abi = tilescope::trace_abi;

inline void add(abi::AccessCounts& c, size_t bytes, bool store) {
    if (store) {
        c.store_bytes += bytes;
        ++c.stores;
    } else {
        c.load_bytes += bytes;
        ++c.loads;
    }
}

inline void add(abi::BankConflicts& into, const abi::BankConflicts& from) {
    into.requests += from.requests;
    into.degree_sum += from.degree_sum;
    into.conflicted_requests += from.conflicted_requests;
    into.max_degree = std::max(into.max_degree, from.max_degree);
}

inline void add(abi::Coalescing& into, const abi::Coalescing& from) {
    into.requests += from.requests;
    into.sectors += from.sectors;
    into.ideal_sectors += from.ideal_sectors;
}

}  // namespace tilescope::trace_plugin
