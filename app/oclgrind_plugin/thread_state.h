#pragma once
// What one Oclgrind worker thread accumulates while it runs work-groups of a traced
// launch (DESIGN.md: per-thread buffers, merged when a group completes and when the
// kernel ends): per memory instruction its counts and open requests, per buffer its
// heatmaps, and the work-group it runs with its open barrier interval.
// Depends on subgroup_requests.h, cache_recorder.h, group_detail.h, oclgrind_lookups.h
// and trace_abi.h.
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "cache_recorder.h"
#include "group_detail.h"
#include "oclgrind_lookups.h"
#include "subgroup_requests.h"
#include "trace_abi.h"

namespace tilescope::trace_plugin {

// One memory instruction as seen by one worker thread.
struct InstructionStats {
    const llvm::Instruction* instruction = nullptr;
    uint32_t line = 0;
    bool local = false;
    uint32_t width = 0;  // bytes per access (16 for a float4); set by the first access
    BankGeometry bank;   // set with `width`; judges local requests
    abi::AccessCounts counts;
    abi::Coalescing coalescing;
    abi::BankConflicts bank_conflicts;
    std::vector<Request> requests;     // this interval's, by k * subgroups + subgroup
    std::vector<CacheTag> cache_tags;  // parallel to requests when the cache model records

    CacheTag& cache_tag(size_t request) {
        if (cache_tags.size() < requests.size()) cache_tags.resize(requests.size());
        return cache_tags[request];
    }
};

// Open-addressing map from an instruction to its index in ThreadState::instructions.
class InstructionTable {
public:
    static constexpr uint32_t kAbsent = UINT32_MAX;

    uint32_t find(const llvm::Instruction* instruction) const {
        const size_t mask = slots_.size() - 1;
        for (size_t h = hash(instruction);; ++h) {
            const auto& e = slots_[h & mask];
            if (e.first == instruction) return e.second;
            if (!e.first) return kAbsent;
        }
    }
    // Adds `instruction` (not yet in the table) as `index`; grows at half load.
    void insert(const llvm::Instruction* instruction, uint32_t index);

private:
    using Entry = std::pair<const llvm::Instruction*, uint32_t>;
    static size_t hash(const llvm::Instruction* instruction) {
        return (reinterpret_cast<uintptr_t>(instruction) >> 4) * 0x9E3779B97F4A7C15ull >> 20;
    }
    static void place(std::vector<Entry>& slots, const Entry& entry);

    std::vector<Entry> slots_ = std::vector<Entry>(64, Entry{nullptr, 0});
    size_t entries_ = 0;
};

// Totals of the open barrier interval, folded into the group's and thread's when it closes.
struct IntervalTotals {
    abi::AccessCounts global, local;
    abi::Coalescing coalescing;
    abi::BankConflicts bank_conflicts;
};

// The work-group a worker thread is running, with its open interval.
struct GroupState {
    const oclgrind::WorkGroup* work_group = nullptr;
    abi::Id3 id{}, size{};
    uint32_t lanes = 1;
    uint64_t linear = 0;
    int detail = -1;  // position in Config::detail_groups, or -1
    const oclgrind::WorkItem* last_item = nullptr;  // the work-item of the last access, and its lane
    uint32_t last_lane = 0;
    uint32_t interval = 0;
    abi::GroupSummary summary;

    // The open interval.
    IntervalTotals open;
    std::vector<std::pair<uint32_t, uint32_t>> touched;  // (instruction, request) used this interval
    std::vector<uint32_t> executions;                     // by instruction * lanes + lane: k so far

    GroupDetailRecorder detail_recorder;  // only when detail >= 0
    CacheRecorder cache;
};

struct ThreadState {
    ThreadState(uint64_t epoch, size_t slots, uint32_t banks);

    uint64_t epoch = 0;
    InstructionTable table;
    std::vector<InstructionStats> instructions;
    abi::AccessCounts global, local, private_mem;
    abi::Coalescing coalescing;
    abi::BankConflicts bank_conflicts;
    uint64_t barriers = 0;
    std::set<uint32_t> barrier_lines;
    std::vector<abi::AccessCounts> slot_counts;
    std::vector<uint64_t> slot_out_of_range;
    std::vector<std::vector<uint32_t>> load_counts, store_counts;  // by slot, then element
    std::vector<uint32_t> bank_histogram;
    GroupState group;

    // Index of `instruction` in `instructions`; a new one is added, with per-lane
    // execution counters for `max_lanes` lanes.
    uint32_t instruction_index(const llvm::Instruction* instruction, bool local, uint32_t max_lanes) {
        const uint32_t found = table.find(instruction);
        return found != InstructionTable::kAbsent ? found : add_instruction(instruction, local, max_lanes);
    }

private:
    uint32_t add_instruction(const llvm::Instruction* instruction, bool local, uint32_t max_lanes);
};

}  // namespace tilescope::trace_plugin
