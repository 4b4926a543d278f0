#pragma once
// What persists between runs: $XDG_CONFIG_HOME/tilescope/settings.json (or
// ~/.config/tilescope); ImGui keeps no imgui.ini (App's constructor says why). Scripted runs neither
// read nor write it, so screenshots do not depend on who ran the GUI before.
#include <string>

namespace tilescope::ui {

struct Settings {
    bool presenter = false;       // false
    float speed = 1.0f;           // 1 interval per second
    std::string view = "emulation";
    std::string kernel = "tiled"; // last configuration traced
    std::string size = "32";
    int tile = 8;
    std::string device;           // "" = default
    float sidebar_width = 380;    // pixels
};

std::string config_dir();  // created on demand
// Where F12 saves: $XDG_PICTURES_DIR/tilescope, else ~/Pictures/tilescope, made on
// demand; the working directory when neither can be made.
std::string screenshot_dir();
std::string absolute_path(const std::string& path);  // for messages that say where a file went
Settings load_settings();  // defaults when absent or unreadable
void save_settings(const Settings& s);  // atomically; errors are ignored (settings are a convenience)

}  // namespace tilescope::ui
