#pragma once
// Oclgrind's messages about the traced kernel (races, divergence, invalid accesses),
// kept with where they came from. A kernel with one bug can make Oclgrind report it
// thousands of times (once per address, per work-group): reports that differ only in
// addresses and ids are kept a few times word for word, then counted on the first.
// Depends on run.h; trace_plugin.cpp calls it.
#include <oclgrind/common.h>

#include "run.h"

namespace tilescope::trace_plugin {

void keep_message(Run& run, oclgrind::MessageType type, const char* message);

}  // namespace tilescope::trace_plugin
