#pragma once
// The cache model run over one trace: what the GUI's memory hierarchy, its DRAM heatmap
// and the performance plan's modelled DRAM intensity all ask for. Pure and quick (a few ms
// at 128^3), so callers run it where they are; no OpenCL.
#include <optional>
#include <string>

#include "core/caches/cache_model.h"
#include "core/trace/trace.h"

namespace tilescope::tasks {

struct CacheModelOutcome {
    std::optional<CacheReport> report;
    std::string error;  // why there is no report: a partial trace, no requests recorded, an unknown profile
};

// The model over `trace`'s requests with the named profile (assets/caches/). Never throws
// for a trace it cannot model: `error` says why, one sentence.
CacheModelOutcome model_caches(const Trace& trace, const std::string& profile);

}  // namespace tilescope::tasks
