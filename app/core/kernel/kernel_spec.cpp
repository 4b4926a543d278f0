#include "core/kernel/kernel_spec.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/base/errors.h"
#include "core/base/untrusted_file.h"
#include "core/base/expr.h"

namespace tilescope {
namespace {

constexpr const char* kArgSyntax =
    "accepted: NAME=int:E, NAME=matrix:ExE[:rowmajor|colmajor][:in|out], NAME=local:E";

std::vector<std::string> split(std::string_view text, char sep) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (;;) {
        const size_t at = text.find(sep, start);
        parts.emplace_back(text.substr(start, at == std::string_view::npos ? text.npos : at - start));
        if (at == std::string_view::npos) return parts;
        start = at + 1;
    }
}

// Every identifier in `text` (a SPEC or an expression), in order.
std::vector<std::string> identifiers(std::string_view text) {
    std::vector<std::string> names;
    for (size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (!(std::isalpha(c) || c == '_')) { ++i; continue; }
        size_t j = i;
        while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) ++j;
        names.emplace_back(text.substr(i, j - i));
        i = j;
    }
    return names;
}

bool is_identifier(std::string_view s) {
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    return true;
}

}  // namespace

ArgSpec parse_arg_spec(std::string_view spec) {
    // The names an expression may use beyond M, N, K and TS are the kernel's parameters, which
    // a SPEC alone does not know (a rung's shapes may use them: splitk's W): any name passes
    // here, and validate() checks them against the kernel's parameters.
    const std::vector<std::string> params = identifiers(spec);
    const std::string text(spec);
    auto bad = [&](const std::string& why) -> InputError {
        return InputError("--arg '" + shown(text) + "': " + why + "; " + kArgSyntax);
    };
    const size_t eq = text.find('=');
    if (eq == std::string::npos) throw bad("missing '='");
    ArgSpec arg;
    arg.name = text.substr(0, eq);
    if (!is_identifier(arg.name)) throw bad("'" + shown(arg.name, 40) + "' is not a parameter name");
    const std::vector<std::string> parts = split(std::string_view(text).substr(eq + 1), ':');
    const std::string& kind = parts[0];
    const std::string option = "--arg " + shown(arg.name, 40);
    try {
        if (kind == "int" || kind == "local") {
            if (parts.size() != 2 || parts[1].empty()) throw bad(kind + " takes one expression");
            arg.kind = kind == "int" ? ArgSpec::Kind::Int : ArgSpec::Kind::Local;
            arg.value = parts[1];
            check_expr(arg.value, params, option);
        } else if (kind == "matrix") {
            if (parts.size() < 2 || parts.size() > 4) throw bad("matrix takes a shape and up to two flags");
            const std::vector<std::string> shape = split(parts[1], 'x');
            if (shape.size() != 2 || shape[0].empty() || shape[1].empty())
                throw bad("matrix shape must be ROWSxCOLS");
            arg.kind = ArgSpec::Kind::Matrix;
            arg.rows = shape[0];
            arg.cols = shape[1];
            check_expr(arg.rows, params, option);
            check_expr(arg.cols, params, option);
            for (size_t i = 2; i < parts.size(); ++i) {
                if (parts[i] == "rowmajor") arg.layout = Layout::RowMajor;
                else if (parts[i] == "colmajor") arg.layout = Layout::ColMajor;
                else if (parts[i] == "in") arg.access = Access::In;
                else if (parts[i] == "out") arg.access = Access::Out;
                else throw bad("unknown flag '" + shown(parts[i], 40) + "'");
            }
        } else {
            throw bad("unknown kind '" + shown(kind, 40) + "'");
        }
    } catch (const InputError& e) {
        const std::string what = e.what();
        if (what.rfind("--arg", 0) == 0) throw;
        throw bad(what);
    }
    return arg;
}

std::string to_string(const ArgSpec& arg) {
    switch (arg.kind) {
    case ArgSpec::Kind::Int: return arg.name + "=int:" + arg.value;
    case ArgSpec::Kind::Local: return arg.name + "=local:" + arg.value;
    case ArgSpec::Kind::Matrix:
        return arg.name + "=matrix:" + arg.rows + "x" + arg.cols +
               (arg.layout == Layout::ColMajor ? ":colmajor" : ":rowmajor") +
               (arg.access == Access::Out ? ":out" : ":in");
    }
    return arg.name;
}

CheckSpec parse_check_spec(std::string_view spec) {
    const std::string text(spec);
    const size_t eq = text.find('='), star = text.find('*');
    CheckSpec check;
    if (eq != std::string::npos && star != std::string::npos && star > eq) {
        check.c = text.substr(0, eq);
        check.a = text.substr(eq + 1, star - eq - 1);
        check.b = text.substr(star + 1);
    }
    if (!is_identifier(check.c) || !is_identifier(check.a) || !is_identifier(check.b))
        throw InputError("--check '" + shown(text) + "': accepted: C=A*B with three matrix argument names");
    return check;
}

const ArgSpec* KernelSpec::find_arg(std::string_view arg_name) const {
    for (const ArgSpec& a : args)
        if (a.name == arg_name) return &a;
    return nullptr;
}

const TunableParam* KernelSpec::find_param(std::string_view param_name) const {
    for (const TunableParam& p : params)
        if (p.name == param_name) return &p;
    return nullptr;
}

std::vector<std::string> KernelSpec::param_names() const {
    std::vector<std::string> names;
    for (const TunableParam& p : params) names.push_back(p.name);
    return names;
}

bool KernelSpec::uses_tile() const {
    std::vector<std::string> exprs = global;
    exprs.insert(exprs.end(), local.begin(), local.end());
    for (const auto& d : defines) exprs.push_back(d.second);
    auto add_args = [&](const std::vector<ArgSpec>& list) {
        for (const ArgSpec& a : list) exprs.insert(exprs.end(), {a.value, a.rows, a.cols});
    };
    add_args(args);
    if (then) {
        exprs.insert(exprs.end(), then->global.begin(), then->global.end());
        exprs.insert(exprs.end(), then->local.begin(), then->local.end());
        add_args(then->args);
    }
    for (const std::string& e : exprs)
        if (expr_names(e, "TS")) return true;
    return false;
}

const ClosedForm* ClosedForms::find(std::string_view quantity) const {
    for (const ClosedForm& f : forms)
        if (f.quantity == quantity) return &f;
    return nullptr;
}

std::string program_source(const KernelSpec& spec) {
    if (spec.prelude.empty()) return spec.source;
    std::string text = spec.prelude;
    if (text.back() != '\n') text.push_back('\n');
    return text + "#line 1\n" + spec.source;
}

void validate(const KernelSpec& spec) {
    const std::string who = "kernel '" + spec.name + "'";
    if (spec.entry.empty()) throw InputError(who + ": no entry point (--entry NAME)");
    if (spec.global.empty() || spec.global.size() > 3)
        throw InputError(who + ": --global needs 1 to 3 comma-separated expressions, got " +
                         std::to_string(spec.global.size()));
    if (spec.local.size() != spec.global.size())
        throw InputError(who + ": --local needs as many expressions as --global (" +
                         std::to_string(spec.global.size()) + "), got " + std::to_string(spec.local.size()));
    std::set<std::string> param_seen;
    for (const TunableParam& p : spec.params) {
        if (!is_identifier(p.name) || p.name == "M" || p.name == "N" || p.name == "K" || p.name == "TS")
            throw InputError(who + ": parameter '" + p.name + "' must be a new identifier (not M, N, K or TS)");
        if (!param_seen.insert(p.name).second) throw InputError(who + ": parameter '" + p.name + "' given twice");
        if (p.default_value < 0) throw InputError(who + ": parameter '" + p.name + "' needs a default of at least 0");
    }
    const std::vector<std::string> pnames = spec.param_names();
    for (const auto& e : spec.global) check_expr(e, pnames, "--global");
    for (const auto& e : spec.local) check_expr(e, pnames, "--local");
    for (const auto& [name, e] : spec.defines) {
        if (!is_identifier(name)) throw InputError("--define '" + shown(name + "=" + e) + "': accepted: NAME=E");
        check_expr(e, pnames, "--define " + shown(name, 40));
    }
    if (!spec.closed_forms.forms.empty()) {
        std::vector<std::string> known = pnames;
        for (const auto& [name, e] : spec.closed_forms.terms) {
            if (!is_identifier(name) || name == "M" || name == "N" || name == "K" || name == "TS" ||
                std::find(known.begin(), known.end(), name) != known.end())
                throw InputError(who + ": closed-form term '" + name + "' must be a new identifier");
            check_expr(e, known);
            known.push_back(name);
        }
        for (size_t i = 0; i < kRequiredClosedForms; ++i)
            if (!spec.closed_forms.find(kClosedFormQuantities[i]))
                throw InputError(who + ": closed_forms needs global_load_bytes, global_store_bytes, "
                                       "local_load_bytes, local_store_bytes and barriers; '" +
                                 std::string(kClosedFormQuantities[i]) + "' is missing");
        std::set<std::string> seen;
        for (const ClosedForm& f : spec.closed_forms.forms) {
            if (std::find(std::begin(kClosedFormQuantities), std::end(kClosedFormQuantities), f.quantity) ==
                    std::end(kClosedFormQuantities) ||
                !seen.insert(f.quantity).second)
                throw InputError(who + ": closed_forms: '" + f.quantity + "' is unknown or given twice");
            check_expr(f.expr, known);
        }
    }
    if (spec.then) {
        const FollowUpKernel& t = *spec.then;
        if (!is_identifier(t.entry)) throw InputError(who + ": \"then\" needs an entry point");
        if (t.global.empty() || t.global.size() > 3 || t.local.size() != t.global.size())
            throw InputError(who + ": \"then\" needs 1 to 3 global and as many local expressions");
        for (const auto& e : t.global) check_expr(e, pnames, "--global");
        for (const auto& e : t.local) check_expr(e, pnames, "--local");
        for (const ArgSpec& a : t.args) {
            const ArgSpec* same = spec.find_arg(a.name);
            if (!same || same->kind != a.kind)
                throw InputError(who + ": \"then\" argument '" + shown(a.name, 40) + "' is not an argument of the rung");
        }
        validate(follow_up_alone(spec));
    }
    for (const ArgSpec& a : spec.args) {
        const std::string option = "--arg " + shown(a.name, 40);
        if (a.kind == ArgSpec::Kind::Matrix) {
            check_expr(a.rows, pnames, option);
            check_expr(a.cols, pnames, option);
        } else {
            check_expr(a.value, pnames, option);
        }
    }
    std::set<std::string> names;
    for (const ArgSpec& a : spec.args)
        if (!names.insert(a.name).second) throw InputError(who + ": argument '" + shown(a.name, 40) + "' given twice");
    if (spec.check) {
        for (const std::string* n : {&spec.check->c, &spec.check->a, &spec.check->b}) {
            const ArgSpec* a = spec.find_arg(*n);
            if (!a || a->kind != ArgSpec::Kind::Matrix)
                throw InputError("--check names '" + shown(*n, 40) + "', which is not a matrix --arg");
        }
    }
}

KernelSpec load_custom_kernel(const CustomKernelOptions& o) {
    namespace fs = std::filesystem;
    KernelSpec spec;
    std::error_code ec;
    if (!fs::is_regular_file(o.source_path, ec))
        throw InputError("--source '" + shown_path(o.source_path) + "': no such file");
    // Refused before reading: a compiler given a huge source can take gigabytes and hours.
    if (const auto bytes = fs::file_size(o.source_path, ec); !ec && bytes > kMaxSourceBytes)
        throw InputError("--source '" + shown_path(o.source_path) + "': " + std::to_string(bytes) +
                         " bytes; accepted: a kernel source of at most " + std::to_string(kMaxSourceBytes) +
                         " bytes (1 MiB)");
    // Checked again on the opened file: it may have been swapped or grown since.
    spec.source = read_untrusted_file(o.source_path, kMaxSourceBytes, "--source '" + shown_path(o.source_path) + "'");
    // Saved traces and JSON carry the source as text: refused here rather than there.
    if (!valid_utf8(spec.source))
        throw InputError("--source '" + shown_path(o.source_path) + "': not valid UTF-8 text; accepted: an OpenCL C source in UTF-8 (or ASCII)");
    spec.source_name = fs::path(o.source_path).filename().string();
    spec.name = fs::path(o.source_path).stem().string();
    spec.title = spec.name + " (custom)";
    spec.custom = true;
    // A file, maybe from someone else, though typed by the user: trusted (it was asked for by
    // name) but built and run on a device, and traced, only in a child process with a time and
    // a memory limit, as a saved trace's kernel is (core/device/contained_measure.h).
    spec.carried_by = "--source '" + shown_path(o.source_path) + "'";
    spec.trusted = true;
    spec.entry = o.entry;
    if (spec.entry.empty()) throw InputError("--source needs --entry NAME (the kernel function)");
    // What a saved trace accepts back (core/io/trace_file_check.cpp): a trace saved here opens.
    if (spec.entry.size() > kMaxKernelNameChars)
        throw InputError("--entry '" + shown(spec.entry) + "': " + std::to_string(spec.entry.size()) +
                         " characters; accepted: a kernel function name of at most " + std::to_string(kMaxKernelNameChars));
    if (spec.name.size() > kMaxKernelNameChars)
        throw InputError("--source '" + shown_path(o.source_path) + "': a file name of " + std::to_string(spec.name.size()) +
                         " characters; accepted: at most " + std::to_string(kMaxKernelNameChars));
    if (o.global.empty()) throw InputError("--source needs --global E[,E[,E]]");
    if (o.local.empty()) throw InputError("--source needs --local E[,E[,E]]");
    for (const auto& g : o.global)
        for (auto& e : split(g, ',')) spec.global.push_back(e);
    for (const auto& l : o.local)
        for (auto& e : split(l, ',')) spec.local.push_back(e);
    for (const auto& d : o.defines) {
        const size_t eq = d.find('=');
        if (eq == std::string::npos || eq == 0)
            throw InputError("--define '" + shown(d) + "': accepted: NAME=E");
        spec.defines.emplace_back(d.substr(0, eq), d.substr(eq + 1));
    }
    if (o.args.empty()) throw InputError("--source needs one --arg SPEC per kernel parameter; " +
                                         std::string(kArgSyntax));
    for (const auto& a : o.args) spec.args.push_back(parse_arg_spec(a));
    if (!o.check.empty()) {
        spec.check = parse_check_spec(o.check);
        // The product's result is an output even when its spec did not say so.
        for (ArgSpec& a : spec.args)
            if (a.name == spec.check->c) a.access = Access::Out;
    }
    validate(spec);
    return spec;
}

std::optional<std::vector<std::string>> kernel_parameter_names(std::string_view source, std::string_view entry) {
    // Comments and string literals become spaces, so no name inside them is taken for code.
    std::string code(source);
    for (size_t i = 0; i < code.size(); ++i) {
        if (code.compare(i, 2, "//") == 0) {
            while (i < code.size() && code[i] != '\n') code[i++] = ' ';
        } else if (code.compare(i, 2, "/*") == 0) {
            const size_t end = code.find("*/", i + 2);
            const size_t stop = end == std::string::npos ? code.size() : end + 2;
            for (; i < stop; ++i)
                if (code[i] != '\n') code[i] = ' ';
            --i;
        } else if (code[i] == '"') {
            for (code[i++] = ' '; i < code.size() && code[i] != '"' && code[i] != '\n'; ++i) code[i] = ' ';
            if (i < code.size() && code[i] == '"') code[i] = ' ';
        }
    }
    auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    if (entry.empty()) return std::nullopt;
    for (size_t at = code.find(entry); at != std::string::npos; at = code.find(entry, at + 1)) {
        if ((at > 0 && ident(code[at - 1])) || (at + entry.size() < code.size() && ident(code[at + entry.size()]))) continue;
        // the token before is "void" (a kernel function's return type)
        size_t b = at;
        while (b > 0 && std::isspace(static_cast<unsigned char>(code[b - 1]))) --b;
        if (b < 4 || code.compare(b - 4, 4, "void") != 0 || (b > 4 && ident(code[b - 5]))) continue;
        size_t open = at + entry.size();
        while (open < code.size() && std::isspace(static_cast<unsigned char>(code[open]))) ++open;
        if (open >= code.size() || code[open] != '(') continue;
        // the list up to the matching ')', split at commas outside brackets
        std::vector<std::string> names;
        int depth = 0;
        std::string last;  // the last identifier of the parameter being read
        bool any = false;
        for (size_t i = open + 1; i < code.size(); ++i) {
            const char c = code[i];
            if (c == '(' || c == '[') ++depth;
            else if ((c == ')' || c == ']') && depth > 0) --depth;
            else if ((c == ',' || c == ')') && depth == 0) {
                if (!last.empty() && !(c == ')' && !any && last == "void")) names.push_back(last);
                last.clear();
                any = true;
                if (c == ')') return names;
                continue;
            }
            if (ident(c) && depth == 0 && (i == 0 || !ident(code[i - 1]))) {
                size_t j = i;
                while (j < code.size() && ident(code[j])) ++j;
                last = code.substr(i, j - i);
                i = j - 1;
            }
        }
        return std::nullopt;  // no closing parenthesis
    }
    return std::nullopt;
}

KernelSpec follow_up_alone(const KernelSpec& spec) {
    if (!spec.then) throw InputError("kernel '" + spec.name + "' has no second kernel");
    KernelSpec k = spec;
    k.then.reset();
    k.name = spec.name + ".then";
    k.title = spec.title + " (its second kernel, " + spec.then->entry + ")";
    k.entry = spec.then->entry;
    k.global = spec.then->global;
    k.local = spec.then->local;
    k.args = spec.then->args;
    k.closed_forms = spec.then->closed_forms;
    k.check.reset();
    return k;
}

}  // namespace tilescope
