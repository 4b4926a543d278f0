#include "core/device/matrix.h"

#include <algorithm>
#include <atomic>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <random>
#include <thread>

#include "core/base/errors.h"

namespace tilescope {

HostMatrix random_matrix(const std::string& name, int64_t rows, int64_t cols, Layout layout, uint64_t seed) {
    HostMatrix m{rows, cols, layout, std::vector<float>(static_cast<size_t>(rows * cols))};
    uint64_t h = seed * 0x9E3779B97F4A7C15ull;
    for (char ch : name) h = (h ^ static_cast<unsigned char>(ch)) * 0x100000001B3ull;
    h ^= static_cast<uint64_t>(rows) * 31 + static_cast<uint64_t>(cols);
    std::mt19937_64 rng(h);
    // 24 random bits scaled into [-1, 1): exact in float, cheap for large matrices.
    for (float& v : m.data) v = static_cast<float>(static_cast<int64_t>(rng() >> 40) - (1 << 23)) / (1 << 23);
    return m;
}

double verification_tolerance(int64_t k) {
    return std::max(1e-5, 8.0 * std::sqrt(static_cast<double>(k)) * FLT_EPSILON);
}

std::string Verification::summary() const {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s: max relative error %.2e (bound %.2e) over %lld of %lld elements",
                  verified ? "verified" : "NOT VERIFIED", max_rel_error, tolerance,
                  static_cast<long long>(checked_elements), static_cast<long long>(total_elements));
    std::string s = buf;
    if (!verified && first_bad_row >= 0)
        s += "; worst at C(" + std::to_string(first_bad_row) + "," + std::to_string(first_bad_col) + ")";
    return s;
}

VerificationSample verification_sample(int64_t M, int64_t N, int64_t K) {
    VerificationSample s;
    s.full = static_cast<double>(M) * N * K <= 2147483648.0;
    if (s.full) {
        for (int64_t i = 0; i < M; ++i) s.rows.push_back(i);
        return s;
    }
    std::mt19937_64 rng(12345);
    s.rows = {0, M - 1};
    s.cols = {0, N - 1};
    for (int i = 0; i < 62; ++i) s.rows.push_back(static_cast<int64_t>(rng() % M));
    for (int i = 0; i < 62; ++i) s.cols.push_back(static_cast<int64_t>(rng() % N));
    std::sort(s.rows.begin(), s.rows.end());
    s.rows.erase(std::unique(s.rows.begin(), s.rows.end()), s.rows.end());
    std::sort(s.cols.begin(), s.cols.end());
    s.cols.erase(std::unique(s.cols.begin(), s.cols.end()), s.cols.end());
    return s;
}

Verification verify_product(const HostMatrix& a, const HostMatrix& b, const HostMatrix& c,
                            const std::function<bool()>& cancelled) {
    const int64_t M = c.rows, N = c.cols, K = a.cols;
    Verification v;
    v.tolerance = verification_tolerance(K);
    v.total_elements = M * N;

    const VerificationSample sample = verification_sample(M, N, K);
    const bool full = sample.full;
    const std::vector<int64_t>& rows = sample.rows;
    const std::vector<int64_t>& cols = sample.cols;

    // Columns of B contiguous (as doubles) make the inner product stream.
    auto column_of_b = [&](int64_t j, std::vector<double>& out) {
        out.resize(static_cast<size_t>(K));
        for (int64_t k = 0; k < K; ++k) out[k] = b.at(k, j);
    };
    // C(i, j) against its reference sum; the worst relative error so far kept with its place.
    auto judge = [&](int64_t i, int64_t j, double sum, double mag, double& worst, int64_t& wi, int64_t& wj) {
        const double got = c.at(i, j);
        double err = std::fabs(got - sum) / std::max(mag, 1e-30);
        if (!std::isfinite(got)) err = INFINITY;
        if (err > worst) { worst = err; wi = i; wj = j; }
    };
    auto check_element = [&](int64_t i, int64_t j, const std::vector<double>& arow, const std::vector<double>& bcol,
                             double& worst, int64_t& wi, int64_t& wj) {
        double sum = 0, mag = 0;
        for (int64_t k = 0; k < K; ++k) {
            const double p = arow[k] * bcol[k];
            sum += p;
            mag += std::fabs(p);
        }
        judge(i, j, sum, mag, worst, wi, wj);
    };
    // The sampled path's operands: A's chosen rows (row by row) and B's chosen columns (k by k), as doubles.
    std::vector<double> arows, bcols_sel;
    if (!full) {
        arows.resize(rows.size() * static_cast<size_t>(K));
        bcols_sel.resize(static_cast<size_t>(K) * cols.size());
        for (size_t r = 0; r < rows.size(); ++r)
            for (int64_t k = 0; k < K; ++k) arows[r * K + k] = a.at(rows[r], k);
        for (int64_t k = 0; k < K; ++k)
            for (size_t q = 0; q < cols.size(); ++q) bcols_sel[k * cols.size() + q] = b.at(k, cols[q]);
    }

    const unsigned nthreads = std::max(1u, std::min(32u, std::thread::hardware_concurrency()));
    std::vector<double> worst(nthreads, 0);
    std::vector<int64_t> wi(nthreads, -1), wj(nthreads, -1), counted(nthreads, 0);
    std::atomic<bool> stop{false};
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < nthreads; ++t) {
        pool.emplace_back([&, t] {
            std::vector<double> arow(static_cast<size_t>(K));
            auto load_row = [&](int64_t i) { for (int64_t k = 0; k < K; ++k) arow[k] = a.at(i, k); };
            if (full) {
                // Blocks of columns per thread keep B's columns in cache across rows.
                const int64_t block = 64;
                std::vector<std::vector<double>> bcols;
                for (int64_t j0 = static_cast<int64_t>(t) * block; j0 < N; j0 += static_cast<int64_t>(nthreads) * block) {
                    if (stop || (cancelled && cancelled())) { stop = true; return; }
                    const int64_t j1 = std::min(N, j0 + block);
                    bcols.resize(static_cast<size_t>(j1 - j0));
                    for (int64_t j = j0; j < j1; ++j) column_of_b(j, bcols[j - j0]);
                    for (int64_t i = 0; i < M; ++i) {
                        load_row(i);
                        for (int64_t j = j0; j < j1; ++j) check_element(i, j, arow, bcols[j - j0], worst[t], wi[t], wj[t]);
                        counted[t] += j1 - j0;
                    }
                }
            } else {
                // Sampled: whole chosen rows, then whole chosen columns. Each element's terms are
                // added in k order, as check_element adds them; B is read once for the rows (a
                // block of columns at a time, every chosen row beside it) and A once for the
                // columns, so no loop walks B down a column (session 48: 4.5 s a check at
                // 985x8361x8908 on 16 cores, most of a trial's time, went there).
                const size_t R = rows.size(), Q = cols.size();
                constexpr int64_t kBlock = 128;
                std::vector<double> sum(R * kBlock), mag(R * kBlock), bk(kBlock);
                for (int64_t j0 = static_cast<int64_t>(t) * kBlock; j0 < N; j0 += static_cast<int64_t>(nthreads) * kBlock) {
                    if (stop || (cancelled && cancelled())) { stop = true; return; }
                    const int64_t jn = std::min(kBlock, N - j0);
                    std::fill(sum.begin(), sum.end(), 0.0);
                    std::fill(mag.begin(), mag.end(), 0.0);
                    for (int64_t k = 0; k < K; ++k) {
                        for (int64_t jj = 0; jj < jn; ++jj) bk[jj] = b.at(k, j0 + jj);
                        for (size_t r = 0; r < R; ++r) {
                            const double av = arows[r * K + k];
                            double* s = &sum[r * kBlock];
                            double* m = &mag[r * kBlock];
                            for (int64_t jj = 0; jj < jn; ++jj) {
                                const double p = av * bk[jj];
                                s[jj] += p;
                                m[jj] += std::fabs(p);
                            }
                        }
                    }
                    for (size_t r = 0; r < R; ++r)
                        for (int64_t jj = 0; jj < jn; ++jj)
                            judge(rows[r], j0 + jj, sum[r * kBlock + jj], mag[r * kBlock + jj], worst[t], wi[t], wj[t]);
                    counted[t] += static_cast<int64_t>(R) * jn;
                }
                std::vector<double> cs(Q), cm(Q);
                int64_t seen = 0;
                for (int64_t i = t; i < M; i += nthreads) {
                    if (std::binary_search(rows.begin(), rows.end(), i)) continue;  // checked above
                    if (++seen % 64 == 0 && (stop || (cancelled && cancelled()))) { stop = true; return; }
                    load_row(i);
                    std::fill(cs.begin(), cs.end(), 0.0);
                    std::fill(cm.begin(), cm.end(), 0.0);
                    for (int64_t k = 0; k < K; ++k) {
                        const double av = arow[k];
                        const double* bq = &bcols_sel[k * Q];
                        for (size_t q = 0; q < Q; ++q) {
                            const double p = av * bq[q];
                            cs[q] += p;
                            cm[q] += std::fabs(p);
                        }
                    }
                    for (size_t q = 0; q < Q; ++q) judge(i, cols[q], cs[q], cm[q], worst[t], wi[t], wj[t]);
                    counted[t] += static_cast<int64_t>(Q);
                }
            }
        });
    }
    for (auto& th : pool) th.join();
    if (stop) throw Cancelled();
    for (unsigned t = 0; t < nthreads; ++t) {
        v.checked_elements += counted[t];
        if (worst[t] > v.max_rel_error) {
            v.max_rel_error = worst[t];
            v.first_bad_row = wi[t];
            v.first_bad_col = wj[t];
        }
    }
    v.verified = v.max_rel_error <= v.tolerance;
    if (v.verified) v.first_bad_row = v.first_bad_col = -1;
    return v;
}

}  // namespace tilescope
