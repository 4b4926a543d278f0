#pragma once
// What a saved trace will cost once it is open (issue 32): the inputs the frames rebuild
// (random_matrix, core/device/matrix.h), one detail group's replay (core/trace/
// frame_replay.h), the heatmaps and parts of the hand-out. Charged to the file's budget
// (core/base/input_budget.h) after it is validated and before any view derives anything,
// so a 26 KB file that declares twelve 8192^2 inputs is refused at the door.
#include <cstdint>

namespace tilescope {

struct TraceFile;
struct Trace;
struct GroupTrace;
class InputCost;

// Throws InputTooCostly naming the field ("trace.buffers: the inputs the frames rebuild")
// when the file, with what was charged while reading it, would pass its budget.
void charge_trace_views(const TraceFile& file, InputCost& cost);

// The parts of the estimate, for tests and for docs/reliability.md.
uint64_t rebuilt_input_bytes(const Trace& trace);      // every input matrix, 4 bytes a cell
uint64_t replay_bytes(const Trace& trace, const GroupTrace& group);  // one group's replay
uint64_t replay_steps(const Trace& trace, const GroupTrace& group);

}  // namespace tilescope
