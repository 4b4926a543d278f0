#pragma once
// `tilescope frame`'s output formats for a Frame (core/trace/frame.h): the JSON object of
// docs/architecture.md ("Output contracts", frame --json) and a readable text version.
#include <string>

#include <nlohmann/json.hpp>

#include "core/trace/frame.h"

namespace tilescope {

// {phases, phase, part, parts, iteration, iterations, iteration_rule, title, group,
//  interval, has_log, cells: {KEY: [{row, col, role, label}]}, arrays, sums, item}.
nlohmann::json frame_to_json(const Frame& frame);

// The frame's title in the slides' words, its cells by role, the C cells' sums and the
// work-item's story.
std::string frame_text(const Frame& frame);

}  // namespace tilescope
