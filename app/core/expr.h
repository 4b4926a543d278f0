#pragma once
// Integer expressions over the problem sizes, as used by kernel metadata and --arg:
//   E := integer | M | N | K | TS | PARAM | E+E | E-E | E*E | E/E | (E) | -E
// PARAM is one of a kernel's tunable parameters (TSK, WPTM, ...; see KernelSpec::params).
// Division truncates like C. Errors throw InputError naming the expression.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope {

struct SizeVars {
    int64_t M = 0, N = 0, K = 0, TS = 0;
    std::map<std::string, int64_t, std::less<>> params = {};  // tunable parameters by name
};

int64_t eval_expr(std::string_view expr, const SizeVars& vars);

// Checks syntax only (all variables set to 1); throws InputError when malformed.
// `params`: names of tunable parameters the expression may use besides M, N, K, TS.
void check_expr(std::string_view expr, const std::vector<std::string>& params = {});

}  // namespace tilescope
