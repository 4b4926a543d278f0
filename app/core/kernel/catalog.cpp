#include "core/kernel/catalog.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "core/base/embedded_files.h"
#include "core/base/errors.h"

namespace tilescope {

std::string_view embedded_text(std::string_view path) {
    for (const EmbeddedFile& f : embedded_files())
        if (f.path == path) return f.text;
    throw InputError("no embedded file '" + std::string(path) + "'");
}

namespace {

// "closed_forms": {"terms": {"GX": E, ...}, QUANTITY: {"expr": E, "text": T}, ...}
ClosedForms parse_closed_forms(const nlohmann::ordered_json& cf, const std::string& who) {
    ClosedForms forms;
    for (const auto& [key, value] : cf.items()) {
        if (key == "terms") {
            for (const auto& [tname, e] : value.items()) forms.terms.emplace_back(tname, e.get<std::string>());
            continue;
        }
        if (std::find(std::begin(kClosedFormQuantities), std::end(kClosedFormQuantities), key) ==
            std::end(kClosedFormQuantities))
            throw InputError("kernel '" + who + "': closed_forms has unknown quantity '" + key + "'");
    }
    for (std::string_view view : kClosedFormQuantities) {
        const std::string q(view);
        if (cf.contains(q)) forms.forms.push_back({q, cf.at(q).at("expr").get<std::string>(), cf.at(q).value("text", "")});
    }
    return forms;
}

// The order rules, stated by the data: a library rung ("library") comes after every rung
// written in OpenCL C, and "compares_with" names an OpenCL C rung earlier in the ladder.
void check_order(const std::vector<KernelSpec>& before, const KernelSpec& spec) {
    for (const KernelSpec& k : before)
        if (k.name == spec.name) throw InputError("kernel '" + spec.name + "' is in the catalog twice; names must be unique");
    if (spec.library.empty())
        for (const KernelSpec& k : before)
            if (!k.library.empty())
                throw InputError("kernel '" + spec.name + "': an OpenCL C rung may not follow the library rung '" + k.name +
                                 "'; move it before every rung with \"library\" in the catalog");
    if (spec.compares_with.empty()) return;
    if (!spec.library.empty())
        throw InputError("kernel '" + spec.name + "': a library rung has no \"compares_with\"");
    for (const KernelSpec& k : before)
        if (k.name == spec.compares_with) {
            if (!k.library.empty()) break;
            return;
        }
    std::string names;
    for (const KernelSpec& k : before)
        if (k.library.empty()) names += (names.empty() ? "" : ", ") + k.name;
    throw InputError("kernel '" + spec.name + "': \"compares_with\": \"" + spec.compares_with +
                     "\" is not an OpenCL C rung before it; accepted: " + (names.empty() ? "none" : names));
}

}  // namespace

std::vector<KernelSpec> parse_catalog(std::string_view json_text, std::string_view dir) {
    const nlohmann::ordered_json doc = nlohmann::ordered_json::parse(json_text);  // keeps "params" in catalog order
    std::vector<KernelSpec> rungs;
    for (const auto& r : doc.at("rungs")) {
        KernelSpec spec;
        spec.name = r.at("name");
        spec.title = r.value("title", spec.name);
        spec.lesson = r.value("lesson", "");
        spec.tile_meaning = r.value("tile_meaning", "");
        spec.library = r.value("library", "");
        if (spec.library.empty()) {
            const std::string file = r.at("file");
            spec.source_name = file;
            spec.source = std::string(embedded_text(std::string(dir) + "/" + file));
            // "prelude": a file of helpers several rungs share, built before this one.
            if (r.contains("prelude")) {
                spec.prelude_name = r.at("prelude").get<std::string>();
                spec.prelude = std::string(embedded_text(std::string(dir) + "/" + spec.prelude_name));
            }
        }
        spec.entry = r.value("entry", spec.library);
        spec.global = r.at("global").get<std::vector<std::string>>();
        spec.local = r.at("local").get<std::vector<std::string>>();
        for (const std::string d : r.value("defines", std::vector<std::string>{})) {
            const size_t eq = d.find('=');
            spec.defines.emplace_back(d.substr(0, eq), d.substr(eq + 1));
        }
        if (r.contains("check")) spec.check = parse_check_spec(r.at("check").get<std::string>());
        // "params": {"NAME": {"default": V, "values": [V, ...]}, ...}, in catalog order.
        if (r.contains("params"))
            for (const auto& [pname, pv] : r.at("params").items()) {
                TunableParam p;
                p.name = pname;
                p.default_value = pv.at("default").get<int64_t>();
                p.values = pv.value("values", std::vector<int64_t>{p.default_value});
                if (std::find(p.values.begin(), p.values.end(), p.default_value) == p.values.end())
                    p.values.insert(p.values.begin(), p.default_value);
                spec.params.push_back(std::move(p));
            }
        for (const std::string a : r.at("args")) spec.args.push_back(parse_arg_spec(a));
        // "closed_forms": {"terms": {"GX": E, ...}, QUANTITY: {"expr": E, "text": T}, ...}
        if (r.contains("closed_forms")) spec.closed_forms = parse_closed_forms(r.at("closed_forms"), spec.name);
        // "then": a second kernel of the same program (see FollowUpKernel).
        if (r.contains("then")) {
            const auto& t = r.at("then");
            FollowUpKernel f;
            f.entry = t.at("entry");
            f.global = t.at("global").get<std::vector<std::string>>();
            f.local = t.at("local").get<std::vector<std::string>>();
            for (const std::string a : t.at("args")) f.args.push_back(parse_arg_spec(a));
            if (t.contains("closed_forms")) f.closed_forms = parse_closed_forms(t.at("closed_forms"), spec.name + ".then");
            spec.then = std::move(f);
        }
        // "pad": {"N": 4, "K": 4}: the multiples the runner may pad the sizes to (see PadSpec).
        if (r.contains("pad")) {
            PadSpec pad;
            for (const auto& [dim, v] : r.at("pad").items()) {
                if (dim == "avoid") continue;  // below, once the multiples are known
                if (dim == "C") {  // the define that lets the kernel store C in place (PadSpec)
                    const std::string d = v.is_string() ? v.get<std::string>() : "";
                    if (d.empty() || d.size() > 32 || !(std::isalpha(static_cast<unsigned char>(d[0])) || d[0] == '_') ||
                        !std::all_of(d.begin(), d.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }))
                        throw InputError("kernel '" + spec.name + "': pad's C accepts the name of a define (letters, digits, _; "
                                         "at most 32), not " + v.dump());
                    pad.c_in_place = d;
                    continue;
                }
                const int64_t m = v.get<int64_t>();
                if (m < 1 || m > 1024 || (dim != "M" && dim != "N" && dim != "K"))
                    throw InputError("kernel '" + spec.name + "': pad accepts M, N, K with multiples 1 to 1024, not " + dim);
                (dim == "M" ? pad.M : dim == "N" ? pad.N : pad.K) = m;
            }
            // "avoid": {"N": 128}: a padded extent that is a multiple of this grows by one more
            // pad multiple (PadSpec). Each must be a multiple of that dimension's pad, above it.
            if (r.at("pad").contains("avoid"))
                for (const auto& [dim, v] : r.at("pad").at("avoid").items()) {
                    const int64_t a = v.get<int64_t>();
                    const int64_t m = dim == "M" ? pad.M : dim == "N" ? pad.N : pad.K;
                    if ((dim != "M" && dim != "N" && dim != "K") || a <= m || a > 65536 || a % m != 0)
                        throw InputError("kernel '" + spec.name + "': pad's avoid accepts M, N, K with a multiple of that "
                                         "dimension's pad above it, at most 65536, not " + dim + "=" + v.dump());
                    (dim == "M" ? pad.avoid_M : dim == "N" ? pad.avoid_N : pad.avoid_K) = a;
                }
            spec.pad = pad;
        }
        spec.tiles = r.value("tiles", std::vector<int>{16});
        spec.default_tile = r.value("default_tile", 16);
        spec.compares_with = r.value("compares_with", "");
        validate(spec);
        check_order(rungs, spec);
        rungs.push_back(std::move(spec));
    }
    return rungs;
}

const std::vector<KernelSpec>& ladder() {
    static const std::vector<KernelSpec> rungs = parse_catalog(embedded_text("kernels/ladder.json"), "kernels");
    return rungs;
}

const KernelSpec* find_rung(std::string_view name) {
    for (const KernelSpec& k : ladder())
        if (k.name == name) return &k;
    return nullptr;
}

std::string rung_names() {
    std::string out;
    for (const KernelSpec& k : ladder()) out += (out.empty() ? "" : ", ") + k.name;
    return out;
}

const std::vector<KernelSpec>& exercises() {
    static const std::vector<KernelSpec> broken =
        parse_catalog(embedded_text("kernels/exercises/exercises.json"), "kernels/exercises");
    return broken;
}

const KernelSpec* find_kernel(std::string_view name) {
    if (const KernelSpec* k = find_rung(name)) return k;
    for (const KernelSpec& k : exercises())
        if (k.name == name) return &k;
    return nullptr;
}

std::string exercise_names() {
    std::string out;
    for (const KernelSpec& k : exercises()) out += (out.empty() ? "" : ", ") + k.name;
    return out;
}

}  // namespace tilescope
