#include "core/tasks/cpu_explain.h"

#include "core/base/errors.h"
#include "core/caches/cache_trace.h"
#include "core/emulator/trace_runner.h"
#include "core/kernel/catalog.h"
#include "core/tasks/caches.h"
#include "core/tasks/trace.h"

namespace tilescope::tasks {

CpuExplainInput cpu_explain_input(const Measurement& naive, const Measurement& tiled, const DeviceInfo& device,
                                  const std::vector<LadderRungFigures>& traced, int traced_size) {
    CpuExplainInput in;
    in.naive = naive;
    in.tiled = tiled;
    in.device = device;
    in.cache_profile = cache_profile_for(device);
    if (in.cache_profile.empty()) in.cache_profile = "cpu";
    in.cache = load_cache_profile(in.cache_profile).params;
    for (const LadderRungFigures& f : traced) {
        if (f.kernel == "naive" && !in.naive_traced) in.naive_traced = f;
        if (f.kernel == "tiled" && !in.tiled_traced) in.tiled_traced = f;
    }
    if (in.naive_traced && in.tiled_traced) in.traced_size = traced_size;
    return in;
}

CpuExplanation explain_cpu_measurements(const Measurement& naive, const Measurement& tiled, const DeviceInfo& device,
                                        const TaskProgress& progress) {
    const ProblemSize& s = tiled.size;
    const bool small = s.M == s.N && s.N == s.K && s.M <= kExplainTraceSize;
    const int size = small ? int(s.M) : kExplainTraceSize;
    std::string profile = cache_profile_for(device);
    if (profile.empty()) profile = "cpu";
    std::vector<LadderRungFigures> traced;
    for (const Measurement* m : {&naive, &tiled}) {
        progress.throw_if_cancelled();
        const KernelSpec* k = find_rung(m->kernel);
        if (!k) continue;
        LaunchConfig c{*k, ProblemSize{size, size, size}, m->tile};
        progress.say("tracing " + m->kernel + " at " + std::to_string(size) + " on the emulator for the explanation");
        const TraceOptions to = figures_trace_options(progress);
        try {
            const Trace t = run_trace(c, to);
            const CacheModelOutcome modelled = model_caches(t, profile);
            traced.push_back(ladder_figures(t, modelled.report ? &*modelled.report : nullptr, std::nullopt));
        } catch (const InputError& e) {
            progress.say(m->kernel + ": " + e.what());
        }
    }
    return explain_cpu(cpu_explain_input(naive, tiled, device, traced, size));
}

}  // namespace tilescope::tasks
