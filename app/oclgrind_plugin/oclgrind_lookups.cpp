// The questions that need Oclgrind's unguarded headers. Depends on oclgrind_lookups.h.
#include "oclgrind_lookups.h"

#include <oclgrind/Memory.h>
#include <oclgrind/WorkGroup.h>

namespace tilescope::trace_plugin {

size_t local_buffer_number(const oclgrind::WorkGroup* work_group, const llvm::Value* value) {
    return work_group->getLocalMemory()->extractBuffer(work_group->getLocalMemoryAddress(value));
}

}  // namespace tilescope::trace_plugin
