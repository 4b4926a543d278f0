#include "ui/state/settings.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/base/environment.h"
#include "core/base/atomic_file.h"
#include "core/base/errors.h"
#include "core/base/json_numbers.h"
#include "core/base/untrusted_file.h"
#include "core/teach/scene_values.h"

namespace tilescope::ui {

std::string config_dir() {
    std::string base;
    if (const auto x = env_text("XDG_CONFIG_HOME")) base = *x;
    else if (const auto h = env_text("HOME")) base = *h + "/.config";
    else base = ".";
    const std::string dir = base + "/tilescope";
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    return dir;
}

std::string screenshot_dir() {
    std::vector<std::string> candidates;
    if (const auto x = env_text("XDG_PICTURES_DIR")) candidates.push_back(*x + "/tilescope");
    if (const auto h = env_text("HOME")) candidates.push_back(*h + "/Pictures/tilescope");
    for (const std::string& dir : candidates) {
        std::error_code ec;
        std::filesystem::create_directories(dir, ec);
        if (!ec && std::filesystem::is_directory(dir, ec)) return dir;
    }
    return absolute_path(".");
}

std::string absolute_path(const std::string& path) {
    std::error_code ec;
    const std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
    return ec ? path : p.string();
}

Settings load_settings() {
    Settings s;
    try {
        const std::string text = read_untrusted_file_or_empty(config_dir() + "/settings.json", 1u << 20, "settings");
        if (text.empty() || json_depth(text, 16) > 16) return s;
        const nlohmann::json j = nlohmann::json::parse(text);
        if (!j.is_object()) return s;
        // A settings file may come from anyone (a copied home folder): each value is taken only when it is
        // one the window could have saved, else its default stays. A speed of -5 froze Play; a width of
        // 1e30 was kept and saved again (session 51). The kernel, size and tile are checked when resolved
        // (last_session_config).
        const auto take = [&](const char* key, auto& field, auto accepted) {
            const auto it = j.find(key);
            if (it == j.end()) return;
            try {
                auto v = it->template get<std::decay_t<decltype(field)>>();
                if (accepted(v)) field = std::move(v);
            } catch (const std::exception&) {
            }
        };
        const auto finite_in = [](double lo, double hi) { return [=](float v) { return std::isfinite(v) && v >= lo && v <= hi; }; };
        take("presenter", s.presenter, [](bool) { return true; });
        take("speed", s.speed, finite_in(0.1, 8.0));  // the speed slider's range
        take("sidebar_width", s.sidebar_width, finite_in(250.0, 4000.0));
        take("view", s.view, [](const std::string& v) {
            return std::find(kSceneViews.begin(), kSceneViews.end(), v) != kSceneViews.end();
        });
        take("kernel", s.kernel, [](const std::string& v) { return v.size() <= 64; });
        take("size", s.size, [](const std::string& v) { return v.size() <= 64; });
        if (const auto it = j.find("tile"); it != j.end()) try {
                s.tile = int(whole_number(*it, 1, 65536, "the tile"));
            } catch (const InputError&) {
            }
        take("device", s.device, [](const std::string& v) { return scene_device_problem(v).empty(); });
    } catch (...) {
        return Settings{};
    }
    return s;
}

void save_settings(const Settings& s) {
    nlohmann::json j = {{"presenter", s.presenter}, {"speed", s.speed}, {"view", s.view}, {"kernel", s.kernel},
                        {"size", s.size}, {"tile", s.tile}, {"device", s.device}, {"sidebar_width", s.sidebar_width}};
    try {
        // Atomic: two windows saving at once, or one killed mid-write, never leave half a file.
        write_file_atomically(config_dir() + "/settings.json", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    } catch (const InputError&) {
        // Settings are a convenience: an unwritable config directory must not stop the GUI.
    }
}

}  // namespace tilescope::ui
