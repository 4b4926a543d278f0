#pragma once
// A saved trace (.tstrace): everything a view needs to show a traced run with no OpenCL
// at all: the kernel (its source included) and launch, the whole Trace (per-group
// intervals, counters, diagnostics, wrong cells) and measured results when there are any.
// One file, versioned: a text line naming the format and its version, then the content
// as CBOR (nlohmann's binary JSON; compact, and a truncated file fails to parse).
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/kernel/launch_config.h"
#include "core/trace/trace.h"

namespace tilescope {

inline constexpr int kTraceFileVersion = 2;  // 2: a checksum line (issue 23); version 1 is still read

struct TraceFile {
    LaunchConfig launch;  // the kernel as traced (its source after any --drop-barrier), sizes, tile
    Trace trace;
    nlohmann::json measurements = nlohmann::json::array();  // bench records (DESIGN.md), if any were made
    bool operator==(const TraceFile& o) const;
};

// The bytes of a .tstrace file.
std::string serialize_trace_file(const TraceFile& file);

// Reads them back; `name` is used in messages. Throws InputError with one line naming the
// file and what is wrong (not a trace, a newer version, truncated or damaged).
TraceFile parse_trace_file(std::string_view bytes, std::string_view name);

// Writes atomically (a reader never sees half a file); throws InputError.
void save_trace_file(const std::string& path, const TraceFile& file);
// Throws InputError naming `option` and the path when it cannot be read or parsed.
TraceFile load_trace_file(const std::string& path, std::string_view option = "FILE.tstrace");

}  // namespace tilescope
