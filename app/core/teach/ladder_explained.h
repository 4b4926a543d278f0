#pragma once
// "The ladder explained" (issue 11): rung by rung, what changed from the rung before —
// traced global requests, modelled L1/L2/DRAM bytes, traced local traffic and barriers,
// measured time — so each measured speed-up sits beside the traffic change that explains
// it, or beside the note that no traffic changed and something else did. Pure.
#include <optional>
#include <string>
#include <vector>

#include "core/caches/cache_model.h"

namespace tilescope {

struct Trace;

enum class FigureKind { Traced, Modelled, Measured };
const char* to_string(FigureKind kind);  // "traced", "modelled", "measured"

// One rung's figures, each with its kind.
struct LadderRungFigures {
    std::string kernel;
    int tile = 0;
    double global_requests = 0;  // traced: coalescing requests on global memory
    double local_bytes = 0;      // traced: local loads + stores
    double barriers = 0;         // traced: barrier releases
    std::optional<double> l1_bytes, l2_bytes, dram_bytes;  // modelled (l1: load sectors requested)
    std::optional<double> measured_s;                      // measured on a real device
    // The held-out check of the modelled figures for this kernel and profile (issue 31),
    // from the compiled-in held-out table; "" when it has none for them.
    std::string cache_check;
};

LadderRungFigures ladder_figures(const Trace& trace, const CacheReport* caches, std::optional<double> measured_s);

struct LadderChange {
    std::string what;  // "global requests", "L2 bytes", "time", ...
    FigureKind kind = FigureKind::Traced;
    double before = 0, after = 0;
    double ratio() const { return before > 0 ? after / before : (after > 0 ? 1e9 : 1.0); }
};

struct LadderStep {
    std::string from, to;               // kernel names
    std::vector<LadderChange> changes;  // every figure both rungs have, in a fixed order
    std::string note;                   // the one-line reading of the step
    std::string check;                  // the rung's held-out check, shown beside the note
};

// Rung i against rung i-1, for i >= 1. A figure counts as changed beyond 10%.
std::vector<LadderStep> explain_ladder(const std::vector<LadderRungFigures>& rungs);

}  // namespace tilescope
