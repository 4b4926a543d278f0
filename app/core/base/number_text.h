#pragma once
// Numbers as people read them in tables and sentences, written once for every view.
#include <cstdint>
#include <string>

namespace tilescope {

// 1234567 -> "1,234,567"
std::string grouped(uint64_t v);
// 3.14159, 2 -> "3.14"
std::string fixed(double v, int digits = 2);

}  // namespace tilescope
