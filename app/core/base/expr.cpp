#include "core/base/expr.h"

#include <cctype>
#include <limits>
#include <string>

#include "core/base/errors.h"

namespace tilescope {
namespace {

// Recursive descent: sum := product (('+'|'-') product)*; product := unary (('*'|'/'|'%') unary)*;
// unary := '-' unary | atom; atom := number | name | '(' sum ')'. Recursion is bounded by
// kMaxExprDepth, so no input can exhaust the stack.
class Parser {
public:
    // `syntax_only`: names are known but their values are not, so arithmetic errors are
    // not errors of the text (check_expr).
    Parser(std::string_view text, const SizeVars& vars, std::string_view option, bool syntax_only)
        : text_(text), vars_(vars), option_(option), syntax_only_(syntax_only) {}

    int64_t parse() {
        if (text_.size() > kMaxExprChars)
            fail("longer than " + std::to_string(kMaxExprChars) + " characters");
        const int64_t v = sum();
        skip_space();
        if (pos_ != text_.size()) fail("unexpected '" + shown(text_.substr(pos_, 1)) + "'");
        return v;
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw InputError(std::string(option_) + " '" + shown(text_) + "': " + what +
                         " (accepted: integers, M, N, K, TS, the kernel's parameters, + - * / % and parentheses)");
    }
    void skip_space() {
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    }
    bool eat(char c) {
        skip_space();
        if (pos_ < text_.size() && text_[pos_] == c) { ++pos_; return true; }
        return false;
    }
    int64_t checked(__int128 v) const {
        constexpr int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
        if (v > hi || v < lo) {
            if (!syntax_only_) fail("the value overflows 64-bit integers");
            return v > hi ? hi : lo;
        }
        return static_cast<int64_t>(v);
    }
    int64_t divide(int64_t v, int64_t d) const {
        if (d == 0) {
            if (!syntax_only_) fail("division by zero");
            return 0;
        }
        return checked(static_cast<__int128>(v) / d);  // INT64_MIN / -1 overflows
    }
    // The remainder with the sign of v, as in C (so v == (v / d) * d + v % d).
    int64_t remainder(int64_t v, int64_t d) const {
        if (d == 0) {
            if (!syntax_only_) fail("remainder of a division by zero");
            return 0;
        }
        return static_cast<int64_t>(static_cast<__int128>(v) % d);  // in 128 bits: INT64_MIN % -1 is 0
    }
    // Guards every recursive step: parentheses and unary minus nest.
    struct Depth {
        explicit Depth(Parser& p) : p_(p) {
            if (++p_.depth_ > kMaxExprDepth) p_.fail("nested deeper than " + std::to_string(kMaxExprDepth) + " levels");
        }
        ~Depth() { --p_.depth_; }
        Parser& p_;
    };
    int64_t sum() {
        int64_t v = product();
        for (;;) {
            if (eat('+')) v = checked(static_cast<__int128>(v) + product());
            else if (eat('-')) v = checked(static_cast<__int128>(v) - product());
            else return v;
        }
    }
    int64_t product() {
        int64_t v = unary();
        for (;;) {
            if (eat('*')) v = checked(static_cast<__int128>(v) * unary());
            else if (eat('/')) v = divide(v, unary());
            else if (eat('%')) v = remainder(v, unary());
            else return v;
        }
    }
    int64_t unary() {
        if (eat('-')) {
            Depth guard(*this);
            return checked(-static_cast<__int128>(unary()));
        }
        return atom();
    }
    int64_t atom() {
        skip_space();
        if (pos_ >= text_.size()) fail("ends too early");
        if (eat('(')) {
            Depth guard(*this);
            const int64_t v = sum();
            if (!eat(')')) fail("missing ')'");
            return v;
        }
        const char c = text_[pos_];
        if (std::isdigit(static_cast<unsigned char>(c))) {
            __int128 v = 0;
            while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
                v = v * 10 + (text_[pos_++] - '0');
                if (v > std::numeric_limits<int64_t>::max()) fail("a number does not fit 64-bit integers");
            }
            return static_cast<int64_t>(v);
        }
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            const size_t start = pos_;
            while (pos_ < text_.size() &&
                   (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
                ++pos_;
            const std::string_view name = text_.substr(start, pos_ - start);
            if (name == "M") return vars_.M;
            if (name == "N") return vars_.N;
            if (name == "K") return vars_.K;
            if (name == "TS") return vars_.TS;
            if (const auto it = vars_.params.find(name); it != vars_.params.end()) return it->second;
            fail("unknown name '" + shown(name, 40) + "'");
        }
        fail("unexpected '" + shown(text_.substr(pos_, 1)) + "'");
    }

    std::string_view text_;
    const SizeVars& vars_;
    std::string_view option_;
    bool syntax_only_ = false;
    size_t pos_ = 0;
    int depth_ = 0;
};

}  // namespace

int64_t eval_expr(std::string_view expr, const SizeVars& vars, std::string_view option) {
    return Parser(expr, vars, option, false).parse();
}

bool expr_names(std::string_view expr, std::string_view name) {
    auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (size_t i = 0; i < expr.size();) {
        if (!word(expr[i])) { ++i; continue; }
        size_t end = i;
        while (end < expr.size() && word(expr[end])) ++end;
        if (expr.substr(i, end - i) == name) return true;
        i = end;
    }
    return false;
}

void check_expr(std::string_view expr, const std::vector<std::string>& params, std::string_view option) {
    SizeVars vars{1, 1, 1, 1};
    for (const std::string& p : params) vars.params[p] = 1;
    Parser(expr, vars, option, true).parse();
}

}  // namespace tilescope
