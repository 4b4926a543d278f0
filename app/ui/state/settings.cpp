#include "ui/state/settings.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/base/environment.h"
#include "core/base/atomic_file.h"
#include "core/base/errors.h"
#include "core/base/untrusted_file.h"

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
        s.presenter = j.value("presenter", s.presenter);
        s.speed = j.value("speed", s.speed);
        s.view = j.value("view", s.view);
        s.kernel = j.value("kernel", s.kernel);
        s.size = j.value("size", s.size);
        s.tile = j.value("tile", s.tile);
        s.device = j.value("device", s.device);
        s.sidebar_width = j.value("sidebar_width", s.sidebar_width);
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
