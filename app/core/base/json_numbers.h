#pragma once
// Whole numbers read from documents that come from anywhere (saved traces, tuning files,
// lessons): nlohmann's get<int>() narrows 2^32+4 to 4 and get<int64_t>() of 1e300 is
// undefined, so every integer such a document gives is read through one of these, which
// take only an integer that fits and say what was found otherwise.
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "core/base/errors.h"

namespace tilescope {

// `v` as a whole number in [lo, hi]; an InputError naming `what` when it is not an integer
// or lies outside.
template <class Json>
int64_t whole_number(const Json& v, int64_t lo, int64_t hi, const std::string& what = "a number") {
    const auto outside = [&](const std::string& found) {
        return InputError(found + " where " + what + " belongs; accepted: a whole number from " + std::to_string(lo) +
                          " to " + std::to_string(hi));
    };
    if (v.is_number_unsigned()) {
        const uint64_t u = v.template get<uint64_t>();
        if (u > uint64_t(std::numeric_limits<int64_t>::max()) || int64_t(u) > hi || int64_t(u) < lo)
            throw outside(std::to_string(u));
        return int64_t(u);
    }
    if (v.is_number_integer()) {
        const int64_t i = v.template get<int64_t>();
        if (i < lo || i > hi) throw outside(std::to_string(i));
        return i;
    }
    throw outside(v.is_number() ? "a fraction" : std::string("a ") + v.type_name());
}

// `v` as a T when it is an integer that T holds (any unsigned 64-bit value for uint64_t).
template <class T, class Json>
T integer_as(const Json& v, const std::string& what = "a number") {
    static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>);
    if constexpr (std::is_same_v<T, uint64_t>) {
        if (v.is_number_unsigned()) return v.template get<uint64_t>();
        return T(whole_number(v, 0, std::numeric_limits<int64_t>::max(), what));
    } else {
        return T(whole_number(v, int64_t(std::numeric_limits<T>::min()), int64_t(std::numeric_limits<T>::max()), what));
    }
}

}  // namespace tilescope
