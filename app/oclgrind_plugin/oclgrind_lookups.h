#pragma once
// Small questions the plugin asks of Oclgrind and LLVM objects, in the tool's terms: the
// source line of an instruction (Oclgrind always builds with debug info), a Size3 as an
// Id3, a work-group's linear index (dimension 0 fastest), and the number Oclgrind gives a
// __local buffer in a work-group's local memory. Depends on Oclgrind, LLVM and
// trace_abi.h; every other plugin file may use it.
//
// Oclgrind's headers other than common.h and Plugin.h have no include guard: the
// plugin's headers include only those two (and forward-declare Oclgrind's classes
// here); each .cpp file includes the others it uses, once.
#include <oclgrind/common.h>

#include <llvm/IR/DebugLoc.h>
#include <llvm/IR/Instruction.h>

#include "trace_abi.h"

namespace oclgrind {
class KernelInvocation;
class Memory;
class WorkGroup;
class WorkItem;
}  // namespace oclgrind

namespace tilescope::trace_plugin {
namespace abi = tilescope::trace_abi;

inline uint32_t line_of(const llvm::Instruction* instruction) {
    if (!instruction) return 0;
    const llvm::DebugLoc& loc = instruction->getDebugLoc();
    return loc ? loc.getLine() : 0;
}

inline abi::Id3 id3(const oclgrind::Size3& s) {
    return {static_cast<uint32_t>(s.x), static_cast<uint32_t>(s.y), static_cast<uint32_t>(s.z)};
}

// Whether `group` names a work-group of a launch of `num_groups` groups.
inline bool is_group_of(const abi::Id3& group, const abi::Id3& num_groups) {
    return group[0] < num_groups[0] && group[1] < num_groups[1] && group[2] < num_groups[2];
}

inline uint64_t linear_group_index(const abi::Id3& group, const abi::Id3& num_groups) {
    return group[0] + static_cast<uint64_t>(num_groups[0]) * (group[1] + num_groups[1] * static_cast<uint64_t>(group[2]));
}

// Oclgrind's buffer number of the __local buffer `value` in `work_group`'s local memory
// (the top bits of its addresses); every work-group numbers its buffers alike.
size_t local_buffer_number(const oclgrind::WorkGroup* work_group, const llvm::Value* value);

}  // namespace tilescope::trace_plugin
