#pragma once
// Integer expressions over the problem sizes, as used by kernel metadata and --arg:
//   E := integer | M | N | K | TS | PARAM | E+E | E-E | E*E | E/E | (E) | -E
// PARAM is one of a kernel's tunable parameters (TSK, WPTM, ...; see KernelSpec::params).
// Division truncates like C. Arithmetic is checked: overflow of 64 bits, division by
// zero and INT64_MIN/-1 are errors, never wrapped values or signals. Expressions longer
// than kMaxExprChars or nested deeper than kMaxExprDepth are refused before evaluation.
// Errors throw InputError naming the option (e.g. "--global") and the expression.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tilescope {

inline constexpr size_t kMaxExprChars = 4096;
inline constexpr int kMaxExprDepth = 256;  // parentheses and unary minus signs, nested

struct SizeVars {
    int64_t M = 0, N = 0, K = 0, TS = 0;
    std::map<std::string, int64_t, std::less<>> params = {};  // tunable parameters by name
};

// `option`: what the user typed the expression into, for the message ("--global").
int64_t eval_expr(std::string_view expr, const SizeVars& vars, std::string_view option = "expression");

// Checks syntax only; throws InputError when malformed (arithmetic errors that depend on
// the sizes are left to eval_expr). `params`: names of tunable parameters the expression
// may use besides M, N, K, TS.
// Whether the expression names `name` (an identifier, e.g. "TS"); syntax is not checked.
bool expr_names(std::string_view expr, std::string_view name);

void check_expr(std::string_view expr, const std::vector<std::string>& params = {},
                std::string_view option = "expression");

}  // namespace tilescope
