#pragma once
// What every core task (core/tasks/*.h) is given: how to report progress and how to know
// it was cancelled. The same callbacks the core already takes (RunOptions::cancelled and
// progress, TraceOptions::cancelled and progress, QuickTuneOptions::cancelled), gathered
// in one shape, so one task runs unchanged under the GUI's worker (ui/state/worker.h
// task_progress: its JobStatus) and in the CLI's main thread (Ctrl-C, the terminal).
#include <cstdint>
#include <functional>
#include <string>

#include "core/base/errors.h"

namespace tilescope::tasks {

struct TaskProgress {
    std::function<bool()> cancelled;                           // polled between steps; true: the task throws Cancelled
    std::function<void(const std::string&)> message;           // what it is doing now, one short line
    std::function<void(uint64_t done, uint64_t total)> units;  // how far, in the task's own units (may be called from other threads, one call at a time)

    bool is_cancelled() const { return cancelled && cancelled(); }
    void throw_if_cancelled() const {
        if (is_cancelled()) throw Cancelled();
    }
    void say(const std::string& line) const {
        if (message) message(line);
    }
    void advance(uint64_t done, uint64_t total) const {
        if (units) units(done, total);
    }
};

}  // namespace tilescope::tasks
