#pragma once
// The Oclgrind plugin that records what each work-group and work-item reads and writes,
// barrier interval by barrier interval. It only observes: it never changes what the
// kernel computes, and it leaves Oclgrind's worker threads alone (isThreadSafe stays
// true). Per worker thread it aggregates into its own buffers; a work-group's figures
// are merged when the group completes, the per-element heatmaps when the kernel ends.
//
// Files, by the job they do (each depends only on those below it in this list):
//   entry_points.cpp      the library's exported functions (Oclgrind's and the app's)
//   trace_plugin.*        this class: Oclgrind's callbacks, each handing its job to a file below
//   launch_setup.*        kernelBegin's steps: the launch's shape, buffers, groups on display
//   access_recording.*    per-thread accumulation of each load and store
//   work_groups.*         a work-group's begin, barriers (closing intervals) and completion
//   result_merging.*      partial results and the final merge of all threads
//   oclgrind_messages.*   Oclgrind's diagnostics, deduplicated
//   run.*                 one traced launch, shared by the worker threads
//   thread_state.*        one worker thread's buffers and its work-group
//   group_detail.*, touch_set.*   element detail for the groups on display
//   cache_recorder.*      the cache model's requests
//   subgroup_requests.*   synthetic sub-groups: coalescing and bank conflicts
//   access_tallies.h, oclgrind_lookups.h   adding up counts; ids and lines from Oclgrind
//   trace_session.*       process-wide config and result (depends on trace_abi.h only)
//
// Built -fno-rtti, like liboclgrind. oclgrind/Context.h has no include guard: include it
// through this header only.
#include <oclgrind/Context.h>
#include <oclgrind/Plugin.h>

#include <memory>

#include "trace_abi.h"

namespace tilescope::trace_plugin {

struct Run;  // one traced kernel launch

class TracePlugin final : public oclgrind::Plugin {
public:
    explicit TracePlugin(const oclgrind::Context* context);
    ~TracePlugin() override;

    void kernelBegin(const oclgrind::KernelInvocation* invocation) override;
    void kernelEnd(const oclgrind::KernelInvocation* invocation) override;
    void log(oclgrind::MessageType type, const char* message) override;

    void memoryLoad(const oclgrind::Memory* memory, const oclgrind::WorkItem* workItem, size_t address,
                    size_t size) override;
    void memoryStore(const oclgrind::Memory* memory, const oclgrind::WorkItem* workItem, size_t address,
                     size_t size, const uint8_t* storeData) override;
    void memoryLoad(const oclgrind::Memory* memory, const oclgrind::WorkGroup* workGroup, size_t address,
                    size_t size) override;
    void memoryStore(const oclgrind::Memory* memory, const oclgrind::WorkGroup* workGroup, size_t address,
                     size_t size, const uint8_t* storeData) override;
    void memoryAtomicLoad(const oclgrind::Memory* memory, const oclgrind::WorkItem* workItem, oclgrind::AtomicOp op,
                          size_t address, size_t size) override;
    void memoryAtomicStore(const oclgrind::Memory* memory, const oclgrind::WorkItem* workItem, oclgrind::AtomicOp op,
                           size_t address, size_t size) override;

    void workGroupBegin(const oclgrind::WorkGroup* workGroup) override;
    void workGroupBarrier(const oclgrind::WorkGroup* workGroup, uint32_t flags) override;
    void workGroupComplete(const oclgrind::WorkGroup* workGroup) override;

    bool isThreadSafe() const override { return true; }

private:
    // Set in kernelBegin before Oclgrind starts its workers, cleared in kernelEnd after
    // they have joined: the workers only ever read the pointer.
    std::unique_ptr<Run> run_;
};

}  // namespace tilescope::trace_plugin
