// A worker thread's own buffers. Depends on thread_state.h only.
#include "thread_state.h"

namespace tilescope::trace_plugin {

void InstructionTable::place(std::vector<Entry>& slots, const Entry& entry) {
    const size_t mask = slots.size() - 1;
    size_t h = hash(entry.first);
    while (slots[h & mask].first) ++h;
    slots[h & mask] = entry;
}

void InstructionTable::insert(const llvm::Instruction* instruction, uint32_t index) {
    if (++entries_ * 2 > slots_.size()) {
        std::vector<Entry> bigger(slots_.size() * 2, Entry{nullptr, 0});
        for (const Entry& e : slots_)
            if (e.first) place(bigger, e);
        slots_.swap(bigger);
    }
    place(slots_, {instruction, index});
}

ThreadState::ThreadState(uint64_t epoch_, size_t slots, uint32_t banks)
    : epoch(epoch_),
      slot_counts(slots),
      slot_out_of_range(slots),
      load_counts(slots),
      store_counts(slots),
      bank_histogram(banks, 0) {}

uint32_t ThreadState::add_instruction(const llvm::Instruction* instruction, bool local, uint32_t max_lanes) {
    const uint32_t index = static_cast<uint32_t>(instructions.size());
    InstructionStats s;
    s.instruction = instruction;
    s.line = line_of(instruction);
    s.local = local;
    instructions.push_back(std::move(s));
    group.executions.resize(instructions.size() * max_lanes, 0);
    table.insert(instruction, index);
    return index;
}

}  // namespace tilescope::trace_plugin
