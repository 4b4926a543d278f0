#pragma once
// bench's output formats (docs/architecture.md, "Output contracts"): a JSON list of records, CSV, and the
// terminal table.
#include <string>
#include <vector>

#include "core/device/measurement.h"

namespace tilescope {

std::string measurements_to_json(const std::vector<Measurement>& ms);
std::string measurements_to_csv(const std::vector<Measurement>& ms);
std::string measurement_row(const Measurement& m);  // one line of the terminal table
std::string measurement_header();

}  // namespace tilescope
