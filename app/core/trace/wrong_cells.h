#pragma once
// Which cells of C a kernel got wrong: every one, not only the worst (the GUI marks them
// and `trace --json` lists them), judged by the same bound as verify_product.
#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/device/matrix.h"

namespace tilescope {

using Cell = std::array<int64_t, 2>;  // (row, col)

// Every (row, col) of `c` whose value differs from A*B (double accumulation) by more than
// verification_tolerance(K) relative to sum_k |a_ik * b_kj|, or is not finite; row order.
// Compares every element, so meant for traced sizes (up to a few 256^3).
std::vector<Cell> find_wrong_cells(const HostMatrix& a, const HostMatrix& b, const HostMatrix& c,
                                   const std::function<bool()>& cancelled = {});

}  // namespace tilescope
