#include "core/tasks/caches.h"

#include "core/base/errors.h"
#include "core/caches/cache_trace.h"

namespace tilescope::tasks {

CacheModelOutcome model_caches(const Trace& trace, const std::string& profile) {
    CacheModelOutcome out;
    if (trace.partial) {  // the requests come with the final trace
        out.error = "Modelled when the launch ends: the emulator is still tracing.";
        return out;
    }
    try {
        out.report = model_trace_caches(trace, load_cache_profile(profile));
    } catch (const InputError& e) {
        out.error = e.what();
    }
    return out;
}

}  // namespace tilescope::tasks
