#pragma once
// Host-side matrices and the CPU reference that every result is checked against.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/kernel/kernel_spec.h"

namespace tilescope {

struct HostMatrix {
    int64_t rows = 0, cols = 0;
    Layout layout = Layout::RowMajor;
    std::vector<float> data;

    size_t index(int64_t r, int64_t c) const {
        return static_cast<size_t>(layout == Layout::RowMajor ? r * cols + c : c * rows + r);
    }
    float at(int64_t r, int64_t c) const { return data[index(r, c)]; }
    bool operator==(const HostMatrix&) const = default;
};

// Seeded uniform values in [-1, 1): the same name and shape give the same matrix on
// every run and every device.
HostMatrix random_matrix(const std::string& name, int64_t rows, int64_t cols, Layout layout, uint64_t seed = 1);

struct Verification {
    bool verified = false;
    double max_rel_error = 0;    // max |c - ref| / sum_k |a_ik * b_kj| over checked elements
    double tolerance = 0;        // the bound max_rel_error must stay under
    int64_t checked_elements = 0;
    int64_t total_elements = 0;
    int64_t first_bad_row = -1, first_bad_col = -1;  // the worst element when not verified
    std::string summary() const; // one line for terminals
    bool operator==(const Verification&) const = default;
};

// Relative-error bound for a K-long float dot product: generous against rounding, tight
// enough that a missing or extra term of the sum shows up.
double verification_tolerance(int64_t k);

// Which elements verify_product checks: every row (all of each) when the product has up to
// 2^31 multiply-adds; above that the first and last rows and columns and a seeded random
// sample of 62 more of each (sorted, without repeats), each row and column checked whole.
struct VerificationSample {
    bool full = false;
    std::vector<int64_t> rows, cols;  // cols empty when full
};
VerificationSample verification_sample(int64_t M, int64_t N, int64_t K);

// Checks C = A*B with double accumulation. Every element when the product is small
// (up to 2^31 multiply-adds); above that, all of the first and last rows and columns plus
// a seeded random sample, so that an 8192^3 check takes seconds, not minutes.
// Uses all hardware threads.
Verification verify_product(const HostMatrix& a, const HostMatrix& b, const HostMatrix& c,
                            const std::function<bool()>& cancelled = {});

}  // namespace tilescope
