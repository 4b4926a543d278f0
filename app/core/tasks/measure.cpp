#include "core/tasks/measure.h"

#include "core/base/errors.h"
#include "core/device/runner.h"

namespace tilescope::tasks {

std::vector<std::optional<Measurement>> measure_configs(const MeasureJob& job, const TaskProgress& progress) {
    std::vector<std::optional<Measurement>> out;
    const DeviceInfo& dev = select_device(job.device);
    Runner runner(dev);
    RunOptions o;
    o.reps = job.reps;
    o.warmup = job.warmup;
    o.cancelled = progress.cancelled;
    uint64_t done = 0;
    progress.advance(done, job.configs.size());
    for (const LaunchConfig& c : job.configs) {
        progress.say("measuring " + c.kernel.name + " " + c.size.label() + (c.kernel.library.empty() ? " TS=" + std::to_string(c.tile) : ""));
        try {
            out.push_back(runner.measure(c, o));
        } catch (const InputError&) {
            out.push_back(std::nullopt);
        }
        progress.advance(++done, job.configs.size());
    }
    return out;
}

}  // namespace tilescope::tasks
