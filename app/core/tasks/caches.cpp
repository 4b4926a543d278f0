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
    // A saved trace carries the report it was saved with, not the requests (issue 24, item 4):
    // that profile's figures are shown as saved; another profile needs the kernel traced again.
    if (!trace.cache_requests && trace.caches) {
        if (cache_profile_base(trace.caches->profile) == profile) out.report = *trace.caches;
        else
            out.error = "This saved trace carries the cache model's report for profile " + trace.caches->profile +
                        " only; trace the kernel again to model it with " + profile + ".";
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
