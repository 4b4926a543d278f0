#include "core/teach/scene_values.h"

#include "core/base/errors.h"

#include <algorithm>

namespace tilescope {
namespace {

template <size_t N>
std::string joined(const std::array<std::string_view, N>& names) {
    std::string out;
    for (std::string_view n : names) {
        const bool spaced = n.find(' ') != std::string_view::npos;
        out += (out.empty() ? "" : ", ") + std::string(spaced ? "'" : "") + std::string(n) + (spaced ? "'" : "");
    }
    return out;
}

}  // namespace

std::string scene_views_text() { return joined(kSceneViews); }
std::string scene_parts_text() { return joined(kSceneParts); }
bool is_scene_view(std::string_view v) { return std::find(kSceneViews.begin(), kSceneViews.end(), v) != kSceneViews.end(); }
bool is_scene_part(std::string_view p) { return std::find(kSceneParts.begin(), kSceneParts.end(), p) != kSceneParts.end(); }

std::string scene_device_problem(std::string_view device) {
    if (device.size() > kMaxSceneDeviceChars)
        return std::to_string(device.size()) + " characters; accepted: at most " + std::to_string(kMaxSceneDeviceChars);
    if (has_control_character(device))
        return "holds a control character; accepted: a device's name or a part of it, such as pocl or nvidia";
    return {};
}

}  // namespace tilescope
