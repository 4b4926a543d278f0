#pragma once
// The student hand-out: one self-contained HTML page (no network, no server) that plays
// a saved trace. The core computes everything shown (what is highlighted per group and
// phase, through the same view model as the GUI; the counters; hover facts) and embeds
// it as data; the page's script only paints it.
#include <string>

#include <nlohmann/json.hpp>

#include "core/io/trace_file.h"

namespace tilescope {

struct HandoutOptions {
    size_t max_groups = 4096;           // work-groups whose phases are embedded (those with detail, in order)
    int64_t max_hover_cells = 1 << 18;  // owners of C's cells are embedded up to this many cells
    // The slides' frames (core/trace/frame.h: cells with roles and labels, sums, stories)
    // for the first max_frame_groups detail groups. Each gets one frame per iteration of
    // its use parts while all frames together stay within max_frame_cells cells; a group
    // beyond that gets one frame per part (the page says so), one beyond max_frame_groups
    // only the rectangles of its parts.
    size_t max_frame_groups = 16;
    int64_t max_frame_cells = 300000;
    size_t max_story_items = 512;       // work-item stories embedded, over all groups
};

// The data the page paints (exposed for tests): matrices, groups and their phases as
// rectangles, counters, diagnostics, source.
nlohmann::json handout_data(const TraceFile& file, const HandoutOptions& options = {});

// The whole page.
std::string handout_html(const TraceFile& file, const HandoutOptions& options = {});

// The page (html_template.cpp): assets/handout/handout.html with handout.css and
// handout.js inline and `data` in its data element, escaped so that no text in it (a
// "</script>" or "<!--" in a kernel's comment) can end the element early.
std::string handout_page(const nlohmann::json& data);

// `data` as the text of a <script type="application/json"> element: JSON with every
// "<", ">" and "&" written as a \u escape (exposed for tests).
std::string handout_json_for_script(const nlohmann::json& data);

}  // namespace tilescope
