#include "core/kernel/launch_config.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>
#include <limits>

#include "core/base/errors.h"

namespace tilescope {

std::string ProblemSize::label() const {
    if (M == N && N == K) return std::to_string(M);
    return std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
}

ProblemSize parse_size(std::string_view text, std::string_view option) {
    // Each side up to 2^20, so that a long K (64x64x131072) can be asked for; each matrix
    // (MxK, KxN, MxN) below 2^31 elements, because the rungs index their rows with 32-bit ints.
    // The device's memory is checked later, against the buffers the launch needs.
    auto bad = [&](const std::string& why) {
        return InputError(std::string(option) + " '" + shown(text) + "': " + why +
                          "; accepted: S or MxNxK with positive integers up to 1048576, each of M*K, K*N and "
                          "M*N below 2^31 elements");
    };
    std::vector<int64_t> values;
    size_t start = 0;
    for (;;) {
        const size_t x = text.find('x', start);
        const std::string_view part = text.substr(start, x == std::string_view::npos ? text.npos : x - start);
        int64_t v = 0;
        const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
        if (part.empty() || ec != std::errc() || end != part.data() + part.size()) throw bad("not a size");
        if (v <= 0) throw bad("sizes must be positive");
        if (v > kMaxSizeSide) throw bad("too large");
        values.push_back(v);
        if (x == std::string_view::npos) break;
        start = x + 1;
    }
    if (values.size() != 1 && values.size() != 3) throw bad("give one or three sizes");
    const ProblemSize size = values.size() == 1 ? ProblemSize{values[0], values[0], values[0]}
                                                : ProblemSize{values[0], values[1], values[2]};
    const std::pair<const char*, int64_t> matrices[] = {
        {"A (MxK)", size.M * size.K}, {"B (KxN)", size.K * size.N}, {"C (MxN)", size.M * size.N}};
    for (const auto& [name, elements] : matrices)
        if (elements > kMaxMatrixElements)
            throw bad(std::string(name) + " would have " + std::to_string(elements) + " elements, too many");
    return size;
}

uint64_t ResolvedArg::bytes() const {
    switch (spec.kind) {
    case ArgSpec::Kind::Int: return sizeof(int32_t);
    case ArgSpec::Kind::Local: return static_cast<uint64_t>(value) * sizeof(float);
    case ArgSpec::Kind::Matrix: return static_cast<uint64_t>(rows) * cols * sizeof(float);
    }
    return 0;
}

const ResolvedArg* ResolvedLaunch::find(std::string_view name) const {
    for (const ResolvedArg& a : args)
        if (a.spec.name == name) return &a;
    return nullptr;
}

static std::string dims_text(const std::array<size_t, 3>& v, int dims) {
    std::string s;
    for (int i = 0; i < dims; ++i) s += (i ? "x" : "") + std::to_string(v[i]);
    return s;
}
std::string ResolvedLaunch::global_text() const { return dims_text(global, dims); }
std::string ResolvedLaunch::local_text() const { return dims_text(local, dims); }

std::string params_text(const KernelSpec& kernel, const std::map<std::string, int64_t>& params) {
    std::string out;
    for (const TunableParam& p : kernel.params) {
        const auto it = params.find(p.name);
        out += (out.empty() ? "" : " ") + p.name + "=" + std::to_string(it == params.end() ? p.default_value : it->second);
    }
    return out;
}

std::string changed_params_text(const KernelSpec& kernel, const std::map<std::string, int64_t>& params) {
    std::string out;
    for (const TunableParam& p : kernel.params)
        if (const auto it = params.find(p.name); it != params.end() && it->second != p.default_value)
            out += (out.empty() ? "" : " ") + p.name + "=" + std::to_string(it->second);
    return out;
}

std::string compared_params_text(const KernelSpec& kernel, const std::map<std::string, int64_t>& params,
                                 const std::map<std::string, int64_t>& other) {
    std::string out;
    for (const TunableParam& p : kernel.params) {
        const auto it = params.find(p.name);
        const int64_t mine = it != params.end() ? it->second : p.default_value;
        const auto ot = other.find(p.name);
        const bool differs = ot != other.end() && ot->second != mine;
        if (mine != p.default_value || differs) out += (out.empty() ? "" : " ") + p.name + "=" + std::to_string(mine);
    }
    return out;
}

std::pair<std::string, int64_t> parse_param(const KernelSpec& kernel, std::string_view text, std::string_view option) {
    const size_t eq = text.find('=');
    const std::string name(text.substr(0, eq == std::string_view::npos ? text.size() : eq));
    const std::string accepted = kernel.params.empty()
                                     ? "kernel '" + kernel.name + "' has no tunable parameters"
                                     : "accepted: NAME=V with NAME one of " + params_text(kernel, {}) + " (defaults shown)";
    auto bad = [&] { return InputError(std::string(option) + " '" + shown(text) + "': " + accepted); };
    if (eq == std::string_view::npos || !kernel.find_param(name)) throw bad();
    const std::string value(text.substr(eq + 1));
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (value.empty() || ec != std::errc() || end != value.data() + value.size() || v < 0) throw bad();
    return {name, v};
}

// Bounds that keep every size, product and byte count of a launch inside 64 bits; the
// real limits (the device's memory, the host's RAM) are checked against exact figures
// later (Runner::check_limits, the trace estimate).
constexpr int64_t kMaxElements = int64_t(1) << 46;    // per matrix or local:E argument
constexpr uint64_t kMaxWorkItems = uint64_t(1) << 40; // whole NDRange

ResolvedLaunch resolve(const LaunchConfig& config) {
    const KernelSpec& k = config.kernel;
    // The shape of the spec first: nothing below may index past a list (a file's launch is
    // checked in full by validate_launch; this keeps every other path from a crash).
    auto shape = [&](const std::vector<std::string>& global, const std::vector<std::string>& local, const char* which) {
        if (global.empty() || global.size() > 3 || local.size() != global.size())
            throw InputError("kernel '" + shown(k.name, 60) + "': " + which + " NDRange has " + std::to_string(global.size()) +
                             " global and " + std::to_string(local.size()) +
                             " local sizes; accepted: 1 to 3 global sizes and as many local ones");
    };
    shape(k.global, k.local, "its");
    if (k.then) shape(k.then->global, k.then->local, "its second kernel's");
    if (k.check)
        for (const std::string* n : {&k.check->c, &k.check->a, &k.check->b}) {
            const ArgSpec* a = k.find_arg(*n);
            if (!a || a->kind != ArgSpec::Kind::Matrix)
                throw InputError("kernel '" + shown(k.name, 60) + "': its check names '" + shown(*n, 40) +
                                 "', which is not one of its matrix arguments");
        }
    if (config.tile <= 0)
        throw InputError("--tile " + std::to_string(config.tile) + ": the tile size must be a positive integer");
    SizeVars vars{config.size.M, config.size.N, config.size.K, config.tile};
    for (const TunableParam& p : k.params) vars.params[p.name] = p.default_value;
    for (const auto& [name, value] : config.params) {
        if (!k.find_param(name))
            throw InputError("--param " + name + "=" + std::to_string(value) + ": kernel '" + k.name +
                             "' has no parameter '" + name + "'" +
                             (k.params.empty() ? std::string(" (it has none)") : "; its parameters: " + params_text(k, {})));
        if (value < 0)
            throw InputError("--param " + name + "=" + std::to_string(value) + ": accepted: an integer of at least 0");
        vars.params[name] = value;
    }
    ResolvedLaunch r;
    for (const auto& [name, value] : vars.params) r.params[name] = value;
    // One NDRange: the kernel's, or its second kernel's (KernelSpec::then).
    auto ndrange = [&](const std::vector<std::string>& global, const std::vector<std::string>& local,
                       std::array<size_t, 3>& rg, std::array<size_t, 3>& rl, std::array<size_t, 3>* groups) {
        uint64_t work_items = 1;
        for (size_t d = 0; d < global.size(); ++d) {
            const int64_t g = eval_expr(global[d], vars, "--global"), l = eval_expr(local[d], vars, "--local");
            if (g <= 0 || l <= 0)  // the expressions too: "global 0 and local 0" alone left reg2d at tile 3 unexplained
                throw InputError("kernel '" + k.name + "': dimension " + std::to_string(d) + " has global " +
                                 std::to_string(g) + " and local " + std::to_string(l) + " (global " + shown(global[d], 60) +
                                 ", local " + shown(local[d], 60) + " at TS=" + std::to_string(config.tile) +
                                 "); both must be positive" + (k.custom ? "" : "; accepted: a larger tile"));
            if (g % l != 0)
                throw InputError("kernel '" + k.name + "': global size " + std::to_string(g) + " in dimension " +
                                 std::to_string(d) + " is not a multiple of the local size " + std::to_string(l) +
                                 "; round it up, e.g. ((N+TS-1)/TS)*TS");
            if (__builtin_mul_overflow(work_items, static_cast<uint64_t>(g), &work_items) || work_items > kMaxWorkItems)
                throw InputError("--global " + shown(global[d]) + ": kernel '" + k.name + "' would launch more than " +
                                 std::to_string(kMaxWorkItems) + " work-items; accepted: at most 2^40 in all");
            rg[d] = static_cast<size_t>(g);
            rl[d] = static_cast<size_t>(l);
            if (groups) (*groups)[d] = static_cast<size_t>(g / l);
        }
    };
    r.dims = static_cast<int>(k.global.size());
    ndrange(k.global, k.local, r.global, r.local, &r.groups);
    if (k.then) {
        r.then_dims = static_cast<int>(k.then->global.size());
        ndrange(k.then->global, k.then->local, r.then_global, r.then_local, nullptr);
    }
    for (const auto& [name, e] : k.defines)
        r.build_options += "-D " + name + "=" + std::to_string(eval_expr(e, vars, "--define " + shown(name, 40))) + " ";
    for (const ArgSpec& a : k.args) {
        ResolvedArg ra;
        ra.spec = a;
        if (a.kind == ArgSpec::Kind::Matrix) {
            ra.rows = eval_expr(a.rows, vars, "--arg " + shown(a.name, 40));
            ra.cols = eval_expr(a.cols, vars, "--arg " + shown(a.name, 40));
            if (ra.rows <= 0 || ra.cols <= 0)
                throw InputError("--arg " + shown(to_string(a)) + ": the matrix would be " + std::to_string(ra.rows) +
                                 "x" + std::to_string(ra.cols) + "; both must be positive");
            int64_t elements = 0;
            if (__builtin_mul_overflow(ra.rows, ra.cols, &elements) || elements > kMaxElements)
                throw InputError("--arg " + shown(to_string(a)) + ": the matrix would be " + std::to_string(ra.rows) +
                                 "x" + std::to_string(ra.cols) + " floats; accepted: at most 2^46 elements");
            r.buffer_bytes += ra.bytes();  // at most 2^48 per argument: no sum of them wraps
        } else {
            ra.value = eval_expr(a.value, vars, "--arg " + shown(a.name, 40));
            if (a.kind == ArgSpec::Kind::Local) {
                if (ra.value <= 0 || ra.value > kMaxElements)
                    throw InputError("--arg " + shown(to_string(a)) + ": local size is " + std::to_string(ra.value) +
                                     " floats; accepted: 1 to 2^46 (the device's local memory is checked later)");
                r.local_arg_bytes += ra.bytes();
            } else if (ra.value < std::numeric_limits<int32_t>::min() || ra.value > std::numeric_limits<int32_t>::max()) {
                // The kernel receives an OpenCL int: a wider value would arrive truncated.
                throw InputError("--arg " + shown(to_string(a)) + ": the value " + std::to_string(ra.value) +
                                 " does not fit a 32-bit int; accepted: -2147483648 to 2147483647");
            }
        }
        r.args.push_back(ra);
    }
    r.flops = 2.0 * static_cast<double>(config.size.M) * config.size.N * config.size.K;
    if (k.check) {
        // A custom kernel's product may not be MxNxK: count the flops of what it checks.
        const ResolvedArg *c = r.find(k.check->c), *a = r.find(k.check->a), *b = r.find(k.check->b);
        if (a->cols != b->rows || c->rows != a->rows || c->cols != b->cols)
            throw InputError("--check " + k.check->c + "=" + k.check->a + "*" + k.check->b + ": shapes " +
                             std::to_string(c->rows) + "x" + std::to_string(c->cols) + " = " +
                             std::to_string(a->rows) + "x" + std::to_string(a->cols) + " * " +
                             std::to_string(b->rows) + "x" + std::to_string(b->cols) + " do not multiply");
        r.flops = 2.0 * static_cast<double>(c->rows) * c->cols * a->cols;
    }
    return r;
}

namespace {

[[noreturn]] void bad_field(const std::string& field, const std::string& what) { throw InputError(field + ": " + what); }

bool identifier(std::string_view s) {
    if (s.empty() || s.size() > kMaxKernelNameChars || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
        return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    return true;
}

// One kernel function of the launch (the kernel itself, or its second kernel): its NDRange
// evaluated and its arguments against the function's parameters.
// `shared`: the other kernel function's parameters (a rung of two launches binds one list of
// arguments to both by name), which this one's arguments may name too.
void check_function(const std::string& f, const KernelSpec& k, const std::string& entry, const std::vector<std::string>& global,
                    const std::vector<std::string>& local, const std::vector<ArgSpec>& args, const SizeVars& vars,
                    const std::vector<std::string>& shared = {}) {
    if (!identifier(entry)) bad_field(f + ".entry", "'" + shown(entry, 40) + "'; accepted: the name of a kernel function");
    if (global.empty() || global.size() > 3)
        bad_field(f + ".global", std::to_string(global.size()) + " sizes; accepted: 1 to 3 (one per dimension)");
    if (local.size() != global.size())
        bad_field(f + ".local", std::to_string(local.size()) + " sizes for " + std::to_string(global.size()) +
                                    " global ones; accepted: as many local sizes as global ones");
    uint64_t items = 1, group = 1;
    for (size_t d = 0; d < global.size(); ++d) {
        const std::string D = "[" + std::to_string(d) + "]";
        const int64_t g = eval_expr(global[d], vars, f + ".global" + D);
        const int64_t l = eval_expr(local[d], vars, f + ".local" + D);
        if (g < 1 || g > int64_t(kMaxWorkItems))
            bad_field(f + ".global" + D, std::to_string(g) + "; accepted: 1 to 2^40");
        if (l < 1 || l > 1024) bad_field(f + ".local" + D, std::to_string(l) + "; accepted: 1 to 1024 work-items");
        if (g % l != 0)
            bad_field(f + ".local" + D, std::to_string(l) + " does not divide the global size " + std::to_string(g) +
                                            "; accepted: a divisor of it");
        if (__builtin_mul_overflow(items, uint64_t(g), &items) || items > kMaxWorkItems)
            bad_field(f + ".global", "more than 2^40 work-items in all; accepted: at most 2^40");
        group *= uint64_t(l);
        if (group > 1024) bad_field(f + ".local", "more than 1024 work-items per work-group; accepted: at most 1024");
    }
    // The arguments bind to the function's parameters by name: one each, no other.
    const std::optional<std::vector<std::string>> params = kernel_parameter_names(program_source(k), entry);
    if (!params) bad_field(f + ".entry", "no kernel function '" + shown(entry, 40) + "' in the source");
    if (args.empty() && !params->empty()) bad_field(f + ".args", "none; accepted: one per parameter of '" + shown(entry, 40) + "'");
    // A parameter named by a macro (warp_tile's OUT: C or W by a define) binds to what the
    // preprocessor makes of it: such a parameter, and any argument, cannot be told apart here.
    const std::string text = program_source(k);
    auto is_macro = [&](const std::string& name) {
        for (const auto& [d, e] : k.defines)
            if (d == name) return true;
        for (size_t at = text.find("#define"); at != std::string::npos; at = text.find("#define", at + 7)) {
            size_t i = at + 7;
            while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
            if (text.compare(i, name.size(), name) == 0 &&
                (i + name.size() == text.size() || !(std::isalnum(static_cast<unsigned char>(text[i + name.size()])) || text[i + name.size()] == '_')))
                return true;
        }
        return false;
    };
    bool macro_params = false;
    for (const std::string& p : *params) macro_params |= is_macro(p);
    std::set<std::string> seen;
    for (const ArgSpec& a : args) {
        const std::string fa = f + ".args '" + shown(a.name, 40) + "'";
        if (!seen.insert(a.name).second) bad_field(fa, "given twice");
        if (!macro_params && std::find(params->begin(), params->end(), a.name) == params->end() &&
            std::find(shared.begin(), shared.end(), a.name) == shared.end())
            bad_field(fa, "'" + shown(entry, 40) + "' has no parameter of that name");
        if (a.kind == ArgSpec::Kind::Matrix) {
            const int64_t rows = eval_expr(a.rows, vars, fa + " rows"), cols = eval_expr(a.cols, vars, fa + " cols");
            int64_t cells = 0;
            if (rows < 1 || cols < 1 || __builtin_mul_overflow(rows, cols, &cells) || cells > kMaxElements)
                bad_field(fa, std::to_string(rows) + " x " + std::to_string(cols) + "; accepted: a positive shape of at most 2^46 elements");
        } else {
            const int64_t v = eval_expr(a.value, vars, fa);
            if (a.kind == ArgSpec::Kind::Local && (v < 1 || v > kMaxElements))
                bad_field(fa, "a local store of " + std::to_string(v) + " floats; accepted: 1 to 2^46");
            if (a.kind == ArgSpec::Kind::Int && (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()))
                bad_field(fa, std::to_string(v) + "; accepted: a 32-bit int");
        }
    }
    for (const std::string& p : *params)
        if (!seen.count(p) && !is_macro(p)) bad_field(f + ".args", "none for parameter '" + shown(p, 40) + "' of '" + shown(entry, 40) + "'");
}

}  // namespace

void validate_launch(const LaunchConfig& c) {
    const KernelSpec& k = c.kernel;
    if (k.name.empty() || k.name.size() > kMaxKernelNameChars)
        bad_field("launch.kernel.name", std::to_string(k.name.size()) + " characters; accepted: 1 to " + std::to_string(kMaxKernelNameChars));
    if (k.source.empty() && k.library.empty()) bad_field("launch.kernel.source", "empty; accepted: the kernel's OpenCL C");
    if (c.tile < 1 || c.tile > 1024) bad_field("launch.tile", std::to_string(c.tile) + "; accepted: 1 to 1024");
    for (const ProblemSize& s : {c.size})
        if (s.M < 1 || s.N < 1 || s.K < 1 || s.M > (int64_t(1) << 26) || s.N > (int64_t(1) << 26) || s.K > (int64_t(1) << 26))
            bad_field("launch.size", s.label() + "; accepted: M, N and K from 1 to 2^26");
    SizeVars vars{c.size.M, c.size.N, c.size.K, c.tile};
    std::vector<std::string> pnames;
    for (const TunableParam& p : k.params) {
        const std::string fp = "launch.kernel.params '" + shown(p.name, 40) + "'";
        if (!identifier(p.name) || p.name == "M" || p.name == "N" || p.name == "K" || p.name == "TS")
            bad_field(fp, "not a new name; accepted: an identifier other than M, N, K and TS");
        if (vars.params.count(p.name)) bad_field(fp, "given twice");
        if (p.default_value < 0 || p.default_value > (int64_t(1) << 40)) bad_field(fp, "default " + std::to_string(p.default_value) + "; accepted: 0 to 2^40");
        vars.params[p.name] = p.default_value;
        pnames.push_back(p.name);
    }
    for (const auto& [name, value] : c.params) {
        const std::string fp = "launch.params '" + shown(name, 40) + "'";
        if (!k.find_param(name))
            bad_field(fp, "the kernel has no such parameter; accepted: " + (k.params.empty() ? std::string("none") : params_text(k, {})));
        if (value < 0 || value > (int64_t(1) << 40)) bad_field(fp, std::to_string(value) + "; accepted: 0 to 2^40");
        vars.params[name] = value;
    }
    for (const auto& [name, e] : k.defines) {
        if (!identifier(name)) bad_field("launch.kernel.defines", "'" + shown(name, 40) + "'; accepted: NAME=E with NAME an identifier");
        eval_expr(e, vars, "launch.kernel.defines " + name);
    }
    if (!k.library.empty()) return;  // a library call: no OpenCL C of ours to bind
    std::vector<std::string> then_params;
    if (k.then) {
        const auto names = kernel_parameter_names(program_source(k), k.then->entry);
        if (!names) bad_field("launch.kernel.then.entry", "no kernel function '" + shown(k.then->entry, 40) + "' in the source");
        then_params = *names;
    }
    check_function("launch.kernel", k, k.entry, k.global, k.local, k.args, vars, then_params);
    if (k.then) {
        const FollowUpKernel& t = *k.then;
        for (const ArgSpec& a : t.args) {
            const ArgSpec* same = k.find_arg(a.name);
            if (!same || same->kind != a.kind)
                bad_field("launch.kernel.then.args '" + shown(a.name, 40) + "'", "not an argument of the first kernel");
        }
        check_function("launch.kernel.then", k, t.entry, t.global, t.local, t.args, vars);
    }
    if (k.check) {
        const ArgSpec* m[3];
        const std::string* names[3] = {&k.check->c, &k.check->a, &k.check->b};
        for (int i = 0; i < 3; ++i) {
            m[i] = k.find_arg(*names[i]);
            if (!m[i] || m[i]->kind != ArgSpec::Kind::Matrix)
                bad_field("launch.kernel.check", "names '" + shown(*names[i], 40) + "', which is not a matrix argument; accepted: C=A*B over three matrix arguments");
        }
        int64_t r[3], cols[3];
        for (int i = 0; i < 3; ++i) {
            r[i] = eval_expr(m[i]->rows, vars, "launch.kernel.args '" + shown(m[i]->name, 40) + "' rows");
            cols[i] = eval_expr(m[i]->cols, vars, "launch.kernel.args '" + shown(m[i]->name, 40) + "' cols");
        }
        if (r[1] != r[0] || cols[2] != cols[0] || cols[1] != r[2])
            bad_field("launch.kernel.check", k.check->c + "=" + k.check->a + "*" + k.check->b + " over shapes " + std::to_string(r[0]) +
                                                 "x" + std::to_string(cols[0]) + " = " + std::to_string(r[1]) + "x" + std::to_string(cols[1]) +
                                                 " * " + std::to_string(r[2]) + "x" + std::to_string(cols[2]) +
                                                 "; accepted: shapes that multiply");
    }
    // What is left (the check's shapes) is what resolve() checks; its words name options, so
    // they are said as this field's.
    try {
        resolve(c);
    } catch (const InputError& e) {
        bad_field("launch", std::string(e.what()));
    }
}

}  // namespace tilescope
