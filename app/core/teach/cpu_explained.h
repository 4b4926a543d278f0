#pragma once
// "The CPU lesson explains this machine" (issue 21): naive against tiled measured on a CPU
// device, and why the winner won here, in a few plain sentences built only from what
// tilescope measures (the two runs and their spread), traces (global requests, local
// traffic, barriers on the emulator) and models (the cpu cache profile's L1: its size,
// lines and ways), each number labelled with its kind. It sets the Osnabrück slides' claim
// (local memory hurts on a CPU) beside this machine's answer. Pure: the performance view,
// lesson 7 and `tilescope bench ... --explain` show the same sentences.
#include <optional>
#include <string>
#include <vector>

#include "core/caches/cache_model.h"
#include "core/device/device_info.h"
#include "core/device/measurement.h"
#include "core/device/spread.h"
#include "core/teach/ladder_explained.h"

namespace tilescope {

struct CpuExplainInput {
    Measurement naive, tiled;  // verified, on `device`, at one size
    DeviceInfo device;
    std::string cache_profile = "cpu";  // the profile `cache` comes from
    CacheParams cache;                  // its figures (modelled: the L1 per core, its lines and ways)
    // Both rungs traced on the emulator (and their requests run through the cache model) at
    // a size the emulator can trace; absent when no trace was made.
    std::optional<LadderRungFigures> naive_traced, tiled_traced;
    int traced_size = 0;  // M = N = K of those traces
};

enum class CpuWinner { tiled, naive, within_noise, unknown };
const char* to_string(CpuWinner winner);  // "tiled", "naive", "within noise", "unknown"

// The cache profile's figures that name the mechanism, at the measured size (all modelled).
struct CpuCacheFigures {
    uint64_t l1_bytes = 0, line_bytes = 0, ways = 0, sets = 0;
    uint64_t column_stride_bytes = 0;  // one step of naive's walk down a column of B: N floats
    uint64_t column_lines = 0;         // lines that walk touches: K
    uint64_t column_lines_kept = 0;    // at most this many of them fit the L1 (the sets they map to x ways)
    uint64_t naive_group_bytes = 0;    // a naive work-group's working set: its rows of A and its strip of B
    uint64_t tiled_phase_bytes = 0;    // a tiled phase's: its two local tiles and the global lines it copies
    bool column_walk_misses() const { return column_lines > column_lines_kept; }
    bool naive_exceeds_l1() const { return naive_group_bytes > l1_bytes; }
};
CpuCacheFigures cpu_cache_figures(const CpuExplainInput& input);

struct CpuExplanation {
    CpuWinner winner = CpuWinner::unknown;
    Comparison comparison;          // tiled first, naive second
    bool slide_agrees = false;      // this machine agrees with the slide (naive faster)
    CpuCacheFigures figures;
    std::vector<std::string> sentences;  // measured, the slide, how PoCL runs a group, why (modelled), traced
    std::vector<std::string> summary;    // the same in three short sentences, for a projector: measured, the slide, why
    std::string text() const;            // the sentences, one paragraph
};

// Throws nothing; with a missing rate (a result that did not verify) it says so.
CpuExplanation explain_cpu(const CpuExplainInput& input);

// The slide the lesson cites (seed 004, Universität Osnabrück, 2013): 1024x1024, TILE_SIZE
// 16, Intel Core i7 2700K, 3,333 ms without local memory and 3,850 ms with it.
inline constexpr double kSlideNaiveMs = 3333, kSlideTiledMs = 3850;

}  // namespace tilescope
