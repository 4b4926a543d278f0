#pragma once
// Integer expressions over the problem sizes, as used by kernel metadata and --arg:
//   E := integer | M | N | K | TS | E+E | E-E | E*E | E/E | (E) | -E
// Division truncates like C. Errors throw InputError naming the expression.
#include <cstdint>
#include <string_view>

namespace tilescope {

struct SizeVars {
    int64_t M = 0, N = 0, K = 0, TS = 0;
};

int64_t eval_expr(std::string_view expr, const SizeVars& vars);

// Checks syntax only (all variables set to 1); throws InputError when malformed.
void check_expr(std::string_view expr);

}  // namespace tilescope
