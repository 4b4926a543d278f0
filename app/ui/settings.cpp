#include "ui/settings.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

namespace tilescope::ui {

std::string config_dir() {
    std::string base;
    if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x) base = x;
    else if (const char* h = std::getenv("HOME"); h && *h) base = std::string(h) + "/.config";
    else base = ".";
    const std::string dir = base + "/tilescope";
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    return dir;
}

Settings load_settings() {
    Settings s;
    try {
        std::ifstream in(config_dir() + "/settings.json");
        if (!in) return s;
        const nlohmann::json j = nlohmann::json::parse(in);
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
    const std::string path = config_dir() + "/settings.json";
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp);
        if (!out) return;
        out << j.dump(2) << "\n";
        if (!out) return;
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
}

}  // namespace tilescope::ui
