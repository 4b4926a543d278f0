#pragma once
// What a saved trace must satisfy before any view, export or analysis touches it (issue
// 23): every count, shape and coordinate checked, with checked arithmetic, against the
// others and against the limits below. A file from someone else is untrusted input; the
// views index with these numbers, so a damaged or hostile file must be refused here.
#include <cstdint>

namespace tilescope {

struct TraceFile;

// Limits a saved trace must keep (the emulator's own limits, with room to spare).
inline constexpr uint64_t kMaxTraceFileBytes = uint64_t(256) << 20;  // 256 MiB
inline constexpr int kMaxTraceNesting = 32;                 // CBOR containers; a real trace nests ~8 deep
inline constexpr uint64_t kMaxTraceMatrixCells = uint64_t(1) << 26;  // per matrix or buffer (8192 x 8192)
inline constexpr uint64_t kMaxTraceSide = uint64_t(1) << 26;         // M, N, K, rows, cols
inline constexpr uint64_t kMaxTraceGroupItems = 1024;       // work-items per work-group (Oclgrind's limit)
inline constexpr uint64_t kMaxTraceLocalBytes = 64 * 1024;  // local memory per work-group (Oclgrind allows 32 KiB)
inline constexpr uint64_t kMaxTraceGroups = uint64_t(1) << 20;  // work-groups per launch
inline constexpr int kMaxTraceTile = 1024;
inline constexpr int kMaxTraceLine = 10'000'000;            // source lines named by barriers, diagnostics, counters

// Throws InputError "<field>: <what>; accepted: ..." (no file name: the caller adds it).
void validate_trace_file(const TraceFile& file);

}  // namespace tilescope
