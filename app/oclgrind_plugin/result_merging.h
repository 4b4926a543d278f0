#pragma once
// Turning a Run into what the app gets: partial results while groups complete
// (Config::partial) and the final Result at kernelEnd, which merges every worker
// thread's buffers. Depends on run.h; work_groups.cpp and trace_plugin.cpp call it.
#include "run.h"

namespace tilescope::trace_plugin {

// After a work-group completed (`early_done`: one of the early groups): hands what is
// known so far to Config::partial when one is due and no other call is under way.
void send_partial_if_due(Run& run, bool early_done);

// The finished trace: every thread's counts, heatmaps and lines merged, the groups in
// linear order, the detail groups in the order asked. Call once, after the workers have
// joined and with run.partial_mutex held; it moves what the Run collected.
abi::Result merge_result(Run& run);

}  // namespace tilescope::trace_plugin
