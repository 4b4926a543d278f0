#pragma once
// A work-group's life on a worker thread: it begins, each barrier closes a barrier
// interval (judging the interval's synthetic sub-group requests and folding its totals
// into the group's and the thread's), and when it completes its summary, detail and
// cache requests are handed to the Run under its lock, followed by progress and partial
// results. Depends on run.h (and result_merging.h for partial results); trace_plugin.cpp
// calls it.
#include "run.h"

namespace tilescope::trace_plugin {

void begin_work_group(Run& run, const oclgrind::WorkGroup* work_group);
void pass_barrier(Run& run, const oclgrind::WorkGroup* work_group);
void complete_work_group(Run& run, const oclgrind::WorkGroup* work_group);

}  // namespace tilescope::trace_plugin
