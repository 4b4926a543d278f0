#include "args/setup.h"

#include "core/kernel/catalog.h"
#include "core/base/errors.h"

namespace tilescope::args {

std::set<std::string> custom_kernel_options() {
    return {"source", "entry", "global", "local", "define", "arg", "check"};
}

std::vector<KernelSpec> kernels_from(const Options& o, const std::string& default_kernel, bool allow_many) {
    if (o.has("source")) {
        if (o.has("kernel")) throw InputError("--kernel and --source exclude each other: give one");
        CustomKernelOptions c;
        c.source_path = *o.get("source");
        c.entry = o.get_or("entry", "");
        c.global = o.all("global");
        c.local = o.all("local");
        c.defines = o.all("define");
        c.args = o.all("arg");
        c.check = o.get_or("check", "");
        return {load_custom_kernel(c)};
    }
    for (const char* only_custom : {"entry", "global", "local", "define", "arg", "check"})
        if (o.has(only_custom)) throw InputError(std::string("--") + only_custom + " belongs to a custom kernel: give --source FILE.cl too");
    std::vector<std::string> names = o.has("kernel") ? o.list("kernel") : std::vector<std::string>{default_kernel};
    std::vector<KernelSpec> out;
    for (const std::string& n : names) {
        if (n == "all") {
            if (!allow_many) throw InputError("--kernel all: this command takes one kernel; accepted: " + rung_names());
            for (const KernelSpec& k : ladder()) out.push_back(k);
            continue;
        }
        if (n == "fastest" && allow_many)  // bench handles a lone --kernel fastest before asking here
            throw InputError("--kernel '" + shown(o.get_or("kernel", ""), 60) + "': fastest picks the rung itself; give it alone (--kernel fastest)");
        const KernelSpec* k = find_kernel(n);
        if (!k)
            throw InputError("--kernel '" + shown(n, 40) + "': unknown kernel; accepted: " + rung_names() + (allow_many ? ", all, fastest" : "") +
                             "; exercises: " + exercise_names());
        out.push_back(*k);
    }
    if (!allow_many && out.size() != 1) throw InputError("--kernel: this command takes one kernel");
    return out;
}

std::vector<ProblemSize> sizes_from(const Options& o, const std::string& fallback, bool allow_many) {
    std::vector<ProblemSize> out;
    if (!o.has("size")) return {parse_size(fallback)};
    for (const std::string& s : o.list("size")) out.push_back(parse_size(s));
    if (!allow_many && out.size() != 1) throw InputError("--size: this command takes one size");
    return out;
}

std::vector<int> tiles_from(const Options& o, const KernelSpec& k, bool allow_many) {
    if (!o.has("tile")) return {k.default_tile};
    std::vector<int> out;
    for (const std::string& t : o.list("tile")) {
        int v = 0;
        try {
            size_t used = 0;
            v = std::stoi(t, &used);
            if (used != t.size()) v = 0;
        } catch (...) {
            v = 0;
        }
        if (v <= 0 || v > 1024) throw InputError("--tile '" + shown(t, 40) + "': accepted: a positive integer such as 4, 8, 16, 32");
        out.push_back(v);
    }
    if (!allow_many && out.size() != 1) throw InputError("--tile: this command takes one tile size");
    return out;
}

std::vector<LaunchConfig> configs_from(const Options& o, const std::string& default_kernel,
                                       const std::string& default_size, bool allow_many) {
    std::vector<LaunchConfig> configs;
    const auto kernels = kernels_from(o, default_kernel, allow_many);
    const auto sizes = sizes_from(o, default_size, allow_many);
    for (const KernelSpec& k : kernels) {
        // A library picks its own parameters: one run per size, whatever --tile says.
        std::vector<int> tiles = k.library.empty() ? tiles_from(o, k, allow_many) : std::vector<int>{k.default_tile};
        for (const ProblemSize& s : sizes)
            for (int t : tiles) configs.push_back(LaunchConfig{k, s, t});
    }
    // --param NAME=V (for commands that accept it) applies to the kernels that have NAME;
    // one that none of them has is an error.
    for (const std::string& p : o.all("param")) {
        bool used = false;
        for (LaunchConfig& c : configs)
            if (c.kernel.find_param(p.substr(0, p.find('=')))) {
                const auto [name, value] = parse_param(c.kernel, p);
                c.params[name] = value;
                c.params_source = "given";
                used = true;
            }
        if (!used && !configs.empty()) parse_param(configs.front().kernel, p);  // throws, naming what is accepted
    }
    return configs;
}

}  // namespace tilescope::args
