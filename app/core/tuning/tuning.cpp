#include "core/tuning/tuning.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cctype>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/base/atomic_file.h"
#include "core/base/environment.h"
#include "core/base/embedded_files.h"
#include "core/base/errors.h"
#include "core/base/json_numbers.h"
#include "core/base/untrusted_file.h"
#include "core/device/ceilings.h"
#include "core/device/runner.h"
#include "core/kernel/catalog.h"

namespace tilescope {
namespace {

using ordered_json = nlohmann::ordered_json;

// Tuning files come from anywhere (copied from a colleague, a hand edit): one that cannot
// be used is skipped with one line on stderr, once per file and process, never fatal.
void warn_skipped(const std::string& origin, const std::string& why) {
    static std::mutex mutex;
    static std::set<std::string> warned;
    const std::lock_guard<std::mutex> lock(mutex);
    if (!warned.insert(origin).second) return;
    std::cerr << "tilescope: tuning file '" << shown_path(origin) << "' skipped: " << shown(why, 240) << "\n";
}

// A tuning folder past its budget (kMaxTuningFolderBytes, kMaxTuningFolderFiles): one
// line per folder and process.
void warn_budget(const std::string& dir, const std::string& why) {
    static std::mutex mutex;
    static std::set<std::string> warned;
    const std::lock_guard<std::mutex> lock(mutex);
    if (!warned.insert(dir).second) return;
    std::cerr << "tilescope: tuning folder '" << shown_path(dir) << "': " << why << "\n";
}

std::string read_text(const std::filesystem::path& path) {
    try {
        std::string text = read_untrusted_file_or_empty(path.string(), kMaxTuningFileBytes, "tuning file '" + shown_path(path.string()) + "'");
        // An input of this run: no output (bench --json into the tuning folder) may replace it.
        if (!text.empty()) note_input_file(path.string());
        return text;
    } catch (const InputError& e) {
        warn_skipped(path.string(), e.what());
        return {};
    }
}

// Why the text cannot be a tuning file, or "" when it can.
std::string tuning_text_problem(std::string_view text) {
    if (json_depth(text, kMaxTuningNesting) > kMaxTuningNesting)
        return "nested deeper than " + std::to_string(kMaxTuningNesting) + " levels";
    const ordered_json doc = ordered_json::parse(text, nullptr, false);
    if (doc.is_discarded()) return "not JSON";
    if (!doc.is_object()) return "not a JSON object";
    return {};
}

std::string executable_dir() {
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : exe.parent_path().string();
}

std::string utc_now() {
    const std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

ordered_json params_json(const std::map<std::string, int64_t>& params) {
    ordered_json j = ordered_json::object();
    for (const auto& [name, value] : params) j[name] = value;
    return j;
}

// A text field of a tuning file, "" when absent or not text (files come from anywhere).
std::string text_field(const ordered_json& j, const char* name) {
    return j.is_object() && j.contains(name) && j[name].is_string() ? j[name].get<std::string>() : std::string();
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// A tile and a parameter value from a tuning file: whole numbers in range only (a file from
// anywhere may hold 1e308, 2^70 or 2^32+4 there; get<int>() would make the last one 4).
int tile_number(const ordered_json& v) { return static_cast<int>(whole_number(v, 1, 1 << 16, "a tile")); }
int64_t param_number(const ordered_json& v) { return whole_number(v, -(int64_t(1) << 40), int64_t(1) << 40, "a parameter"); }

// The sweep results stored for `kernel` at `size` in a tuning document; none when the
// entry is missing, for another size, or unreadable.
std::vector<TuneResult> earlier_results(const ordered_json& doc, const std::string& kernel, const ProblemSize& size) {
    std::vector<TuneResult> out;
    try {
        const ordered_json& e = doc.at("kernels").at(kernel);
        if (e.at("size").get<std::string>() != size.label()) return {};
        for (const ordered_json& j : e.at("results")) {
            TuneResult r;
            r.tile = tile_number(j.at("tile"));
            for (const auto& [name, v] : j.at("params").items()) r.params[name] = param_number(v);
            r.status = j.at("status").get<std::string>();
            r.gflops = j.at("gflops").is_number() ? j.at("gflops").get<double>() : 0.0;
            if (!plausible_gflops(r.gflops)) return {};  // a damaged or forged figure: the results are unreadable
            r.median_s = j.at("median_s").is_number() ? j.at("median_s").get<double>() : 0.0;
            r.global = j.value("global", "");
            r.local = j.value("local", "");
            r.message = j.value("message", "");
            out.push_back(std::move(r));
        }
    } catch (const nlohmann::json::exception&) {
        return {};
    } catch (const InputError&) {
        return {};
    }
    return out;
}

}  // namespace

std::string device_slug(std::string_view label) {
    std::string out;
    for (const char c : label) {
        if (std::isalnum(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        else if (!out.empty() && out.back() != '-') out += '-';
    }
    while (!out.empty() && out.back() == '-') out.pop_back();
    return out.empty() ? "device" : out;
}

std::string device_slug(const DeviceInfo& device) { return device_slug(device.label()); }

std::string timed_picks_file(const DeviceInfo& device) { return device_slug(device) + ".timed.json"; }

std::string user_tuning_dir() {
    if (const auto xdg = env_text("XDG_DATA_HOME"); xdg && (*xdg)[0] == '/') return *xdg + "/tilescope/tuning";
    return env_text("HOME").value_or(".") + "/.local/share/tilescope/tuning";
}

std::vector<std::string> tuning_search_dirs() {
    std::vector<std::string> dirs;
    if (const auto env = env_text("TILESCOPE_TUNING_DIR")) dirs.push_back(*env);
    dirs.push_back(user_tuning_dir());
    dirs.push_back("assets/tuning");
    if (const std::string exe = executable_dir(); !exe.empty()) dirs.push_back(exe + "/tuning");
    return dirs;
}

std::string default_tuning_dir() {
    if (const auto env = env_text("TILESCOPE_TUNING_DIR")) return *env;
    return user_tuning_dir();
}

std::string size_bucket(const ProblemSize& size) { return std::max(size.M, size.N) <= 1024 ? "small" : "large"; }

std::string size_bucket(std::string_view label) {
    try {
        return size_bucket(parse_size(label));
    } catch (const InputError&) {
        return {};
    }
}

std::string device_family(std::string_view label) {
    const size_t slash = label.find(" / ");
    const std::string platform = lower(label.substr(0, slash == std::string_view::npos ? 0 : slash));
    const std::string name = lower(slash == std::string_view::npos ? label : label.substr(slash + 3));
    if (platform.find("portable computing language") != std::string::npos) {
        // PoCL names its CPU device "<driver>-<LLVM target>-<CPU model>": the target says which
        // code it generates, the model's maker says whose cores run it.
        std::string vendor;
        size_t at = std::string::npos;
        for (const auto& [word, v] : {std::pair{"intel", "intel"}, {"xeon", "intel"}, {"amd", "amd"}, {"epyc", "amd"},
                                      {"ryzen", "amd"}, {"apple", "apple"}, {"arm", "arm"}})
            if (const size_t p = name.find(word); p != std::string::npos && p < at) { at = p; vendor = v; }
        const size_t dash = name.find('-');
        if (vendor.empty() || dash == std::string::npos || at <= dash + 1) return {};
        std::string target = name.substr(dash + 1, at - dash - 1);
        while (!target.empty() && target.back() == '-') target.pop_back();
        return "pocl:" + target + ":" + vendor;
    }
    if (platform.find("nvidia") != std::string::npos || name.find("nvidia") != std::string::npos) {
        // Marketing names to architectures; an unknown name gets no family (exact match only).
        static const std::vector<std::pair<std::string, std::string>> kArch = {
            {"gh200", "hopper"}, {"h100", "hopper"}, {"h200", "hopper"}, {"h800", "hopper"}, {"h20", "hopper"},
            {"gb200", "blackwell"}, {"b200", "blackwell"}, {"b100", "blackwell"}, {"rtx 50", "blackwell"},
            {"l40", "ada"}, {"l4", "ada"}, {"rtx 40", "ada"}, {"ada", "ada"},
            {"a100", "ampere"}, {"a800", "ampere"}, {"a40", "ampere"}, {"a30", "ampere"}, {"a10", "ampere"},
            {"rtx a", "ampere"}, {"rtx 30", "ampere"},
            {"v100", "volta"}, {"titan v", "volta"}, {"t4", "turing"}, {"rtx 20", "turing"}, {"quadro rtx", "turing"}};
        for (const auto& [pattern, arch] : kArch)
            if (name.find(pattern) != std::string::npos) return "nvidia:" + arch;
        return {};
    }
    return {};
}

std::optional<TunedChoice> tuned_choice_in(std::string_view json_text, std::string_view kernel, std::string_view bucket,
                                           bool* same_bucket) {
    if (json_depth(json_text, kMaxTuningNesting) > kMaxTuningNesting) return std::nullopt;  // values copy recursively
    const ordered_json doc = ordered_json::parse(json_text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("kernels")) return std::nullopt;
    const auto& kernels = doc["kernels"];
    const std::string name(kernel);
    if (!kernels.is_object() || !kernels.contains(name)) return std::nullopt;
    const auto& e = kernels[name];
    if (!e.is_object()) return std::nullopt;
    // Entries of this bucket first ("sizes"), then the entry tuned last (the legacy layout).
    std::vector<std::pair<const ordered_json*, std::string>> candidates;
    const std::string want(bucket);
    if (e.contains("sizes") && e["sizes"].is_object()) {
        const auto& sizes = e["sizes"];
        if (!want.empty() && sizes.contains(want)) candidates.emplace_back(&sizes[want], want);
    }
    if (e.contains("tile")) candidates.emplace_back(&e, size_bucket(text_field(e, "size")));
    if (e.contains("sizes") && e["sizes"].is_object())
        for (const auto& [b, entry] : e["sizes"].items()) candidates.emplace_back(&entry, b);
    // A candidate of the asked bucket wins over any other.
    std::stable_sort(candidates.begin(), candidates.end(), [&](const auto& x, const auto& y) {
        return (!want.empty() && x.second == want) > (!want.empty() && y.second == want);
    });
    for (const auto& [entry, b] : candidates) {
        try {
            TunedChoice c;
            c.kernel = name;
            c.tile = tile_number(entry->at("tile"));
            const ordered_json params = entry->value("params", ordered_json::object());  // named: items() must not outlive it
            for (const auto& [pname, v] : params.items()) c.params[pname] = param_number(v);
            c.gflops = entry->value("gflops", 0.0);
            if (!plausible_gflops(c.gflops)) continue;
            c.size = entry->value("size", "");
            c.device = doc.value("device", "");
            c.bucket = b;
            if (same_bucket) *same_bucket = !want.empty() && b == want;
            return c;
        } catch (const nlohmann::json::exception&) {
            continue;
        } catch (const InputError&) {
            continue;
        }
    }
    return std::nullopt;
}

std::vector<TunePoint> also_try_in(std::string_view json_text, std::string_view kernel, std::string_view bucket) {
    std::vector<TunePoint> out;
    if (json_depth(json_text, kMaxTuningNesting) > kMaxTuningNesting) return out;
    const ordered_json doc = ordered_json::parse(json_text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("kernels") || !doc["kernels"].is_object()) return out;
    const auto& kernels = doc["kernels"];
    const std::string name(kernel), want(bucket);
    if (!kernels.contains(name) || !kernels[name].is_object()) return out;
    const auto& e = kernels[name];
    if (!e.contains("sizes") || !e["sizes"].is_object() || !e["sizes"].contains(want)) return out;
    const auto& entry = e["sizes"][want];
    if (!entry.is_object() || !entry.contains("also_try") || !entry["also_try"].is_array()) return out;
    int read = 0;
    for (const auto& item : entry["also_try"]) {
        if (read++ >= kMaxAlsoTry) break;
        try {
            if (!item.is_object() || !item.contains("tile")) continue;
            TunePoint p;
            p.tile = tile_number(item["tile"]);
            const ordered_json params = item.value("params", ordered_json::object());
            if (!params.is_object()) continue;
            for (const auto& [pname, v] : params.items()) p.params[pname] = param_number(v);
            p.from = text_field(item, "from");
            out.push_back(std::move(p));
        } catch (const nlohmann::json::exception&) {
            continue;
        } catch (const InputError&) {
            continue;
        }
    }
    return out;
}

namespace {

// Every tuning file in precedence order: each search directory's, then the embedded ones.
// `visit(path_or_origin, text)` returns true to stop.
template <class Visit>
void for_each_tuning_file(const std::string& only_name, Visit visit) {
    uint64_t budget_used = 0;  // bytes read in this look, all folders together
    for (const std::string& dir : tuning_search_dirs()) {
        std::error_code ec;
        if (!only_name.empty()) {
            const std::filesystem::path path = std::filesystem::path(dir) / only_name;
            if (!std::filesystem::exists(path, ec)) continue;
            const std::string text = read_text(path);
            if (text.empty()) continue;
            if (const std::string why = tuning_text_problem(text); !why.empty()) {
                warn_skipped(path.string(), why);
                continue;
            }
            if (visit(path.string(), text)) return;
            continue;
        }
        std::vector<std::filesystem::path> files;
        size_t listed = 0;
        for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end && listed < 4096; it.increment(ec), ++listed)
            if (it->path().extension() == ".json") files.push_back(it->path());
        std::sort(files.begin(), files.end());
        if (files.size() > size_t(kMaxTuningFolderFiles)) {
            warn_budget(dir, std::to_string(files.size()) + " tuning files; only the first " + std::to_string(kMaxTuningFolderFiles) +
                                 " (by name) are read");
            files.resize(size_t(kMaxTuningFolderFiles));
        }
        for (const auto& path : files) {
            std::error_code size_ec;
            const uintmax_t size = std::filesystem::file_size(path, size_ec);
            if (!size_ec && size <= kMaxTuningFileBytes && budget_used + size > kMaxTuningFolderBytes) {
                warn_budget(dir, "its tuning files add up to more than " + limit_text(kMaxTuningFolderBytes) +
                                     "; the rest from '" + shown_path(path.filename().string()) + "' on are skipped");
                break;
            }
            const std::string text = read_text(path);
            budget_used += text.size();
            if (text.empty()) continue;
            if (const std::string why = tuning_text_problem(text); !why.empty()) {
                warn_skipped(path.string(), why);
                continue;
            }
            if (visit(path.string(), text)) return;
        }
    }
    for (const EmbeddedFile& f : embedded_files()) {
        const std::string path(f.path);
        if (path.rfind("assets/tuning/", 0) != 0) continue;
        if (!only_name.empty() && path != "assets/tuning/" + only_name) continue;
        if (visit("embedded " + path, std::string(f.text))) return;
    }
}

bool is_type_defaults(const std::string& origin) {
    return std::filesystem::path(origin).filename().string().rfind("defaults-", 0) == 0;
}

}  // namespace

std::optional<TunedChoice> find_tuned(std::string_view slug, std::string_view kernel) {
    std::optional<TunedChoice> found;
    for_each_tuning_file(std::string(slug) + ".json", [&](const std::string& origin, const std::string& text) {
        if (auto c = tuned_choice_in(text, kernel)) {
            c->origin = origin;
            found = std::move(c);
            return true;
        }
        return false;
    });
    return found;
}

namespace {

// lookup_tuning for one size bucket.
std::optional<TuningLookup> lookup_in_bucket(const DeviceInfo& device, std::string_view kernel, const std::string& bucket) {
    const std::string label = device.label();
    const std::string family = device_family(label);
    // Two passes over this device's file, then over similar devices' files: the bucket asked
    // for, then any bucket (a device's own tuning at another size beats a stranger's).
    for (const bool similar : {false, true}) {
        if (similar && family.empty()) break;
        for (const bool need_bucket : {true, false}) {
            std::optional<TuningLookup> found;
            for_each_tuning_file(similar ? std::string() : device_slug(device) + ".json",
                                 [&](const std::string& origin, const std::string& text) {
                if (is_type_defaults(origin)) return false;
                bool same = false;
                auto c = tuned_choice_in(text, kernel, bucket, &same);
                if (!c || (need_bucket && !same)) return false;
                if (similar && (c->device == label || device_family(c->device) != family)) return false;
                c->origin = origin;
                TuningLookup l;
                l.match = similar ? TuningMatch::similar : TuningMatch::exact;
                l.note = similar ? "tuned for a similar device: " + c->device
                                 : same ? std::string("tuned here") : "tuned here at " + c->size;
                l.choice = std::move(*c);
                found = std::move(l);
                return true;
            });
            if (found) return found;
        }
    }
    if (!device.is_cpu && !device.is_gpu) return std::nullopt;
    const std::string type = device.is_gpu ? "gpu" : "cpu";
    std::optional<TuningLookup> found;
    for_each_tuning_file("defaults-" + type + ".json", [&](const std::string& origin, const std::string& text) {
        bool same = false;
        auto c = tuned_choice_in(text, kernel, bucket, &same);
        if (!c || !same) return false;
        c->origin = origin;
        c->device.clear();
        found = TuningLookup{std::move(*c), TuningMatch::type_defaults, device.is_gpu ? "defaults for GPUs" : "defaults for CPUs"};
        return true;
    });
    return found;
}

// How well a choice's work-groups fill the compute units: how evenly they fall (groups per
// unit over the rounds the busiest unit runs: 576 groups on 132 units, 4.36/5 = 0.87) times
// how full a unit is kept (fewer than two groups per unit leave it waiting on memory with no
// other group to switch to: 128 groups on 132 units, 0.97 * 0.48). 0 when unknown (no such
// rung, parameters that no longer resolve, no unit count).
double group_balance(const DeviceInfo& device, std::string_view kernel, const ProblemSize& size, const TunedChoice& c) {
    const KernelSpec* k = find_rung(kernel);
    if (!k || device.compute_units == 0) return 0;
    try {
        const double per_unit = double(resolve(LaunchConfig{*k, size, c.tile, c.params, "tuned"}).total_groups()) /
                                device.compute_units;
        return per_unit / std::ceil(per_unit) * std::min(1.0, per_unit / 2);
    } catch (const InputError&) {
        return 0;
    }
}

}  // namespace

// Below this balance the large bucket's tiles leave too many units idle: measured on the
// H200 (132 units), warp_tile's large tiles at 3000^3 (576 groups, 0.87) ran at 34 TFLOP/s and
// the small bucket's at 42; at 1500^3 (144 groups, 0.30) 25 against 31; at 256x8192x8192
// (128 groups, 0.47) 27 against 40. At 2000^3 (256 groups, 0.94) the large ones won, 44 to 34.
constexpr double kMinGroupBalance = 0.9;

std::optional<TuningLookup> lookup_tuning(const DeviceInfo& device, std::string_view kernel, const ProblemSize& size) {
    std::optional<TuningLookup> found = lookup_in_bucket(device, kernel, size_bucket(size));
    if (!found || found->choice.bucket != "large") return found;
    // A large problem whose large tiles fall unevenly on the compute units takes the small
    // bucket's choice of the same file when that one falls more evenly.
    const double large = group_balance(device, kernel, size, found->choice);
    if (large <= 0 || large >= kMinGroupBalance) return found;
    std::optional<TuningLookup> small = lookup_in_bucket(device, kernel, "small");
    if (!small || small->choice.bucket != "small" || small->match != found->match || small->choice.origin != found->choice.origin)
        return found;
    const double even = group_balance(device, kernel, size, small->choice);
    if (even <= large) return found;
    char why[160];
    std::snprintf(why, sizeof why, " (small tiles: the large ones would fill %u compute units %.0f%% evenly, these %.0f%%)",
                  device.compute_units, 100 * large, 100 * even);
    small->note += why;
    return small;
}

std::vector<TunedChoice> fastest_entries_in(std::string_view json_text) {
    std::vector<TunedChoice> out;
    if (json_depth(json_text, kMaxTuningNesting) > kMaxTuningNesting) return out;
    const ordered_json doc = ordered_json::parse(json_text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("fastest") || !doc["fastest"].is_array()) return out;
    int read = 0;
    for (const ordered_json& e : doc["fastest"]) {
        if (++read > kMaxFastestEntries) break;
        try {
            TunedChoice c;
            c.kernel = e.at("kernel").get<std::string>();
            c.size = e.at("size").get<std::string>();
            parse_size(c.size);  // throws InputError when unreadable
            c.tile = tile_number(e.at("tile"));
            const ordered_json params = e.value("params", ordered_json::object());
            for (const auto& [pname, v] : params.items()) c.params[pname] = param_number(v);
            c.gflops = e.value("gflops", 0.0);
            if (!plausible_gflops(c.gflops)) continue;
            c.device = doc.value("device", "");
            out.push_back(std::move(c));
        } catch (const nlohmann::json::exception&) {
            continue;
        } catch (const InputError&) {
            continue;
        }
    }
    return out;
}

namespace {

// How far apart two shapes are: |log| of the ratios of M, N and K, summed.
double shape_distance(const ProblemSize& a, const ProblemSize& b) {
    return std::abs(std::log(double(a.M) / double(b.M))) + std::abs(std::log(double(a.N) / double(b.N))) +
           std::abs(std::log(double(a.K) / double(b.K)));
}

// The entries of one file's table that still resolve at `size` (a rung of the catalog, its
// parameters, the size's limits) and whose work-groups `device` allows (a row from someone
// else's file may name a point no device runs: it is left out here, so the pick and the
// line that explains it name the point that runs), each with its distance, in file order.
std::vector<std::pair<double, TunedChoice>> resolvable_rows(const std::string& text, const ProblemSize& size,
                                                            const DeviceInfo& device) {
    std::vector<std::pair<double, TunedChoice>> out;
    for (TunedChoice& c : fastest_entries_in(text)) {
        const KernelSpec* k = find_rung(c.kernel);
        if (!k) continue;
        try {
            const ResolvedLaunch launch = resolve(LaunchConfig{*k, size, c.tile, c.params, "tuned"});
            if (k->library.empty()) check_group_limits(c.kernel, launch, device);
        } catch (const InputError&) {
            continue;
        }
        const double d = shape_distance(parse_size(c.size), size);
        out.emplace_back(d, std::move(c));
    }
    return out;
}

// The nearest entry of one file's table that still resolves at `size`, or nullopt.
std::optional<TunedChoice> nearest_fastest(const std::string& text, const ProblemSize& size, const DeviceInfo& device,
                                           double* distance = nullptr) {
    std::optional<TunedChoice> best;
    double best_distance = 0;
    for (auto& [d, c] : resolvable_rows(text, size, device))
        if (!best || d < best_distance) {
            best_distance = d;
            best = std::move(c);
        }
    if (distance) *distance = best_distance;
    return best;
}

// The point's balance swap and its one line of why (pick_fastest's tail).
void finish_pick(const DeviceInfo& device, const ProblemSize& size, FastestPick& pick);
// Its one line of why alone (the reason), for the point as it stands.
void explain_pick(const DeviceInfo& device, const ProblemSize& size, FastestPick& pick);

}  // namespace

std::optional<FastestPick> pick_fastest(const DeviceInfo& device, const ProblemSize& size) {
    const std::string label = device.label();
    const std::string family = device_family(label);
    std::optional<FastestPick> found;
    // This device's file, then a similar device's, then the type defaults (lookup_tuning's order).
    // A device's own table may be thinner than a similar device's: the nearest entry of every
    // similar device's table is taken over this device's own when its shape is strictly nearer
    // the one asked for (on equal distance the earlier file, in lookup order, is kept).
    double best_distance = 0;
    // A pick bench timed at this very shape and remembered (timed_picks_file) comes first.
    for_each_tuning_file(timed_picks_file(device), [&](const std::string& origin, const std::string& text) {
        double d = 0;
        auto c = nearest_fastest(text, size, device, &d);
        if (!c || d != 0 || c->device != label) return false;
        c->origin = origin;
        found = FastestPick{std::move(*c), TuningMatch::exact, "timed here at this shape", ""};
        found->remembered = true;
        return true;
    });
    if (!found)
        for_each_tuning_file(device_slug(device) + ".json", [&](const std::string& origin, const std::string& text) {
            if (is_type_defaults(origin)) return false;
            auto c = nearest_fastest(text, size, device, &best_distance);
            if (!c) return false;
            c->origin = origin;
            found = FastestPick{std::move(*c), TuningMatch::exact, "tuned here", ""};
            return true;
        });
    if (!family.empty() && !(found && best_distance == 0))
        for_each_tuning_file(std::string(), [&](const std::string& origin, const std::string& text) {
            if (is_type_defaults(origin)) return false;
            double d = 0;
            auto c = nearest_fastest(text, size, device, &d);
            if (!c || c->device == label || device_family(c->device) != family) return false;
            if (found && d >= best_distance) return false;
            c->origin = origin;
            found = FastestPick{std::move(*c), TuningMatch::similar, "", ""};
            found->note = "tuned for a similar device: " + found->choice.device;
            best_distance = d;
            return false;  // every similar device's file is looked at
        });
    if (!found && (device.is_cpu || device.is_gpu)) {
        const std::string type = device.is_gpu ? "gpu" : "cpu";
        for_each_tuning_file("defaults-" + type + ".json", [&](const std::string& origin, const std::string& text) {
            auto c = nearest_fastest(text, size, device, &best_distance);
            if (!c) return false;
            c->origin = origin;
            c->device.clear();
            found = FastestPick{std::move(*c), TuningMatch::type_defaults, device.is_gpu ? "defaults for GPUs" : "defaults for CPUs", ""};
            return true;
        });
    }
    if (!found) return std::nullopt;
    found->distance = best_distance;
    finish_pick(device, size, *found);
    return found;
}

std::vector<FastestPick> fastest_candidates(const DeviceInfo& device, const ProblemSize& size, int rows) {
    std::vector<FastestPick> out;
    std::optional<FastestPick> first = pick_fastest(device, size);
    if (!first) return out;
    out.push_back(*first);
    if (first->distance == 0) return out;
    const std::string label = device.label();
    const std::string family = device_family(label);
    struct Row {
        double d;
        FastestPick pick;
    };
    std::vector<Row> all;
    const auto add = [&](const std::string& origin, const std::string& text, TuningMatch match, const std::string& note) {
        for (auto& [d, c] : resolvable_rows(text, size, device)) {
            if (match == TuningMatch::similar && (c.device == label || device_family(c.device) != family)) continue;
            c.origin = origin;
            if (match == TuningMatch::type_defaults) c.device.clear();
            FastestPick p{c, match, match == TuningMatch::similar ? "tuned for a similar device: " + c.device : note, ""};
            p.distance = d;
            all.push_back(Row{d, std::move(p)});
        }
    };
    if (first->match == TuningMatch::type_defaults) {
        for_each_tuning_file(std::string("defaults-") + (device.is_gpu ? "gpu" : "cpu") + ".json",
                             [&](const std::string& origin, const std::string& text) {
                                 add(origin, text, TuningMatch::type_defaults, first->note);
                                 return true;
                             });
    } else {
        for_each_tuning_file(device_slug(device) + ".json", [&](const std::string& origin, const std::string& text) {
            if (!is_type_defaults(origin)) add(origin, text, TuningMatch::exact, "tuned here");
            return false;
        });
        if (!family.empty())
            for_each_tuning_file(std::string(), [&](const std::string& origin, const std::string& text) {
                if (!is_type_defaults(origin) && std::filesystem::path(origin).filename().string() != device_slug(device) + ".json")
                    add(origin, text, TuningMatch::similar, "");  // add() keeps only rows of similar devices
                return false;
            });
    }
    std::stable_sort(all.begin(), all.end(), [](const Row& a, const Row& b) { return a.d < b.d; });
    // The same row in several files (the folder's copy and the embedded one) counts once, and one
    // shape counts once towards `rows` (this device's table and a similar device's may both have
    // it; each distinct point of it is still tried). Rows are compared as read: finish_pick may
    // swap a row's tile and parameters, and a copy of it read later must still be the same row.
    std::vector<TunedChoice> seen;
    std::vector<std::string> shapes;
    for (Row& r : all) {
        const TunedChoice& c = r.pick.choice;
        if (std::any_of(seen.begin(), seen.end(), [&](const TunedChoice& s) {
                return s.size == c.size && s.kernel == c.kernel && s.tile == c.tile && s.params == c.params;
            }))
            continue;
        if (std::find(shapes.begin(), shapes.end(), c.size) == shapes.end()) {
            if (static_cast<int>(shapes.size()) >= rows) break;
            shapes.push_back(c.size);
        }
        seen.push_back(c);
        finish_pick(device, size, r.pick);
        const TunedChoice& p = r.pick.choice;
        if (std::none_of(out.begin(), out.end(), [&](const FastestPick& o) {
                return o.choice.kernel == p.kernel && o.choice.tile == p.tile && o.choice.params == p.params;
            }))
            out.push_back(r.pick);
    }
    return out;
}

namespace {

void finish_pick(const DeviceInfo& device, const ProblemSize& size, FastestPick& pick) {
    FastestPick* found = &pick;
    // The table's point was measured at another shape: when its groups fall unevenly on the
    // compute units here and the rung's tuned point (lookup_tuning, which swaps such large tiles
    // for the small bucket's) falls more evenly, that point runs instead; the note says so.
    const double table_balance = group_balance(device, found->choice.kernel, size, found->choice);
    if (table_balance > 0 && table_balance < kMinGroupBalance)
        if (const auto tuned = lookup_tuning(device, found->choice.kernel, size)) {
            const double tuned_balance = group_balance(device, found->choice.kernel, size, tuned->choice);
            if (tuned_balance > table_balance) {
                char why[200];
                std::snprintf(why, sizeof why, "; its TS=%d fills %u units %.0f%% evenly here, TS=%d (%s) %.0f%%", found->choice.tile,
                              device.compute_units, 100 * table_balance, tuned->choice.tile, tuned->note.c_str(), 100 * tuned_balance);
                found->choice.tile = tuned->choice.tile;
                found->choice.params = tuned->choice.params;
                found->note += why;
            }
        }
    explain_pick(device, size, *found);
}

void explain_pick(const DeviceInfo& device, const ProblemSize& size, FastestPick& pick) {
    FastestPick* found = &pick;
    const TunedChoice& c = found->choice;
    size_t groups = 0;
    try {
        groups = resolve(LaunchConfig{*find_rung(c.kernel), size, c.tile, c.params, "tuned"}).total_groups();
    } catch (const InputError&) {
    }
    char line[512];
    std::snprintf(line, sizeof line,
                  "%s: fastest measured at %s, the nearest shape in the table (%.0f GFLOP/s there, %s, %s); "
                  "C is %lldx%lld: %zu work-groups for %u compute units",
                  c.kernel.c_str(), c.size.c_str(), c.gflops, found->note.c_str(), shown(c.origin).c_str(),
                  static_cast<long long>(size.M), static_cast<long long>(size.N), groups, device.compute_units);
    found->reason = line;
    // What the point does beyond its tile: splitk's K-slices and their sum; INPLACE's reads.
    const auto param = [&](const char* name) {
        const auto it = c.params.find(name);
        return it == c.params.end() ? int64_t{0} : it->second;
    };
    if (const int64_t slices = param("SLICES"); slices > 1 && c.kernel == "splitk") {
        std::snprintf(line, sizeof line, "; K split into %lld slices of about %lld (a group per tile of C and slice), added in slice order by mm_slice_sum",
                      static_cast<long long>(slices), static_cast<long long>((size.K + slices - 1) / slices));
        found->reason += line;
    }
    if (const int64_t inplace = param("INPLACE"); inplace != 0)
        found->reason += "; rows that are not float4-aligned read in place (INPLACE=" + std::to_string(inplace) +
                         (inplace == 2 ? ", a float per work-item and load" : "") + ": no padded copies)";
}

}  // namespace

LaunchConfig pick_config(const FastestPick& pick, const ProblemSize& size, bool pad) {
    LaunchConfig c{*find_rung(pick.choice.kernel), size, pick.choice.tile, pick.choice.params};
    c.pad = pad;
    c.params_source = pick.match == TuningMatch::exact ? "tuned" : pick.match == TuningMatch::similar ? "similar" : "type-defaults";
    c.tuning_note = "fastest, " + pick.note;
    c.tuning_origin = pick.choice.origin;
    return c;
}

namespace {

int64_t param_of(const LaunchConfig& c, const char* name, int64_t otherwise) {
    const auto it = c.params.find(name);
    return it == c.params.end() ? otherwise : it->second;
}

// How many K-slices a point makes at its size: SLICES asks, ceil(P / ceil(P / SLICES)) run
// (P the phases, ceil(K / TSK)); 1 for a point that does not split K.
int64_t slices_run(const LaunchConfig& c) {
    const int64_t s = param_of(c, "SLICES", 1), tsk = std::max<int64_t>(1, param_of(c, "TSK", 1));
    const int64_t p = std::max<int64_t>(1, (c.size.K + tsk - 1) / tsk), pps = (p + s - 1) / std::max<int64_t>(1, s);
    return (p + pps - 1) / pps;
}

std::string slices_label(const LaunchConfig& c) {
    return c.params.count("SLICES") ? "SLICES=" + std::to_string(param_of(c, "SLICES", 1)) : std::string("no split");
}

// A point's tile of C is TS rows by this many columns (TS*NMUL/NDIV: warp_tile's and splitk's TSN).
int64_t tile_columns(const LaunchConfig& c) {
    return c.tile * param_of(c, "NMUL", 1) / std::max<int64_t>(1, param_of(c, "NDIV", 1));
}

// A round-two point as the reason names it: its K-slices, its tile where it is not square ("64x128"
// for the wide point, "128x64") or not the tile of `first`, the round's first point ("128x128"
// beside a 64 x 64 winner), and "in place" for the in-place point.
std::string round_label(const LaunchConfig& c, const LaunchConfig* first = nullptr) {
    const bool named = tile_columns(c) != c.tile || (first && (first->tile != c.tile || tile_columns(*first) != tile_columns(c)));
    return (named ? std::to_string(c.tile) + "x" + std::to_string(tile_columns(c)) + " " : std::string()) + slices_label(c) +
           (param_of(c, "INPLACE", 0) == 2 ? " in place" : "");
}

// The same rung, tile and parameters, a parameter left out counting as its default (NMUL 1).
bool same_point(const LaunchConfig& a, const LaunchConfig& b) {
    return a.kernel.name == b.kernel.name && a.tile == b.tile &&
           (a.params == b.params || changed_params_text(a.kernel, a.params) == changed_params_text(b.kernel, b.params));
}

// The rung that walks all of K for `k`: `k` itself when it does not split K, else the rung it splits
// (its compares_with: splitk's is warp_tile) where that one does not; nullptr otherwise.
const KernelSpec* whole_rung_of(const KernelSpec& k) {
    if (!k.find_param("SLICES")) return &k;
    const KernelSpec* whole = k.compares_with.empty() ? nullptr : find_rung(k.compares_with);
    return whole && !whole->find_param("SLICES") ? whole : nullptr;
}

// The rung that splits K for `k`: `k` itself when it does, else the catalog's rung that splits it
// (SLICES, compares_with naming `k`); nullptr when none does.
const KernelSpec* split_rung_of(const KernelSpec& k) {
    if (k.find_param("SLICES")) return &k;
    for (const KernelSpec& r : ladder())
        if (r.compares_with == k.name && r.find_param("SLICES")) return &r;
    return nullptr;
}

// A round-two point `c`, unless `tried` holds it already or it does not resolve.
std::optional<LaunchConfig> untried(LaunchConfig c, const std::vector<LaunchConfig>& tried) {
    if (std::any_of(tried.begin(), tried.end(), [&](const LaunchConfig& t) { return same_point(t, c); })) return std::nullopt;
    try {
        resolve(c);
    } catch (const InputError&) {
        return std::nullopt;
    }
    return c;
}

}  // namespace

std::vector<LaunchConfig> trial_slice_neighbours(const LaunchConfig& winner, const std::vector<LaunchConfig>& tried) {
    std::vector<LaunchConfig> out;
    const auto it = winner.params.find("SLICES");
    if (it == winner.params.end() || winner.kernel.custom || !winner.kernel.find_param("SLICES")) return out;
    const int64_t s = it->second, runs = slices_run(winner);
    const auto known = [&](const LaunchConfig& c) {
        const auto same = [&](const LaunchConfig& t) { return same_point(t, c); };
        return std::any_of(tried.begin(), tried.end(), same) || std::any_of(out.begin(), out.end(), same);
    };
    for (const int64_t v : {s - 1, s + 1}) {
        LaunchConfig c = winner;
        if (v == 1) {
            // One slice is the rung it splits (whole_rung_of: splitk's is warp_tile), when that
            // rung takes the same parameters but SLICES.
            const KernelSpec* whole = whole_rung_of(winner.kernel);
            if (!whole) continue;
            std::map<std::string, int64_t> params = winner.params;
            params.erase("SLICES");
            if (std::any_of(params.begin(), params.end(), [&](const auto& p) { return whole->find_param(p.first) == nullptr; })) continue;
            c.kernel = *whole;
            c.params = std::move(params);
        } else if (v >= 2) {
            c.params["SLICES"] = v;
            if (slices_run(c) == runs) continue;  // the same slices at this K
        } else {
            continue;
        }
        try {
            resolve(c);
        } catch (const InputError&) {
            continue;
        }
        if (!known(c)) out.push_back(std::move(c));
    }
    return out;
}

namespace {

// Round two's named tile shapes for warp_tile and splitk: a tile and every parameter but SLICES
// and INPLACE (a point given one takes none of the winner's others).
struct TileShape {
    int tile;
    std::map<std::string, int64_t> params;
};
// 64 x 128 (TS 64, NMUL 2, TSK 16): the wide point (speed12).
const TileShape kTile64x128{64, {{"NMUL", 2}, {"NDIV", 1}, {"TSK", 16}, {"WM", 32}, {"WN", 64}, {"WNITER", 2}, {"TM", 8}, {"TN", 4}, {"PAD", 4}}};
// 128 x 64 (TS 128, NDIV 2, TSK 8): read in place beside winners on copies (session 47).
const TileShape kTile128x64{128, {{"NMUL", 1}, {"NDIV", 2}, {"TSK", 8}, {"WM", 32}, {"WN", 64}, {"WNITER", 2}, {"TM", 8}, {"TN", 4}, {"PAD", 4}}};
// 128 x 128 (TS 128, TSK 16): the H200 table's point for large squares, timed whole beside winners
// of TS 64 (session 49).
const TileShape kTile128x128{128, {{"NMUL", 1}, {"NDIV", 1}, {"TSK", 16}, {"WM", 64}, {"WN", 64}, {"WNITER", 4}, {"TM", 4}, {"TN", 4}, {"PAD", 4}}};

LaunchConfig with_tile_shape(LaunchConfig c, const TileShape& shape) {
    c.tile = shape.tile;
    c.params = shape.params;
    return c;
}

}  // namespace

std::optional<LaunchConfig> trial_wide_point(const LaunchConfig& winner, const std::vector<LaunchConfig>& tried) {
    if (winner.kernel.custom || (winner.kernel.name != "warp_tile" && winner.kernel.name != "splitk") ||
        !winner.kernel.find_param("NMUL") || param_of(winner, "NMUL", 1) != 1)
        return std::nullopt;
    LaunchConfig c = with_tile_shape(winner, kTile64x128);
    for (const char* kept : {"SLICES", "INPLACE"})
        if (const auto it = winner.params.find(kept); it != winner.params.end()) c.params[kept] = it->second;
    return untried(std::move(c), tried);
}

namespace {

// Whether INPLACE 2 builds for point `c` (warp_tile.cl: NT | TS*TSK, TSK | NT, TSN | NT; TSK 8).
bool inplace_builds(const LaunchConfig& c) {
    const int64_t ts = c.tile, tsn = tile_columns(c);
    const int64_t wm = std::max<int64_t>(1, param_of(c, "WM", 32)), wn = std::max<int64_t>(1, param_of(c, "WN", 64));
    const int64_t nt = (ts / wm) * (tsn / wn) * 32;
    return param_of(c, "TSK", 8) == 8 && nt > 0 && tsn > 0 && (ts * 8) % nt == 0 && nt % 8 == 0 && nt % tsn == 0;
}

// `c` split into `slices` K-slices: the rung that splits c's (split_rung_of: splitk for warp_tile)
// with c's parameters.
std::optional<LaunchConfig> split_into(LaunchConfig c, int64_t slices) {
    const KernelSpec* split = split_rung_of(c.kernel);
    if (!split) return std::nullopt;
    if (split != &c.kernel) c.kernel = *split;
    c.params["SLICES"] = slices;
    return c;
}

}  // namespace

std::vector<LaunchConfig> trial_tile_points(const LaunchConfig& winner, unsigned compute_units, const std::vector<LaunchConfig>& tried) {
    std::vector<LaunchConfig> out;
    const KernelSpec& k = winner.kernel;
    if (k.custom || (k.name != "splitk" && k.name != "warp_tile") || !k.find_param("NMUL")) return out;
    const auto add = [&](std::optional<LaunchConfig> c) {
        if (!c || std::any_of(out.begin(), out.end(), [&](const LaunchConfig& o) { return same_point(o, *c); })) return;
        if (auto u = untried(std::move(*c), tried)) out.push_back(std::move(*u));
    };
    // 1. A winner that walks all of K, split into 2, 4 and 8 K-slices with its own tile and
    //    parameters, where its tiles of C are fewer than kSplitTilesPerUnit per compute unit.
    const int64_t tsn = tile_columns(winner);
    const int64_t tiles = ((winner.size.M + winner.tile - 1) / winner.tile) * ((winner.size.N + tsn - 1) / std::max<int64_t>(1, tsn));
    //    A count that runs as many slices at this K as a smaller one (few phases) is left out.
    if (slices_run(winner) == 1 && compute_units > 0 && tiles < kSplitTilesPerUnit * int64_t(compute_units)) {
        std::vector<int64_t> runs{1};
        for (const int64_t s : {2, 4, 8}) {
            std::optional<LaunchConfig> c = split_into(winner, s);
            if (!c || std::find(runs.begin(), runs.end(), slices_run(*c)) != runs.end()) continue;
            runs.push_back(slices_run(*c));
            add(std::move(c));
        }
    }
    // 2. 128 x 128 tiles whole (warp_tile, TSK 16) beside a winner of TS 64, on copies or read in
    //    place as the winner is (INPLACE 2 needs TSK 8: on copies then).
    if (winner.tile == 64) {
        if (const KernelSpec* whole = whole_rung_of(k)) {
            LaunchConfig c = with_tile_shape(winner, kTile128x128);
            c.kernel = *whole;
            if (const int64_t in = param_of(winner, "INPLACE", 0); in == 1) c.params["INPLACE"] = 1;
            add(std::move(c));
        }
    }
    return out;
}

std::vector<LaunchConfig> trial_inplace_points(const LaunchConfig& winner, const std::vector<LaunchConfig>& tried) {
    std::vector<LaunchConfig> out;
    const KernelSpec& k = winner.kernel;
    if (k.custom || (k.name != "splitk" && k.name != "warp_tile") || !k.find_param("INPLACE") || !k.pad ||
        param_of(winner, "INPLACE", 0) != 0)
        return out;
    // Only where the winner runs on padded copies: rows of A or B not float4-aligned.
    if (!winner.pad || (winner.size.N % k.pad->N == 0 && winner.size.K % k.pad->K == 0)) return out;
    const auto add = [&](std::optional<LaunchConfig> c) {
        if (!c) return;
        c->params["INPLACE"] = 2;
        if (std::any_of(out.begin(), out.end(), [&](const LaunchConfig& o) { return same_point(o, *c); })) return;
        if (auto u = untried(std::move(*c), tried)) out.push_back(std::move(*u));
    };
    // 1. The winner itself in place, where it is a point of TSK 8 that is not wide: splitk as it
    //    is (speed14); warp_tile as it is at a short K (speed15), split in two past it (session 47).
    if (param_of(winner, "NMUL", 1) == 1 && inplace_builds(winner))
        add(k.name == "warp_tile" && winner.size.K > kInPlaceShortK ? split_into(winner, 2) : std::optional<LaunchConfig>(winner));
    // 2. 128 x 64 tiles (TS 128, NDIV 2, TSK 8) in place, split as the winner is (in two when it
    //    is not): session 47, H100, beside winners of other tiles on copies.
    add(split_into(with_tile_shape(winner, kTile128x64), std::max<int64_t>(2, param_of(winner, "SLICES", 2))));
    return out;
}

namespace {

// Whether round two's fastest (best2 > 0) is less than kRoundTwoMargin faster than the round's
// first point (the winner it is timed beside), which then stays; a first point that did not
// verify is no bar.
bool best2_within_margin(const std::vector<Measurement>& m2, int best2) {
    const bool first_good = m2[0].gflops > 0 && (!m2[0].checked || m2[0].verification.verified);
    return first_good && m2[best2].gflops < m2[0].gflops * (1 + kRoundTwoMargin);
}

}  // namespace

std::optional<TimedPick> timed_fastest_pick(Runner& runner, const DeviceInfo& device, const ProblemSize& size, bool pad,
                                            const RunOptions& options) {
    const std::vector<FastestPick> cands = fastest_candidates(device, size, kPickTrialRows);
    if (cands.empty()) return std::nullopt;
    TimedPick out{cands.front(), {}, 0};
    if (cands.front().remembered) return out;  // timed here before: nothing left to time
    std::vector<const FastestPick*> ok;
    std::vector<LaunchConfig> tried;
    for (const FastestPick& p : cands) {
        LaunchConfig c = pick_config(p, size, pad);
        try {
            runner.validate(c);
        } catch (const InputError&) {
            continue;
        }
        ok.push_back(&p);
        tried.push_back(std::move(c));
    }
    if (tried.empty()) return out;
    RunOptions ro = options;
    ro.progress = nullptr;  // the progress lines say what runs; not a line per launch
    ro.reps = 2;
    ro.warmup = 1;
    // Round one: the rows' points, when there are two or more; with one, round two alone runs,
    // its winner that point (a row of this shape, or nearest rows that all name it).
    int best = 0;
    double best_gflops = 0;
    std::string head, figures, rows;
    if (tried.size() >= 2) {
        if (options.progress)
            options.progress(size.label() + " is not a row of the table; timing the " + std::to_string(tried.size()) +
                             " points of its nearest rows here");
        const auto t0 = std::chrono::steady_clock::now();
        const std::vector<Measurement> ms = runner.measure_interleaved(tried, ro);
        out.trial_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        best = -1;
        for (size_t i = 0; i < ms.size() && i < tried.size(); ++i) {
            const bool good = ms[i].gflops > 0 && (!ms[i].checked || ms[i].verification.verified);
            out.trials.push_back(PickTrial{tried[i].kernel.name, tried[i].tile, tried[i].params, ok[i]->choice.size, good ? ms[i].gflops : 0, good});
            char f[160];
            std::snprintf(f, sizeof f, "%s%s TS=%d %.0f%s", i ? ", " : "", tried[i].kernel.name.c_str(), tried[i].tile, ms[i].gflops,
                          good ? "" : " (did not verify)");
            figures += f;
            rows += (i ? ", " : "") + ok[i]->choice.size;
            if (good && (best < 0 || ms[i].gflops > ms[best].gflops)) best = static_cast<int>(i);
        }
        if (best < 0) return out;  // none verified: the nearest row's point, as without a trial
        out.pick = *ok[best];
        best_gflops = ms[best].gflops;
        char h[160];
        std::snprintf(h, sizeof h, "fastest of %zu points timed here (%.1f s: 1 warm-up + 2 launches each, verified): ", ms.size(),
                      out.trial_s);
        head = h + figures + " GFLOP/s; nearest rows " + rows;
    }
    const bool single = out.trials.empty();
    // Round two: the winner is timed again beside its own point with one slice fewer and one
    // more when it splits K (trial_slice_neighbours), beside the wide point (trial_wide_point),
    // where it runs on padded copies beside the points that read in place (trial_inplace_points),
    // and beside its own tile split and the other square tile (trial_tile_points);
    // the fastest of that round runs. The rows' slice counts were measured at other shapes, and
    // at this one the best count can differ; the rows never tried the wide tiles.
    std::string second;
    std::vector<LaunchConfig> candidates = trial_slice_neighbours(tried[best], tried), near;
    if (auto wide = trial_wide_point(tried[best], tried)) candidates.push_back(std::move(*wide));
    for (LaunchConfig& c : trial_inplace_points(tried[best], tried)) candidates.push_back(std::move(c));
    for (LaunchConfig& c : trial_tile_points(tried[best], device.compute_units, tried)) candidates.push_back(std::move(c));
    for (LaunchConfig& c : candidates) {
        try {
            runner.validate(c);
        } catch (const InputError&) {
            continue;
        }
        near.push_back(std::move(c));
    }
    if (single && near.empty()) return out;  // one point and nothing beside it: nothing to time
    // Where round one did not run, what the row's point is and why it is timed at all.
    const std::string why = ok[0]->distance == 0 ? size.label() + " is a row of the table"
                            : cands.size() == 1  ? "its nearest rows name one point (" + ok[0]->choice.size + "'s)"
                                                 : "one point of its nearest rows runs on this device (" + ok[0]->choice.size + "'s)";
    if (single) out.pick = *ok[0];
    if (!near.empty()) {
        if (single && options.progress)
            options.progress(why + "; timing its point beside its " + std::to_string(near.size()) +
                             " neighbours here (the tables never tried them at this shape)");
        std::vector<LaunchConfig> round{tried[best]};
        round.insert(round.end(), near.begin(), near.end());
        const auto t1 = std::chrono::steady_clock::now();
        std::vector<Measurement> m2;
        try {
            m2 = runner.measure_interleaved(round, ro);
        } catch (const InputError& e) {  // a neighbour the device would not run: round 1's winner stays
            second = "; its neighbours beside it not timed: " + shown(e.what(), 240);
        }
        const double s2 = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
        out.trial_s += s2;
        int best2 = -1;
        std::string figures2;
        for (size_t i = 0; i < m2.size() && i < round.size(); ++i) {
            const bool good = m2[i].gflops > 0 && (!m2[i].checked || m2[i].verification.verified);
            out.trials.push_back(PickTrial{round[i].kernel.name, round[i].tile, round[i].params, ok[best]->choice.size,
                                           good ? m2[i].gflops : 0, good, 2});
            char f[160];
            std::snprintf(f, sizeof f, "%s%s %s %.0f%s", i ? ", " : "", round[i].kernel.name.c_str(), round_label(round[i], &round[0]).c_str(),
                          m2[i].gflops, good ? "" : " (did not verify)");
            figures2 += f;
            if (good && (best2 < 0 || m2[i].gflops > m2[best2].gflops)) best2 = static_cast<int>(i);
        }
        char h2[200];
        if (single)
            std::snprintf(h2, sizeof h2, "; its point timed here beside its neighbours, which the tables never tried at this shape (%.1f s: 1 warm-up + 2 launches each, verified): ",
                          s2);
        else
            std::snprintf(h2, sizeof h2, "; then its neighbours beside it (%.1f s, same launches): ", s2);
        if (!m2.empty()) second = h2 + figures2 + " GFLOP/s";
        if (best2 > 0 && best2_within_margin(m2, best2)) {  // within the noise of 2 launches: the round's first point stays
            char kept[160];
            std::snprintf(kept, sizeof kept, "; %s %s kept (the fastest beside it less than %.0f%% faster)", round[0].kernel.name.c_str(),
                          round_label(round[0]).c_str(), 100 * kRoundTwoMargin);
            second += kept;
            best2 = 0;
        }
        if (single && best2 < 0) {  // nothing verified (or nothing ran): the row's point as it was, not remembered
            out.pick.reason = why + second + "; not remembered. " + out.pick.reason;
            return out;
        }
        if (single) best_gflops = m2[best2].gflops;
        if (best2 > 0) {  // a neighbour won: it runs, said in the pick's reason
            out.pick.choice.kernel = round[best2].kernel.name;
            out.pick.choice.tile = round[best2].tile;
            out.pick.choice.params = round[best2].params;
            out.pick.note += "; " + round_label(round[best2], &round[0]) + " here (timed beside the row's " + slices_label(round[0]) + ")";
            explain_pick(device, size, out.pick);
            tried[best] = round[best2];
            best_gflops = m2[best2].gflops;
            second += "; " + round[best2].kernel.name + " " + round_label(round[best2], &round[0]) + " runs";
        }
    }
    std::string remembered;
    const std::string path = user_tuning_dir() + "/" + timed_picks_file(device);
    try {
        std::error_code ec;
        std::filesystem::create_directories(user_tuning_dir(), ec);
        update_file_locked(path, [&](const std::string& current) {
            return merge_fastest_row(current, device.label(), tried[best].kernel.name, size, tried[best].tile, tried[best].params,
                                     best_gflops, "tilescope bench --kernel fastest (timed here)");
        });
        remembered = "; remembered as the row for " + size.label() + " in '" + shown_path(path, 400) + "' (no trial next time)";
    } catch (const InputError& e) {
        remembered = "; not remembered: '" + shown_path(path, 400) + "': " + shown(e.what(), 240);
    }
    out.pick.reason = (single ? why : head) + second + remembered + ". " + out.pick.reason;
    return out;
}

bool apply_tuning(LaunchConfig& config, const DeviceInfo& device) {
    if (config.kernel.custom || !config.kernel.library.empty()) return false;
    const auto found = lookup_tuning(device, config.kernel.name, config.size);
    if (!found) return false;
    LaunchConfig tuned = config;
    tuned.tile = found->choice.tile;
    tuned.params = found->choice.params;
    tuned.params_source = found->match == TuningMatch::exact     ? "tuned"
                          : found->match == TuningMatch::similar ? "similar"
                                                                 : "type-defaults";
    tuned.tuning_note = found->note;
    tuned.tuning_origin = found->choice.origin;
    try {
        resolve(tuned);  // parameters the rung no longer has, or sizes that no longer fit
    } catch (const InputError&) {
        return false;
    }
    config = std::move(tuned);
    return true;
}

std::string merge_fastest_row(std::string_view existing, const std::string& device_label, const std::string& kernel,
                              const ProblemSize& size, int tile, const std::map<std::string, int64_t>& params, double gflops,
                              const std::string& who);

int best_result(const std::vector<TuneResult>& results) {
    int best = -1;
    for (size_t i = 0; i < results.size(); ++i)
        if (results[i].status == "ok" && (best < 0 || results[i].gflops > results[best].gflops)) best = static_cast<int>(i);
    return best;
}

namespace {

// The "fastest" table that --kernel fastest reads is data from the same measurements: the point
// tune stores becomes the row of this shape, unless the row there already names a faster
// verified run (another rung's, or an earlier sweep's). Rows of other shapes stay as they are.
void record_fastest(ordered_json& doc, const std::string& kernel, const ProblemSize& size, const TuneResult& b,
                    const std::string& command, const std::string& who = "tilescope tune") {
    if (!doc.contains("fastest") || !doc["fastest"].is_array()) doc["fastest"] = ordered_json::array();
    ordered_json& table = doc["fastest"];
    ordered_json row;
    row["size"] = std::to_string(size.M) + "x" + std::to_string(size.N) + "x" + std::to_string(size.K);
    row["kernel"] = kernel;
    row["tile"] = b.tile;
    row["params"] = params_json(b.params);
    row["gflops"] = b.gflops;
    row["from"] = who + ", " + utc_now() + (command.empty() ? std::string() : ": " + command);
    for (ordered_json& old : table) {
        ProblemSize at;
        try {
            at = parse_size(text_field(old, "size"));
        } catch (const InputError&) {
            continue;
        }
        if (!(at == size)) continue;
        const double old_gflops = old.contains("gflops") && old["gflops"].is_number() ? old["gflops"].get<double>() : 0.0;
        if (old_gflops < b.gflops) old = std::move(row);
        return;
    }
    table.push_back(std::move(row));
}

}  // namespace

std::string merge_fastest_row(std::string_view existing, const std::string& device_label, const std::string& kernel,
                              const ProblemSize& size, int tile, const std::map<std::string, int64_t>& params, double gflops,
                              const std::string& who) {
    if (!existing.empty())
        if (const std::string why = tuning_text_problem(existing); !why.empty())
            throw InputError("the tuning file to update is " + why + "; move it away or repair it");
    ordered_json doc = existing.empty() ? ordered_json::object() : ordered_json::parse(existing, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) throw InputError("the tuning file to update is not a JSON object; move it away or repair it");
    if (!doc.contains("device")) doc["device"] = device_label;
    if (!doc.contains("slug")) doc["slug"] = device_slug(device_label);
    if (!doc.contains("kernels") || !doc["kernels"].is_object()) doc["kernels"] = ordered_json::object();
    TuneResult r;
    r.tile = tile;
    r.params = params;
    r.status = "ok";
    r.gflops = gflops;
    record_fastest(doc, kernel, size, r, "", who);
    // Bounded like every table read: past kMaxFastestEntries rows the oldest go, so a new row
    // is always among those read back.
    ordered_json& table = doc["fastest"];
    if (table.size() > size_t(kMaxFastestEntries)) table.erase(table.begin(), table.begin() + std::ptrdiff_t(table.size() - kMaxFastestEntries));
    return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string merge_tuning(std::string_view existing, const std::string& device_label, const std::string& kernel,
                         const ProblemSize& size, const std::vector<TuneResult>& new_results, const std::string& command,
                         int chosen) {
    if (best_result(new_results) < 0) throw InputError("no verified result to store for kernel '" + kernel + "'");
    if (chosen >= static_cast<int>(new_results.size()) || (chosen >= 0 && new_results[chosen].status != "ok"))
        throw InputError("the point chosen to store for kernel '" + kernel + "' did not verify");
    // A damaged file is not silently replaced: it may hold other kernels' results.
    if (!existing.empty())
        if (const std::string why = tuning_text_problem(existing); !why.empty())
            throw InputError("the tuning file to update is " + why + "; move it away or repair it, then tune again");
    ordered_json doc = existing.empty() ? ordered_json::object() : ordered_json::parse(existing, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) doc = ordered_json::object();
    // Another sweep of this kernel at this size (an earlier run, or one running beside
    // this one) keeps the points this one did not rerun; the best is chosen over both.
    std::vector<TuneResult> results = new_results;
    for (const TuneResult& old : earlier_results(doc, kernel, size))
        if (std::none_of(results.begin(), results.end(),
                         [&](const TuneResult& r) { return r.tile == old.tile && r.params == old.params; }))
            results.push_back(old);
    const int best = chosen >= 0 ? chosen : best_result(results);
    doc["comment"] = "Tuned parameters for one device, written by `tilescope tune`; bench and the GUI use each "
                     "kernel's tile and params here. 'results' keeps every point of the sweep.";
    doc["device"] = device_label;
    doc["slug"] = device_slug(device_label);
    if (!doc.contains("kernels") || !doc["kernels"].is_object()) doc["kernels"] = ordered_json::object();
    const TuneResult& b = results[best];
    ordered_json e;
    e["tile"] = b.tile;
    e["params"] = params_json(b.params);
    e["gflops"] = b.gflops;
    e["median_s"] = b.median_s;
    e["size"] = size.label();
    e["tuned_at"] = utc_now();
    e["command"] = command;
    ordered_json list = ordered_json::array();
    for (const TuneResult& r : results) {
        ordered_json j;
        j["tile"] = r.tile;
        j["params"] = params_json(r.params);
        j["status"] = r.status;
        j["gflops"] = r.status == "ok" ? ordered_json(r.gflops) : ordered_json(nullptr);
        j["median_s"] = r.status == "refused" ? ordered_json(nullptr) : ordered_json(r.median_s);
        j["global"] = r.global;
        j["local"] = r.local;
        if (!r.message.empty()) j["message"] = r.message;
        list.push_back(std::move(j));
    }
    e["results"] = std::move(list);
    // The best per size bucket stays when another bucket is tuned: lookup reads "sizes" first.
    ordered_json sizes = ordered_json::object();
    if (doc["kernels"].contains(kernel) && doc["kernels"][kernel].is_object()) {
        const ordered_json& old = doc["kernels"][kernel];
        if (old.contains("sizes") && old["sizes"].is_object()) sizes = old["sizes"];
        else if (const std::string legacy_size = text_field(old, "size"); old.contains("tile") && !size_bucket(legacy_size).empty()) {
            ordered_json legacy = old;  // a file from before buckets: its entry becomes its bucket's
            legacy.erase("results");
            sizes[size_bucket(legacy_size)] = std::move(legacy);
        }
    }
    ordered_json summary = e;
    summary.erase("results");
    sizes[size_bucket(size)] = std::move(summary);
    e["sizes"] = std::move(sizes);
    doc["kernels"][kernel] = std::move(e);
    record_fastest(doc, kernel, size, b, command);
    return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::vector<std::pair<int, std::map<std::string, int64_t>>> sweep_points(
    const KernelSpec& kernel, const std::vector<int>& tiles, const std::map<std::string, std::vector<int64_t>>& values) {
    // Candidate lists with the default first, so the defaults run before anything else.
    std::vector<std::pair<std::string, std::vector<int64_t>>> axes;
    for (const TunableParam& p : kernel.params) {
        const auto it = values.find(p.name);
        std::vector<int64_t> v = it != values.end() ? it->second : p.values;
        if (it == values.end()) {
            v.erase(std::remove(v.begin(), v.end(), p.default_value), v.end());
            v.insert(v.begin(), p.default_value);
        }
        axes.emplace_back(p.name, std::move(v));
    }
    std::vector<std::pair<int, std::map<std::string, int64_t>>> points;
    for (const int t : tiles) {
        std::vector<size_t> idx(axes.size(), 0);
        for (;;) {
            std::map<std::string, int64_t> p;
            for (size_t a = 0; a < axes.size(); ++a) p[axes[a].first] = axes[a].second[idx[a]];
            points.emplace_back(t, std::move(p));
            size_t a = axes.size();
            while (a > 0) {  // odometer, last parameter fastest
                --a;
                if (++idx[a] < axes[a].second.size()) break;
                idx[a] = 0;
                if (a == 0) { a = axes.size() + 1; break; }
            }
            if (a == axes.size() + 1 || axes.empty()) break;
        }
    }
    return points;
}

}  // namespace tilescope

namespace tilescope {

int quick_tune_expected_points(const KernelSpec& kernel) {
    // Measured on the ladder: about three points per axis and round, two rounds, then the
    // pairs of axes (up to four moves each, fewer at the ends of the lists).
    const int axes = 1 + static_cast<int>(kernel.params.size());
    return 1 + 3 * axes + 2 + 3 * axes * (axes - 1) / 2;
}

std::vector<TuneResult> quick_tune(const KernelSpec& kernel, int start_tile, const std::map<std::string, int64_t>& start_params,
                                   const MeasurePoint& measure, const QuickTuneOptions& options) {
    // Axes: TS, then each parameter; each a sorted list of candidates holding the start value.
    struct Axis {
        std::string name;  // "" for TS
        std::vector<int64_t> values;
    };
    std::vector<Axis> axes;
    std::vector<int64_t> tiles(kernel.tiles.begin(), kernel.tiles.end());
    tiles.push_back(start_tile);
    for (const TunePoint& t : options.also_try) tiles.push_back(t.tile);
    axes.push_back({"", tiles});
    for (const TunableParam& p : kernel.params) {
        std::vector<int64_t> v = p.values;
        v.push_back(start_params.count(p.name) ? start_params.at(p.name) : p.default_value);
        for (const TunePoint& t : options.also_try) v.push_back(t.params.count(p.name) ? t.params.at(p.name) : p.default_value);
        axes.push_back({p.name, v});
    }
    for (Axis& a : axes) {
        std::sort(a.values.begin(), a.values.end());
        a.values.erase(std::unique(a.values.begin(), a.values.end()), a.values.end());
    }
    using Point = std::vector<int64_t>;  // one value per axis
    auto to_point = [&](int tile, const std::map<std::string, int64_t>& params) {
        Point p{tile};
        for (size_t a = 1; a < axes.size(); ++a)
            p.push_back(params.count(axes[a].name) ? params.at(axes[a].name) : kernel.params[a - 1].default_value);
        return p;
    };
    auto index_of = [&](size_t axis, int64_t v) {
        return static_cast<int>(std::find(axes[axis].values.begin(), axes[axis].values.end(), v) - axes[axis].values.begin());
    };

    const auto started = std::chrono::steady_clock::now();
    std::vector<TuneResult> results;
    std::map<Point, double> seen;  // point -> GFLOP/s (0 when not verified)
    Point best = to_point(start_tile, start_params);
    double best_gflops = -1;
    const int planned = quick_tune_expected_points(kernel);
    auto out_of_time = [&] {
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        return static_cast<int>(results.size()) >= options.max_points || s >= options.budget_s;
    };
    // Measures p unless seen; true when it beat the best.
    auto try_point = [&](const Point& p) {
        if (seen.count(p) || out_of_time()) return false;
        if (options.cancelled && options.cancelled()) throw Cancelled();
        std::map<std::string, int64_t> params;
        for (size_t a = 1; a < axes.size(); ++a) params[axes[a].name] = p[a];
        TuneResult r = measure(static_cast<int>(p[0]), params);
        r.tile = static_cast<int>(p[0]);
        r.params = params;
        const double g = r.status == "ok" ? r.gflops : 0;
        seen[p] = g;
        results.push_back(r);
        if (options.progress) options.progress(static_cast<int>(results.size()), std::max(planned, static_cast<int>(results.size())), r);
        if (g > best_gflops) {
            const bool improved = best_gflops >= 0 || results.size() == 1;
            best_gflops = g;
            best = p;
            return improved;
        }
        return false;
    };
    // One axis at a time: the neighbours of the best, then those two steps away.
    auto descend = [&] {
        for (int reach : {1, 2}) {
            bool moved = true;
            while (moved && !out_of_time()) {
                moved = false;
                for (size_t a = 0; a < axes.size(); ++a) {
                    if (axes[a].values.size() < 2) continue;
                    const int at = index_of(a, best[a]);
                    for (const int step : {-reach, reach}) {
                        const int i = at + step;
                        if (i < 0 || i >= static_cast<int>(axes[a].values.size())) continue;
                        Point p = best;
                        p[a] = axes[a].values[i];
                        if (try_point(p)) moved = true;
                    }
                }
                if (reach == 2 && moved) reach = 1;  // a far move found something: search near it again
            }
        }
    };
    try_point(best);
    // The points the type defaults name (measured best on one CPU of this type): measured next,
    // so the search moves from the fastest of them and the start.
    for (const TunePoint& t : options.also_try) try_point(to_point(t.tile, t.params));
    descend();
    // Parameters interact (a taller block of C wants another group shape), so one axis at
    // a time stops short: with time left, move two axes at once by one step each; a pair
    // that beats the best starts the one-axis search again from there.
    for (bool improved = true; improved && !out_of_time();) {
        improved = false;
        for (size_t a = 0; a < axes.size(); ++a)
            for (size_t b = a + 1; b < axes.size(); ++b)
                for (const int sa : {-1, 1})
                    for (const int sb : {-1, 1}) {
                        const int ia = index_of(a, best[a]) + sa, ib = index_of(b, best[b]) + sb;
                        if (ia < 0 || ib < 0 || ia >= static_cast<int>(axes[a].values.size()) ||
                            ib >= static_cast<int>(axes[b].values.size()))
                            continue;
                        Point p = best;
                        p[a] = axes[a].values[ia];
                        p[b] = axes[b].values[ib];
                        if (try_point(p)) improved = true;
                    }
        if (improved) descend();
    }
    return results;
}

}  // namespace tilescope

namespace tilescope {

bool paired_looks_win(const std::vector<PairedLook>& looks) {
    return !looks.empty() && std::all_of(looks.begin(), looks.end(), [](const PairedLook& l) {
               return l.ratio >= kPairedLookGain && (l.cpu_ratio <= 0 || l.cpu_ratio >= kPairedLookCpuFloor);
           });
}

void PairedTimes::append(const PairedTimes& more) {
    start_s.insert(start_s.end(), more.start_s.begin(), more.start_s.end());
    candidate_s.insert(candidate_s.end(), more.candidate_s.begin(), more.candidate_s.end());
    start_cpu_s.insert(start_cpu_s.end(), more.start_cpu_s.begin(), more.start_cpu_s.end());
    candidate_cpu_s.insert(candidate_cpu_s.end(), more.candidate_cpu_s.begin(), more.candidate_cpu_s.end());
}

namespace {

// The pairs' ratios a/b, sorted (pairs with a time of 0 or less left out).
std::vector<double> sorted_ratios(const std::vector<double>& a, const std::vector<double>& b) {
    std::vector<double> r;
    for (size_t i = 0; i < a.size() && i < b.size(); ++i)
        if (a[i] > 0 && b[i] > 0) r.push_back(a[i] / b[i]);
    std::sort(r.begin(), r.end());
    return r;
}

// The median's 95 % interval by order statistics: the ratios ranked n/2 -/+ 0.98 sqrt(n)
// (1-based, clamped to the list).
std::pair<double, double> median_interval(const std::vector<double>& r) {
    if (r.empty()) return {0, 0};
    const double n = static_cast<double>(r.size()), half = 0.98 * std::sqrt(n);
    const long lo = std::clamp<long>(static_cast<long>(std::floor(n / 2 - half)), 1, long(r.size()));
    const long hi = std::clamp<long>(static_cast<long>(std::ceil(n / 2 + half)), 1, long(r.size()));
    return {r[size_t(lo - 1)], r[size_t(hi - 1)]};
}

}  // namespace

PairedLook judge_paired(const std::string& size, const PairedTimes& times) {
    PairedLook l;
    l.size = size;
    const std::vector<double> wall = sorted_ratios(times.start_s, times.candidate_s);
    l.ratio = spread_of(wall).median;
    l.cpu_ratio = spread_of(sorted_ratios(times.start_cpu_s, times.candidate_cpu_s)).median;
    l.pairs = static_cast<int>(wall.size());
    return l;
}

PairedVerdict paired_verdict(const PairedTimes& times) {
    const std::vector<double> wall = sorted_ratios(times.start_s, times.candidate_s);
    const std::vector<double> cpu = sorted_ratios(times.start_cpu_s, times.candidate_cpu_s);
    if (wall.empty()) return PairedVerdict::lose;
    const auto [wall_lo, wall_hi] = median_interval(wall);
    const bool wall_ok = spread_of(wall).median >= kPairedLookGain;
    const bool wall_unsure = wall_lo < kPairedLookGain && kPairedLookGain <= wall_hi;
    bool cpu_ok = true, cpu_unsure = false;
    if (!cpu.empty()) {
        const auto [cpu_lo, cpu_hi] = median_interval(cpu);
        cpu_ok = spread_of(cpu).median >= kPairedLookCpuFloor;
        cpu_unsure = cpu_lo < kPairedLookCpuFloor && kPairedLookCpuFloor <= cpu_hi;
    }
    if (wall_ok && cpu_ok) return wall_unsure || cpu_unsure ? PairedVerdict::close : PairedVerdict::win;
    return (wall_ok || wall_unsure) && (cpu_ok || cpu_unsure) ? PairedVerdict::close : PairedVerdict::lose;
}

PairedLook paired_look(const std::string& size, const std::function<bool(int pairs, PairedTimes& into)>& time_more,
                       int batch, int max_pairs) {
    batch = std::max(1, batch);
    PairedTimes times;
    int taken = 0;
    do {
        PairedTimes more;
        if (!time_more(batch, more)) {
            PairedLook failed;
            failed.size = size;
            failed.pairs = taken;
            return failed;
        }
        times.append(more);
        taken += batch;
    } while (taken + batch <= max_pairs && paired_verdict(times) == PairedVerdict::close);
    return judge_paired(size, times);
}

std::vector<ProblemSize> quick_tune_judge_sizes(const ProblemSize& size) {
    std::vector<ProblemSize> out{size};
    for (const double f : {1000.0 / 1024.0, 1234.0 / 1024.0}) {
        const auto scaled = [&](int64_t v) { return std::max<int64_t>(1, std::llround(double(v) * f)); };
        const ProblemSize s{scaled(size.M), scaled(size.N), scaled(size.K)};
        if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
    }
    return out;
}

double quick_tune_estimate_s(const KernelSpec& kernel, double seconds_per_point, double budget_s) {
    const double s = std::max(0.0, seconds_per_point) * quick_tune_expected_points(kernel);
    return std::min(s, std::max(0.0, budget_s));
}

bool is_tunable(const KernelSpec& kernel) {
    return kernel.library.empty() && !kernel.custom && (kernel.tiles.size() > 1 || !kernel.params.empty());
}

QuickTuneStart quick_tune_start(const DeviceInfo& device, const KernelSpec& kernel, const ProblemSize& size) {
    QuickTuneStart s;
    s.tile = kernel.default_tile;
    if (const auto known = lookup_tuning(device, kernel.name, size)) {
        s.tile = known->choice.tile;
        s.params = known->choice.params;
        s.note = known->note;
    }
    return s;
}

std::vector<TunePoint> quick_tune_also_try(const DeviceInfo& device, const KernelSpec& kernel, const ProblemSize& size) {
    std::vector<TunePoint> out;
    if (!device.is_cpu && !device.is_gpu) return out;
    for_each_tuning_file(std::string("defaults-") + (device.is_gpu ? "gpu" : "cpu") + ".json",
                         [&](const std::string&, const std::string& text) {
                             if (!tuned_choice_in(text, kernel.name, size_bucket(size))) return false;
                             out = also_try_in(text, kernel.name, size_bucket(size));
                             return true;  // the first type-defaults file with the rung decides, as in lookup_tuning
                         });
    return out;
}

TuneResult measure_tune_point(Runner& runner, const KernelSpec& kernel, const ProblemSize& size, int tile,
                              const std::map<std::string, int64_t>& params, const RunOptions& options,
                              Measurement* measured) {
    LaunchConfig c{kernel, size, tile, params, "given"};
    TuneResult r;
    r.tile = tile;
    r.params = params;
    try {
        const ResolvedLaunch launch = resolve(c);
        r.global = launch.global_text();
        r.local = launch.local_text();
        runner.validate(c, options.cancelled);
        Measurement m = runner.measure(c, options);
        r.median_s = m.median_s;
        if (m.verification.verified) {
            r.status = "ok";
            r.gflops = m.gflops;
        } else {
            r.status = "wrong";
            r.message = m.verification.summary();
        }
        if (measured) *measured = std::move(m);
    } catch (const InputError& e) {
        r.status = "refused";
        r.message = e.what();
    }
    return r;
}

QuickTuneRun quick_tune_to_file(const KernelSpec& kernel, const ProblemSize& size, const std::string& device_label,
                                const QuickTuneStart& start, const MeasurePoint& measure, const QuickTuneOptions& options,
                                const std::string& out_path, const std::string& command) {
    QuickTuneRun run;
    run.path = out_path;
    const auto started = std::chrono::steady_clock::now();
    run.results = quick_tune(kernel, start.tile, start.params, measure, options);  // Cancelled: nothing below runs
    if (options.cancelled && options.cancelled()) throw Cancelled();                // asked during the last point
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    run.best = best_result(run.results);
    if (run.best < 0) return run;
    // The start is the first point quick_tune measures (its tile and parameters as run).
    if (!run.results.empty() && run.results[0].tile == start.tile &&
        std::all_of(start.params.begin(), start.params.end(), [&](const auto& kv) {
            const auto it = run.results[0].params.find(kv.first);
            return it != run.results[0].params.end() && it->second == kv.second;
        }))
        run.start = 0;
    auto text = [](const TuneResult& r) {
        std::string s = "TS=" + std::to_string(r.tile);
        for (const auto& [k, v] : r.params) s += " " + k + "=" + std::to_string(v);
        return s;
    };
    auto figure = [](double g) {
        char b[32];
        std::snprintf(b, sizeof b, "%.2f", g);
        return std::string(b);
    };
    if (run.start >= 0 && run.results[run.start].status == "ok") {
        TuneResult& s = run.results[run.start];
        // The also_try points as measured in this run (verified, not the start): on a CPU each
        // gets a paired look whatever its one measurement said (issue 30 item 4: under load the
        // search found this CPU's best point in some runs only, and kept the start in the others).
        std::vector<int> named;
        if (options.confirm_paired)
            for (const TunePoint& t : options.also_try)
                for (size_t i = 0; i < run.results.size(); ++i) {
                    const TuneResult& r = run.results[i];
                    if (static_cast<int>(i) == run.start || r.status != "ok" || r.tile != t.tile) continue;
                    if (!std::all_of(r.params.begin(), r.params.end(), [&](const auto& kv) {
                            const auto it = t.params.find(kv.first);
                            const auto* p = kernel.find_param(kv.first);
                            return it != t.params.end() ? it->second == kv.second : p && p->default_value == kv.second;
                        }))
                        continue;
                    if (std::find(named.begin(), named.end(), static_cast<int>(i)) == named.end()) named.push_back(static_cast<int>(i));
                }
        if (run.best == run.start && named.empty()) {
            run.verdict = "kept the start " + text(s) + " (" + figure(s.gflops) +
                          " GFLOP/s): no point of this run measured faster";
        } else {
            // A candidate measured faster once: measure the start and it again, back to back.
            TuneResult& b = run.results[run.best];
            if (options.cancelled && options.cancelled()) throw Cancelled();
            const std::string first = figure(b.gflops) + " against " + figure(s.gflops);
            if (options.confirm_paired) {
                // Every point that measured faster than the start once is a candidate, fastest
                // first; each is timed in pairs with the start in turn until one wins (at most
                // options.confirm_candidates). A candidate that loses its look was perhaps the
                // one a burst of load favoured in the search, not the only point worth having:
                // the next one gets its own look (issue 30 item 4).
                std::vector<int> order;
                for (size_t i = 0; i < run.results.size(); ++i)
                    if (static_cast<int>(i) != run.start && run.results[i].status == "ok" && run.results[i].gflops > s.gflops)
                        order.push_back(static_cast<int>(i));
                std::stable_sort(order.begin(), order.end(),
                                 [&](int x, int y) { return run.results[size_t(x)].gflops > run.results[size_t(y)].gflops; });
                // The points the type defaults name come first, each once: each has won paired looks
                // on a CPU of this type, where a candidate of the search has one median of 3 behind it
                // (issue 30 item 4, cpu7: a search candidate that won its pairs ran 17 to 25 points
                // below 1024 at 1000 and 1234 a minute later, in a run where the named point was never
                // looked at); then the candidates of the search.
                order.erase(std::remove_if(order.begin(), order.end(),
                                           [&](int c) { return std::find(named.begin(), named.end(), c) != named.end(); }),
                            order.end());
                if (order.size() > size_t(std::max(1, options.confirm_candidates))) order.resize(size_t(std::max(1, options.confirm_candidates)));
                order.insert(order.begin(), named.begin(), named.end());
                const std::string pairs = std::to_string(options.confirm_pairs) + " pairs timed in turn";
                std::string lost;  // the candidates that lost their looks, for the verdict
                run.best = run.start;
                for (const int c : order) {
                    const TuneResult& cand = run.results[size_t(c)];
                    const std::vector<PairedLook> looks = options.confirm_paired(s, cand);
                    if (options.cancelled && options.cancelled()) throw Cancelled();
                    // "median 1.31x the start's speed" at one size; "at 1024 median 1.05x, at 1000 median
                    // 0.80x, ... the start's speed" at several (a 0 says the pairs failed there).
                    std::string medians;
                    // A look by CPU time too, or one that took more pairs than the first batch (its
                    // verdict was close), says so: "median 1.15x (by CPU time 0.92x, 30 pairs)".
                    for (const PairedLook& l : looks) {
                        std::string extra;
                        if (l.ratio > 0 && l.cpu_ratio > 0) extra = "by CPU time " + figure(l.cpu_ratio) + "x";
                        if (l.ratio > 0 && l.pairs > options.confirm_pairs)
                            extra += (extra.empty() ? "" : ", ") + std::to_string(l.pairs) + " pairs";
                        medians += (medians.empty() ? "" : ", ") + (looks.size() > 1 ? "at " + l.size + " " : std::string()) +
                                   (l.ratio > 0 ? "median " + figure(l.ratio) + "x" : std::string("failed")) +
                                   (extra.empty() ? "" : " (" + extra + ")");
                    }
                    const bool any = std::any_of(looks.begin(), looks.end(), [](const PairedLook& l) { return l.ratio > 0; });
                    medians = looks.empty() ? std::string("failed") : any ? medians + " the start's speed" : medians;
                    const std::string where = looks.size() > 1 ? " at each size" : "";
                    const std::string once = figure(cand.gflops) + " against " + figure(s.gflops);
                    // A named point that was not faster in the search says so: its look is the data's, not the search's.
                    const bool was_faster = cand.gflops > s.gflops;
                    const bool is_named = std::find(named.begin(), named.end(), c) != named.end();
                    const std::string label = text(cand) + (is_named ? " (named by the defaults for its type)" : "");
                    if (paired_looks_win(looks)) {
                        run.best = c;
                        run.verdict = "stored " + label + ": " +
                                      (was_faster ? "faster than the start " + text(s) + " (" + once + " GFLOP/s), then"
                                                  : "not faster than the start " + text(s) + " in the search (" + once +
                                                        " GFLOP/s), but faster") +
                                      " in " + pairs + where + " (" + medians + ")" + (lost.empty() ? "" : "; before it, " + lost);
                        break;
                    }
                    lost += (lost.empty() ? "" : "; ") + label +
                            (was_faster ? " measured faster once (" + once + " GFLOP/s) but not"
                                        : " not faster in the search (" + once + " GFLOP/s) nor") +
                            " in " + pairs + where + " (" + medians + ")";
                }
                if (run.best == run.start) run.verdict = "kept the start " + text(s) + ": " + lost;
            } else {
                const TuneResult s2 = measure(s.tile, s.params);
                if (options.cancelled && options.cancelled()) throw Cancelled();
                const TuneResult b2 = measure(b.tile, b.params);
                if (options.cancelled && options.cancelled()) throw Cancelled();
                if (b2.status == "ok" && (s2.status != "ok" || b2.gflops > s2.gflops)) {
                    run.verdict = "stored " + text(b) + ": faster than the start " + text(s) + " twice (" + first + ", then " +
                                  figure(b2.gflops) + " against " + figure(s2.status == "ok" ? s2.gflops : 0) + " GFLOP/s)";
                } else {
                    run.verdict = "kept the start " + text(s) + ": " + text(b) + " measured faster once (" + first +
                                  " GFLOP/s) but not again (" + figure(b2.status == "ok" ? b2.gflops : 0) + " against " +
                                  figure(s2.gflops) + ")";
                    run.best = run.start;
                }
            }
        }
    } else if (run.start >= 0) {
        run.verdict = "the start " + text(run.results[run.start]) + " did not verify (" + run.results[run.start].status +
                      "); stored the best that did";
    }
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    // Locked read-merge-write: a second `tune` on the same file keeps this run's results, but
    // the point stored is this run's choice, never an earlier run's figure.
    update_file_locked(out_path, [&](const std::string& current) {
        return merge_tuning(current, device_label, kernel.name, size, run.results, command, run.best);
    });
    run.saved = true;
    return run;
}

}  // namespace tilescope
