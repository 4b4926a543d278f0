#pragma once
// Animations for slides: the phases of one work-group as an animated GIF, one frame per
// part (barrier interval) and, in a part that reads local memory, one per iteration, as the
// slides step them ("Phase 0 Use for Block (0,0) (iteration 1)"). Each frame is captioned
// (wrapped to the width, never cut) with the slides' title, its phase, part and iteration,
// closing barrier, traffic and the zeros written; A, B and C with the group's two local
// arrays right of C, each cell named where it is large enough (M0,1; a local cell: what it
// holds), a tile past the matrix's edge drawn whole with its outside cells grey and "0",
// every colour from the one palette (core/teach/palette.h), and a colour key below.
// Paints the view model (group_phase_view) and the frame model (core/trace/frame.h) in
// software, so it needs no display; the GUI's --record and its "Record GIF" button call it.
#include <string>
#include <vector>

#include "core/trace/trace.h"
#include "core/trace/view_model.h"

namespace tilescope {

struct PhaseGifOptions {
    int max_width = 960;     // the picture's width in pixels at most (cells shrink to fit)
    int min_width = 560;     // at least (room for the caption)
    int delay_ms = 1200;     // per frame
    // At most this many frames with one per iteration; a longer run (256^3 at TS 32: over a
    // thousand) gets one frame per part instead, as a GIF of every iteration would not be watched.
    int max_frames = 240;
};

// Breaks `text` at spaces into lines at most `width` px wide in stb_easy_font at `scale`; a
// word wider than a line is a line of its own (never cut).
std::vector<std::string> wrap_caption(const std::string& text, int width, int scale);

// The GUI's "Record GIF" file name: "tilescope-tiled-64-group-1-2.gif". The kernel's name may come
// from a saved trace (any text, "/" and ".." included), so it is cut down to letters, digits and
// dashes: the name never leaves the folder it is put in.
std::string phase_gif_file_name(const Trace& trace, const GroupId& group);

// Writes `path` atomically (mode 0644, less what the umask takes away); returns the number of
// frames (a part with iterations counts one per iteration).
// Throws InputError when the group has no detail in the trace or the file cannot be written.
int write_phase_gif(const Trace& trace, const MatrixRoles& roles, const GroupId& group, const std::string& path,
                    const PhaseGifOptions& options = {});

}  // namespace tilescope
