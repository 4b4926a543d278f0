#pragma once
// Animations for slides: the phases of one work-group as an animated GIF, one frame per
// part (barrier interval), each captioned (wrapped to the width, never cut) with its phase,
// part, closing barrier and traffic; A, B and C with the group's two local arrays right of
// C, every colour from the one palette (core/teach/palette.h), and a colour key below.
// Paints the view model (group_phase_view) in software, so it needs no display; the
// GUI's --record and its "Record GIF" button both call it.
#include <string>
#include <vector>

#include "core/trace/trace.h"
#include "core/trace/view_model.h"

namespace tilescope {

struct PhaseGifOptions {
    int max_width = 960;     // the picture's width in pixels at most (cells shrink to fit)
    int min_width = 560;     // at least (room for the caption)
    int delay_ms = 1200;     // per frame
};

// Breaks `text` at spaces into lines at most `width` px wide in stb_easy_font at `scale`; a
// word wider than a line is a line of its own (never cut).
std::vector<std::string> wrap_caption(const std::string& text, int width, int scale);

// Writes `path` atomically; returns the number of frames (the group's intervals).
// Throws InputError when the group has no detail in the trace or the file cannot be written.
int write_phase_gif(const Trace& trace, const MatrixRoles& roles, const GroupId& group, const std::string& path,
                    const PhaseGifOptions& options = {});

}  // namespace tilescope
