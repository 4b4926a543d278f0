#pragma once
// Animations for slides: the phases of one work-group as an animated GIF, one frame per
// barrier interval, each captioned with the interval and the barrier that closes it.
// Paints the view model (group_phase_view) in software, so it needs no display; the
// GUI's --record and its "Record GIF" button both call it.
#include <string>

#include "core/trace/trace.h"
#include "core/trace/view_model.h"

namespace tilescope {

struct PhaseGifOptions {
    int max_width = 720;     // the picture's width in pixels at most (cells shrink to fit)
    int delay_ms = 1200;     // per frame
};

// Writes `path` atomically; returns the number of frames (the group's intervals).
// Throws InputError when the group has no detail in the trace or the file cannot be written.
int write_phase_gif(const Trace& trace, const MatrixRoles& roles, const GroupId& group, const std::string& path,
                    const PhaseGifOptions& options = {});

}  // namespace tilescope
