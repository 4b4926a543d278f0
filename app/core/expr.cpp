#include "core/expr.h"

#include <cctype>
#include <limits>
#include <string>

#include "core/errors.h"

namespace tilescope {
namespace {

// Recursive descent: sum := product (('+'|'-') product)*; product := unary (('*'|'/') unary)*;
// unary := '-' unary | atom; atom := number | name | '(' sum ')'.
class Parser {
public:
    Parser(std::string_view text, const SizeVars& vars) : text_(text), vars_(vars) {}

    int64_t parse() {
        const int64_t v = sum();
        skip_space();
        if (pos_ != text_.size()) fail("unexpected '" + std::string(1, text_[pos_]) + "'");
        return v;
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw InputError("bad expression '" + std::string(text_) + "': " + what +
                         " (accepted: integers, M, N, K, TS, the kernel's parameters, + - * / and parentheses)");
    }
    void skip_space() {
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    }
    bool eat(char c) {
        skip_space();
        if (pos_ < text_.size() && text_[pos_] == c) { ++pos_; return true; }
        return false;
    }
    static int64_t checked(__int128 v, const Parser& p) {
        if (v > std::numeric_limits<int64_t>::max() || v < std::numeric_limits<int64_t>::min())
            p.fail("value overflows 64 bits");
        return static_cast<int64_t>(v);
    }
    int64_t sum() {
        int64_t v = product();
        for (;;) {
            if (eat('+')) v = checked(static_cast<__int128>(v) + product(), *this);
            else if (eat('-')) v = checked(static_cast<__int128>(v) - product(), *this);
            else return v;
        }
    }
    int64_t product() {
        int64_t v = unary();
        for (;;) {
            if (eat('*')) v = checked(static_cast<__int128>(v) * unary(), *this);
            else if (eat('/')) {
                const int64_t d = unary();
                if (d == 0) fail("division by zero");
                v /= d;
            } else return v;
        }
    }
    int64_t unary() {
        if (eat('-')) return checked(-static_cast<__int128>(unary()), *this);
        return atom();
    }
    int64_t atom() {
        skip_space();
        if (pos_ >= text_.size()) fail("ends too early");
        if (eat('(')) {
            const int64_t v = sum();
            if (!eat(')')) fail("missing ')'");
            return v;
        }
        const char c = text_[pos_];
        if (std::isdigit(static_cast<unsigned char>(c))) {
            __int128 v = 0;
            while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
                v = v * 10 + (text_[pos_++] - '0');
                checked(v, *this);
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
            fail("unknown name '" + std::string(name) + "'");
        }
        fail("unexpected '" + std::string(1, c) + "'");
    }

    std::string_view text_;
    const SizeVars& vars_;
    size_t pos_ = 0;
};

}  // namespace

int64_t eval_expr(std::string_view expr, const SizeVars& vars) { return Parser(expr, vars).parse(); }

void check_expr(std::string_view expr, const std::vector<std::string>& params) {
    SizeVars vars{1, 1, 1, 1};
    for (const std::string& p : params) vars.params[p] = 1;
    eval_expr(expr, vars);
}

}  // namespace tilescope
