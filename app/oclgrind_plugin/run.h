#pragma once
// One traced kernel launch: what launch_setup.cpp learns at kernelBegin (the launch's
// shape, its buffers, the groups on display), then, under `mutex`, what the worker
// threads hand over as work-groups complete; result_merging.cpp turns it into a Result.
// Depends on thread_state.h and trace_abi.h; the plugin's callbacks and the files that
// set up, record, close and merge depend on it.
#include <array>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "thread_state.h"
#include "trace_abi.h"

namespace tilescope::trace_plugin {

struct Slot {  // a global/constant buffer a kernel parameter points at
    std::string name;
    int32_t arg_index = -1;
    uint64_t memory_buffer = 0;
    uint64_t base = 0;  // offset of the parameter's address inside Oclgrind's buffer
    uint32_t element_size = 4;
    uint64_t elements = 0;
    bool constant = false;
};

struct Run {
    Run();  // takes a new epoch: worker threads start fresh ThreadStates for it

    abi::Config config;
    const oclgrind::KernelInvocation* invocation = nullptr;
    const oclgrind::Memory* global_memory = nullptr;
    uint64_t epoch = 0;
    std::string kernel;
    uint32_t work_dim = 1;
    abi::Id3 num_groups{1, 1, 1}, local_size{1, 1, 1};
    std::array<uint64_t, 3> global_size{1, 1, 1};
    uint64_t total_groups = 1;
    uint32_t max_lanes = 1;
    uint32_t subgroups = 1;  // of the largest work-group
    unsigned offset_bits = 48;
    uint64_t offset_mask = 0;
    uint32_t sector_shift = 5;
    std::vector<int32_t> slot_of_buffer;  // Oclgrind global buffer id -> slot
    std::vector<Slot> slots;              // the last one gathers memory no parameter points at
    int32_t unbound_slot = 0;
    std::vector<int32_t> detail_of_group;  // linear group index -> position in detail_groups, -1
    std::vector<abi::LocalBufferInfo> local_buffers;
    std::map<const llvm::Value*, int32_t> local_index;  // local value -> local_buffers
    std::chrono::steady_clock::time_point started;

    std::mutex mutex;  // guards everything below
    std::vector<std::unique_ptr<ThreadState>> threads;
    std::vector<std::pair<uint64_t, abi::GroupSummary>> summaries;
    std::vector<abi::GroupDetail> details;
    std::vector<bool> detail_done;
    std::vector<abi::Message> messages;
    std::map<std::string, std::pair<size_t, uint32_t>> message_index;  // key -> (first kept, copies kept)
    uint64_t messages_dropped = 0;
    bool cancelled = false;
    std::atomic<uint64_t> groups_done{0};
    std::atomic<uint64_t> detail_touches{0};
    std::atomic<bool> detail_truncated{false};
    std::atomic<bool> local_buffers_numbered{false};
    std::vector<abi::CacheGroupRequests> cache_groups;  // guarded by mutex
    std::atomic<uint64_t> cache_bytes{0};
    std::atomic<bool> cache_truncated{false};

    // Streaming: early groups completed whose detail waits for the next partial call,
    // and when the last call was made (guarded by `mutex`); one call at a time.
    std::vector<bool> early;                 // linear group index -> wanted early
    std::vector<abi::GroupDetail> pending_early;
    std::chrono::steady_clock::time_point last_partial{};
    std::mutex partial_mutex;

    // The calling worker thread's state for this run, made on its first call.
    ThreadState& thread_state();

    // The slot of Oclgrind's global buffer number `buffer`.
    int32_t slot_of(uint64_t buffer) const {
        return buffer < slot_of_buffer.size() ? slot_of_buffer[buffer] : unbound_slot;
    }
    // Whether the group `g` runs keeps element detail now (it is on display and the
    // bound on detail records is not reached).
    bool keeps_detail(const GroupState& g) const {
        return g.detail >= 0 && !detail_truncated.load(std::memory_order_relaxed);
    }
};

}  // namespace tilescope::trace_plugin
