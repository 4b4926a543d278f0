#pragma once
// One measurement's spread and how two measurements compare: the runs' min-max (one time
// per timed launch, Measurement::times_s) as a GFLOP/s range, and whether two ranges are
// apart (one is faster) or overlap (within noise, no ranking). Pure: what the performance
// and compare views draw and say, and what bench prints, come from here.
#include <string>
#include <vector>

#include "core/device/measurement.h"

namespace tilescope {

// GFLOP/s of a verified measurement: at its median time, and at its slowest and fastest
// run. All 0 when it did not verify (no rate is shown for a wrong result).
struct GflopsSpread {
    double median = 0;  // Measurement::gflops
    double low = 0;     // at the slowest run (max of times_s)
    double high = 0;    // at the fastest run (min of times_s)
    int runs = 0;       // timed launches behind it
    bool valid() const { return median > 0; }
};
GflopsSpread gflops_spread(const Measurement& m);

// Two ranges overlap when neither lies wholly above the other (touching counts as overlap).
bool within_noise(const GflopsSpread& a, const GflopsSpread& b);

// The verdict on two measurements: which is faster, or within noise.
enum class Ranking { first_faster, second_faster, within_noise, unknown };
struct Comparison {
    Ranking ranking = Ranking::unknown;  // unknown: one of them has no verified rate
    double factor = 1;                   // faster median / slower median (>= 1); 1 when unknown
};
Comparison compare_measurements(const GflopsSpread& first, const GflopsSpread& second);
Comparison compare_measurements(const Measurement& first, const Measurement& second);

// For each spread, the indices of the others whose ranges overlap its own (invalid ones
// overlap nothing), nearest median first: the bars a view labels "within noise of ...".
std::vector<std::vector<size_t>> noise_neighbours(const std::vector<GflopsSpread>& spreads);

// "3.41 GFLOP/s (3.20-3.55 over 3 runs)": how bench and the views write one.
std::string spread_text(const GflopsSpread& s);

}  // namespace tilescope
