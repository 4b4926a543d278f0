#pragma once
// Per-thread accumulation of memory accesses, as Oclgrind reports them: into the worker
// thread's own ThreadState (counts per instruction and buffer, heatmaps), the open
// synthetic sub-group requests, the cache model's tags and the detail of a group on
// display. Nothing here takes a lock. Depends on run.h; trace_plugin.cpp calls it.
#include "run.h"

namespace tilescope::trace_plugin {

// A load, store or atomic by one work-item (an atomic counts as one load and one store).
// `data`: the bytes a store writes (Oclgrind's storeData), kept in a detail group's log
// for local stores; null when unknown (atomics).
void record_work_item_access(Run& run, const oclgrind::Memory* memory, const oclgrind::WorkItem* work_item,
                             size_t address, size_t size, bool store, const uint8_t* data = nullptr);

// An access made by a whole work-group (async copies): traffic and detail, no requests.
void record_work_group_access(Run& run, const oclgrind::Memory* memory, size_t address, size_t size, bool store);

}  // namespace tilescope::trace_plugin
