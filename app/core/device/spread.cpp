#include "core/device/spread.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tilescope {

GflopsSpread gflops_spread(const Measurement& m) {
    GflopsSpread s;
    if (!(m.gflops > 0) || m.median_s <= 0) return s;
    s.median = m.gflops;
    s.runs = int(m.times_s.size());
    if (m.times_s.empty()) {  // no runs kept: a point, not a range
        s.low = s.high = s.median;
        return s;
    }
    const auto [lo, hi] = std::minmax_element(m.times_s.begin(), m.times_s.end());
    const double flops = m.gflops * m.median_s;  // GFLOP of one launch
    s.high = *lo > 0 ? flops / *lo : s.median;
    s.low = *hi > 0 ? flops / *hi : s.median;
    s.low = std::min(s.low, s.median);  // the median lies inside its runs' range
    s.high = std::max(s.high, s.median);
    return s;
}

bool within_noise(const GflopsSpread& a, const GflopsSpread& b) {
    if (!a.valid() || !b.valid()) return false;
    return a.low <= b.high && b.low <= a.high;
}

Comparison compare_measurements(const GflopsSpread& a, const GflopsSpread& b) {
    Comparison c;
    if (!a.valid() || !b.valid()) return c;
    c.factor = std::max(a.median, b.median) / std::min(a.median, b.median);
    if (within_noise(a, b)) c.ranking = Ranking::within_noise;
    else c.ranking = a.median > b.median ? Ranking::first_faster : Ranking::second_faster;
    return c;
}

Comparison compare_measurements(const Measurement& a, const Measurement& b) {
    return compare_measurements(gflops_spread(a), gflops_spread(b));
}

std::vector<std::vector<size_t>> noise_neighbours(const std::vector<GflopsSpread>& s) {
    std::vector<std::vector<size_t>> out(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        for (size_t j = 0; j < s.size(); ++j)
            if (i != j && within_noise(s[i], s[j])) out[i].push_back(j);
        std::stable_sort(out[i].begin(), out[i].end(), [&](size_t x, size_t y) {
            return std::fabs(s[x].median - s[i].median) < std::fabs(s[y].median - s[i].median);
        });
    }
    return out;
}

namespace {
std::string rate(double v) {
    char b[32];
    std::snprintf(b, sizeof b, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
    return b;
}
}  // namespace

std::string spread_text(const GflopsSpread& s) {
    if (!s.valid()) return "no verified rate";
    return rate(s.median) + " GFLOP/s (" + rate(s.low) + "-" + rate(s.high) + " over " + std::to_string(s.runs) +
           (s.runs == 1 ? " run)" : " runs)");
}

}  // namespace tilescope
