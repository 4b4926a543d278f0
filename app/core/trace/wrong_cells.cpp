#include "core/trace/wrong_cells.h"

#include <cmath>

#include "core/base/errors.h"

namespace tilescope {

std::vector<Cell> find_wrong_cells(const HostMatrix& a, const HostMatrix& b, const HostMatrix& c,
                                   const std::function<bool()>& cancelled) {
    const int64_t M = c.rows, N = c.cols, K = a.cols;
    const double tolerance = verification_tolerance(K);
    std::vector<Cell> wrong;
    std::vector<double> arow(static_cast<size_t>(K));
    for (int64_t i = 0; i < M; ++i) {
        if (cancelled && cancelled()) throw Cancelled();
        for (int64_t k = 0; k < K; ++k) arow[k] = a.at(i, k);
        for (int64_t j = 0; j < N; ++j) {
            double sum = 0, magnitude = 0;
            for (int64_t k = 0; k < K; ++k) {
                const double p = arow[k] * double(b.at(k, j));
                sum += p;
                magnitude += std::fabs(p);
            }
            const double got = c.at(i, j);
            if (!std::isfinite(got) || std::fabs(got - sum) / std::max(magnitude, 1e-30) > tolerance)
                wrong.push_back({i, j});
        }
    }
    return wrong;
}

}  // namespace tilescope
