#pragma once
// The roofline's two ceilings, measured on the device by the small kernels in
// kernels/ceilings/ (never looked up): peak single-precision FLOP/s and global-memory
// bandwidth. Used by `tilescope ceilings`, the benchmark tables (% of peak) and the GUI.
#include <vector>

#include "core/device/runner.h"

namespace tilescope {

struct Ceilings {
    double peak_gflops = 0;      // fused multiply-adds in registers, best of the timed runs
    double bandwidth_gbs = 0;    // a float4 copy: bytes read plus bytes written per second
    double flops = 0, bytes = 0; // the work each measurement did
};

// Grows each measurement until one launch takes at least a few milliseconds, so timer
// resolution and launch overhead do not count, and the copy outgrows the caches.
// Throws InputError or Cancelled like Runner::measure.
Ceilings measure_ceilings(Runner& runner, const RunOptions& options);

// The middle of a list of ratios and how far they spread: median, quartiles (the middle half
// lies between q1 and q3) and the extremes. All 0 for an empty list. Pure.
struct RatioSpread {
    double median = 0, q1 = 0, q3 = 0, min = 0, max = 0;
    int count = 0;
};
RatioSpread spread_of(std::vector<double> ratios);

// A rung's share of the peak, timed in pairs (issue 30 item 4). On a machine others load, a
// peak measured in one minute and a rung in another compare two loads, not two kernels. Here
// each pair launches the peak kernel and the rung one after the other (A B, then B A, ...), both
// doing about the same FLOPs, so both see the same moment's load; the share is the median of
// the pairs' own ratios (rung GFLOP/s over peak GFLOP/s), which a burst of load in a few pairs
// does not move.
struct PairedShare {
    Measurement rung;                      // the rung's launches (times_s[i]: pair i), verified
    Measurement peak;                      // the peak kernel's launches (times_s[i]: pair i)
    ProblemSize peak_size;                 // the peak kernel's M*N work-items of K multiply-adds
    double peak_flops = 0;                 // 2*M*N*K
    std::vector<double> peak_gflops, rung_gflops, ratios;  // per pair
    RatioSpread share;                     // of `ratios`
    // The same pairs by CPU time (GFLOP per CPU-second of this process, whose threads run a CPU
    // device's work): what each kernel did with the CPU it got, whoever else ran. Empty where a
    // launch took no CPU time of ours to measure.
    std::vector<double> cpu_ratios;
    RatioSpread cpu_share;
    double peak_median_gflops = 0, rung_median_gflops = 0;
};

// The peak kernel's launch for a rung of `flops`: M*N work-items of K multiply-adds each, about
// as many FLOPs as the rung, K a multiple of what peak_flops.cl steps by (16 * CHAINS). On a
// GPU 512x512 work-items (as measure_ceilings), K from 1024 to 2^22. On a CPU each work-item
// runs K = 16384 (64 trips round its loop) where the FLOPs allow, on at least 8 groups of 64
// work-items a compute unit (`units`; fewer FLOPs shorten K, down to 1024):
// with K = 1024 its set-up and final sum cost as much CPU time again per FLOP (measured on
// PoCL, 2-core Zen 4: 49 against 82 GFLOP per CPU-second), which would lower the peak. Pure.
ProblemSize paired_peak_size(double flops, bool gpu, unsigned units);

// `pairs` timed pairs after `warmup` untimed ones (options.reps and options.warmup are
// ignored). Throws InputError (the rung's limits, build) or Cancelled.
PairedShare measure_paired_share(Runner& runner, const LaunchConfig& rung, int pairs, int warmup, const RunOptions& options);

// Several rungs (one rung at several sizes, as `ceilings --against K --size 1024,1000,1234`),
// each paired with its own peak launch, all timed in the same rounds: round r launches
// peak_1 rung_1 peak_2 rung_2 ... and the reverse on odd rounds (Runner::measure_interleaved),
// so each pair stays back to back and every size meets the same moments. Pairing with the peak
// cancels a load that takes the cores; it cannot cancel one the peak kernel does not feel (it
// touches no memory, so others' memory traffic slows the rung alone). Timed one size after
// the other, such a load falls on whichever size was being timed (issue 30 item 4, cpu8:
// 1234^3 12.7 points below 1024^3 in one run while the peak stayed level); in the same rounds
// it falls on every size alike. One PairedShare per rung, in order. Throws like the above.
std::vector<PairedShare> measure_paired_shares(Runner& runner, const std::vector<LaunchConfig>& rungs, int pairs, int warmup,
                                               const RunOptions& options);

// Pure: a rung's paired share from its launches and its peak's, pair i being the i-th time of
// each: the ratios of GFLOP/s (none where the rung did not verify), the same by CPU time where
// both launches took some, and their spreads. `rung_flops`: the user's product (2*M*N*K).
PairedShare paired_share_of(Measurement peak, Measurement rung, const ProblemSize& peak_size, double rung_flops);

}  // namespace tilescope
