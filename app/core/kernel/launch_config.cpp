#include "core/kernel/launch_config.h"

#include <charconv>
#include <limits>

#include "core/base/errors.h"

namespace tilescope {

std::string ProblemSize::label() const {
    if (M == N && N == K) return std::to_string(M);
    return std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
}

ProblemSize parse_size(std::string_view text, std::string_view option) {
    auto bad = [&](const std::string& why) {
        return InputError(std::string(option) + " '" + shown(text) + "': " + why +
                          "; accepted: S or MxNxK with positive integers up to 65536");
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
        if (v > 65536) throw bad("too large");
        values.push_back(v);
        if (x == std::string_view::npos) break;
        start = x + 1;
    }
    if (values.size() == 1) return {values[0], values[0], values[0]};
    if (values.size() == 3) return {values[0], values[1], values[2]};
    throw bad("give one or three sizes");
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
            if (g <= 0 || l <= 0)
                throw InputError("kernel '" + k.name + "': dimension " + std::to_string(d) + " has global " +
                                 std::to_string(g) + " and local " + std::to_string(l) + "; both must be positive");
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

}  // namespace tilescope
