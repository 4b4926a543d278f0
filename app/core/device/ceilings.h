#pragma once
// The roofline's two ceilings, measured on the device by the small kernels in
// kernels/ceilings/ (never looked up): peak single-precision FLOP/s and global-memory
// bandwidth. Used by `tilescope ceilings`, the benchmark tables (% of peak) and the GUI.
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

}  // namespace tilescope
