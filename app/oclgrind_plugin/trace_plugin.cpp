// The Plugin subclass: Oclgrind's callbacks, each handing over to the file that does
// the job. Dependencies point one way, from here down:
//   trace_plugin.cpp -> launch_setup, access_recording, work_groups, result_merging,
//                       oclgrind_messages (each -> run.h -> thread_state.h -> ...)
//                    -> trace_session.h (claims the config, publishes the result)
// entry_points.cpp is the only file that includes trace_plugin.h besides this one.
#include "trace_plugin.h"

#include <oclgrind/Kernel.h>
#include <oclgrind/KernelInvocation.h>
#include <oclgrind/WorkItem.h>

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

#include "access_recording.h"
#include "launch_setup.h"
#include "oclgrind_messages.h"
#include "result_merging.h"
#include "run.h"
#include "trace_session.h"
#include "work_groups.h"

namespace tilescope::trace_plugin {
namespace {

// A cancelled run stops where this is called: at the start of a work-group, and at every
// memory access of a work-item, so that a work-item that never ends (a loop whose exit is
// never reached, e.g. a student's k-- for k++) stops too. Oclgrind's worker catches the
// error, drops its group and stops; the others follow at their next check.
void stop_if_cancelled(Run& run) {
    if (!run.config.cancel || !run.config.cancel->load(std::memory_order_relaxed)) return;
    {
        std::lock_guard<std::mutex> lock(run.mutex);
        run.cancelled = true;
    }
    throw oclgrind::FatalError("cancelled by the user", __FILE__, __LINE__);
}

// LLVM's optimiser turns `*(float4*)p = (float4)(a, b, c, d)` into a store of an
// undefined vector followed by four scalar stores. The first writes nothing a kernel
// can rely on and no real compiler keeps it: it is not traffic.
bool stores_undefined_value(const oclgrind::WorkItem* work_item) {
    const auto* st = llvm::dyn_cast_or_null<llvm::StoreInst>(work_item ? work_item->getCurrentInstruction() : nullptr);
    return st && llvm::isa<llvm::UndefValue>(st->getValueOperand());
}

}  // namespace

TracePlugin::TracePlugin(const oclgrind::Context* context) : Plugin(context) {}
TracePlugin::~TracePlugin() = default;

void TracePlugin::kernelBegin(const oclgrind::KernelInvocation* invocation) {
    abi::Config config;
    if (!session().claim(invocation->getKernel()->getName(), config)) return;
    auto run = std::make_unique<Run>();
    run->config = std::move(config);
    read_launch_shape(*run, invocation, m_context->getGlobalMemory());
    settle_request_geometry(*run);
    bind_buffer_parameters(*run);
    choose_groups_on_display(*run);
    describe_local_buffers(*run);
    order_local_buffers_by_name(*run);
    start_clock(*run);
    run_ = std::move(run);
}

void TracePlugin::kernelEnd(const oclgrind::KernelInvocation* invocation) {
    if (!run_ || run_->invocation != invocation) return;
    std::unique_ptr<Run> run = std::move(run_);
    std::lock_guard<std::mutex> no_partial_in_flight(run->partial_mutex);
    session().publish(merge_result(*run));
}

void TracePlugin::log(oclgrind::MessageType type, const char* message) {
    if (Run* run = run_.get()) keep_message(*run, type, message);
}

void TracePlugin::memoryLoad(const oclgrind::Memory* memory, const oclgrind::WorkItem* workItem, size_t address,
                             size_t size) {
    Run* run = run_.get();
    if (!run) return;
    stop_if_cancelled(*run);
    record_work_item_access(*run, memory, workItem, address, size, false);
}

void TracePlugin::memoryStore(const oclgrind::Memory* memory, const oclgrind::WorkItem* workItem, size_t address,
                              size_t size, const uint8_t* storeData) {
    Run* run = run_.get();
    if (!run) return;
    stop_if_cancelled(*run);
    if (stores_undefined_value(workItem)) return;
    record_work_item_access(*run, memory, workItem, address, size, true, storeData);
}

void TracePlugin::memoryLoad(const oclgrind::Memory* memory, const oclgrind::WorkGroup*, size_t address,
                             size_t size) {
    if (Run* run = run_.get()) record_work_group_access(*run, memory, address, size, false);
}

void TracePlugin::memoryStore(const oclgrind::Memory* memory, const oclgrind::WorkGroup*, size_t address,
                              size_t size, const uint8_t*) {
    if (Run* run = run_.get()) record_work_group_access(*run, memory, address, size, true);
}

// An atomic reads and writes: it counts as one load and one store.
void TracePlugin::memoryAtomicLoad(const oclgrind::Memory* memory, const oclgrind::WorkItem* workItem,
                                   oclgrind::AtomicOp, size_t address, size_t size) {
    TracePlugin::memoryLoad(memory, workItem, address, size);
}

void TracePlugin::memoryAtomicStore(const oclgrind::Memory* memory, const oclgrind::WorkItem* workItem,
                                    oclgrind::AtomicOp, size_t address, size_t size) {
    if (Run* run = run_.get()) record_work_item_access(*run, memory, workItem, address, size, true);
}

void TracePlugin::workGroupBegin(const oclgrind::WorkGroup* workGroup) {
    Run* run = run_.get();
    if (!run) return;
    stop_if_cancelled(*run);
    begin_work_group(*run, workGroup);
}

void TracePlugin::workGroupBarrier(const oclgrind::WorkGroup* workGroup, uint32_t) {
    if (Run* run = run_.get()) pass_barrier(*run, workGroup);
}

void TracePlugin::workGroupComplete(const oclgrind::WorkGroup* workGroup) {
    if (Run* run = run_.get()) complete_work_group(*run, workGroup);
}

}  // namespace tilescope::trace_plugin
