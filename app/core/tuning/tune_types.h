#pragma once
// Tuning's results as plain data, and tune --quick's budget: what the GUI shows of a
// tuning run (through core/tasks/quick_tune.h) without seeing the tuning code.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tilescope {

// tune --quick's wall-time budget in seconds, everywhere it is promised (the CLI's
// --budget default, the GUI's "Tune this device"): "about 2 minutes" at most.
inline constexpr double kQuickTuneBudgetS = 110;

// One point of a sweep: what ran and what came of it.
struct TuneResult {
    int tile = 0;
    std::map<std::string, int64_t> params;
    std::string status;     // "ok" (verified), "wrong" (did not verify), "refused" (limits, build, launch)
    double gflops = 0;      // verified only
    double median_s = 0;
    std::string global, local;  // NDRange as run ("256x128")
    std::string message;    // why it was refused or wrong
};

// A point the type defaults name for tune --quick to look at (issue 30 item 4): measured best
// on one CPU of this type, where the fallback serves every CPU (`also_try` in
// assets/tuning/defaults-cpu.json).
struct TunePoint {
    int tile = 0;
    std::map<std::string, int64_t> params;
    std::string from;  // where it was measured, as the file says
};

// The point quick_tune starts from on `device` at `size`: the best it already has (its
// own, a similar device's, its type's; `note` says which), else the rung's defaults.
struct QuickTuneStart {
    int tile = 0;
    std::map<std::string, int64_t> params;
    std::string note;  // lookup_tuning's note, "" for the rung's defaults
};

// What a quick tuning run came to; `saved` when a verified best was merged into `path`.
struct QuickTuneRun {
    std::vector<TuneResult> results;  // in the order measured
    int best = -1;                    // index into results of the point stored, -1: none
    int start = -1;                   // index into results of the start point, -1: not measured
    std::string verdict;              // one line: the start kept, or what beat it (with the figures)
    bool saved = false;
    std::string path;
    double seconds = 0;
};

}  // namespace tilescope
