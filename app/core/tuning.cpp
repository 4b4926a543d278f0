#include "core/tuning.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/embedded_files.h"
#include "core/errors.h"

namespace tilescope {
namespace {

using ordered_json = nlohmann::ordered_json;

std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return {};
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
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

// The sweep results stored for `kernel` at `size` in a tuning document; none when the
// entry is missing, for another size, or unreadable.
std::vector<TuneResult> earlier_results(const ordered_json& doc, const std::string& kernel, const ProblemSize& size) {
    std::vector<TuneResult> out;
    try {
        const ordered_json& e = doc.at("kernels").at(kernel);
        if (e.at("size").get<std::string>() != size.label()) return {};
        for (const ordered_json& j : e.at("results")) {
            TuneResult r;
            r.tile = j.at("tile").get<int>();
            for (const auto& [name, v] : j.at("params").items()) r.params[name] = v.get<int64_t>();
            r.status = j.at("status").get<std::string>();
            r.gflops = j.at("gflops").is_number() ? j.at("gflops").get<double>() : 0.0;
            r.median_s = j.at("median_s").is_number() ? j.at("median_s").get<double>() : 0.0;
            r.global = j.value("global", "");
            r.local = j.value("local", "");
            r.message = j.value("message", "");
            out.push_back(std::move(r));
        }
    } catch (const nlohmann::json::exception&) {
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

std::vector<std::string> tuning_search_dirs() {
    std::vector<std::string> dirs;
    if (const char* env = std::getenv("TILESCOPE_TUNING_DIR"); env && *env) dirs.push_back(env);
    dirs.push_back("assets/tuning");
    if (const std::string exe = executable_dir(); !exe.empty()) dirs.push_back(exe + "/tuning");
    return dirs;
}

std::string default_tuning_dir() {
    if (const char* env = std::getenv("TILESCOPE_TUNING_DIR"); env && *env) return env;
    return "assets/tuning";
}

std::optional<TunedChoice> tuned_choice_in(std::string_view json_text, std::string_view kernel) {
    const ordered_json doc = ordered_json::parse(json_text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("kernels")) return std::nullopt;
    const auto& kernels = doc["kernels"];
    const std::string name(kernel);
    if (!kernels.is_object() || !kernels.contains(name)) return std::nullopt;
    const auto& e = kernels[name];
    try {
        TunedChoice c;
        c.kernel = name;
        c.tile = e.at("tile").get<int>();
        const ordered_json params = e.value("params", ordered_json::object());  // named: items() must not outlive it
        for (const auto& [pname, v] : params.items()) c.params[pname] = v.get<int64_t>();
        c.gflops = e.value("gflops", 0.0);
        c.size = e.value("size", "");
        return c;
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;
    }
}

std::optional<TunedChoice> find_tuned(std::string_view slug, std::string_view kernel) {
    const std::string file = std::string(slug) + ".json";
    for (const std::string& dir : tuning_search_dirs()) {
        const std::filesystem::path path = std::filesystem::path(dir) / file;
        std::error_code ec;
        if (!std::filesystem::is_regular_file(path, ec)) continue;
        if (auto c = tuned_choice_in(read_text(path), kernel)) {
            c->origin = path.string();
            return c;
        }
    }
    const std::string embedded = "assets/tuning/" + file;
    for (const EmbeddedFile& f : embedded_files())
        if (f.path == embedded)
            if (auto c = tuned_choice_in(f.text, kernel)) {
                c->origin = "embedded " + embedded;
                return c;
            }
    return std::nullopt;
}

bool apply_tuning(LaunchConfig& config, const DeviceInfo& device) {
    if (config.kernel.custom || !config.kernel.library.empty()) return false;
    const auto choice = find_tuned(device_slug(device), config.kernel.name);
    if (!choice) return false;
    LaunchConfig tuned = config;
    tuned.tile = choice->tile;
    tuned.params = choice->params;
    tuned.params_source = "tuned";
    try {
        resolve(tuned);  // parameters the rung no longer has, or sizes that no longer fit
    } catch (const InputError&) {
        return false;
    }
    config = std::move(tuned);
    return true;
}

int best_result(const std::vector<TuneResult>& results) {
    int best = -1;
    for (size_t i = 0; i < results.size(); ++i)
        if (results[i].status == "ok" && (best < 0 || results[i].gflops > results[best].gflops)) best = static_cast<int>(i);
    return best;
}

std::string merge_tuning(std::string_view existing, const std::string& device_label, const std::string& kernel,
                         const ProblemSize& size, const std::vector<TuneResult>& new_results, const std::string& command) {
    if (best_result(new_results) < 0) throw InputError("no verified result to store for kernel '" + kernel + "'");
    ordered_json doc = existing.empty() ? ordered_json::object() : ordered_json::parse(existing, nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) doc = ordered_json::object();
    // Another sweep of this kernel at this size (an earlier run, or one running beside
    // this one) keeps the points this one did not rerun; the best is chosen over both.
    std::vector<TuneResult> results = new_results;
    for (const TuneResult& old : earlier_results(doc, kernel, size))
        if (std::none_of(results.begin(), results.end(),
                         [&](const TuneResult& r) { return r.tile == old.tile && r.params == old.params; }))
            results.push_back(old);
    const int best = best_result(results);
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
    doc["kernels"][kernel] = std::move(e);
    return doc.dump(2) + "\n";
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
