#pragma once
// What a scene (gui --scene, a lesson step's "state") may say for the keys that are not a
// launch: the view, the part of a phase, the naming, the phase/interval/iteration numbers
// and the device. One list for the GUI's options and the lesson reader, so a value the GUI
// would refuse is refused when the lesson is read, named as the lesson's.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace tilescope {

// The GUI's views, in the order of its tabs (app_state.h's View follows this order).
inline constexpr std::array<std::string_view, 6> kSceneViews = {"emulation", "heatmap",     "source",
                                                                 "performance", "compare", "ladder"};
// The parts a phase splits into (phases.h's PhasePart names).
inline constexpr std::array<std::string_view, 5> kSceneParts = {"load", "use", "load + use", "store", "compute"};
// Phases, raw barrier intervals and iterations of a use part: 0 to this.
inline constexpr int64_t kMaxSceneNumber = int64_t(1) << 24;
// A device selector ("pocl", "nvidia", a device's name): printable, at most this long.
inline constexpr size_t kMaxSceneDeviceChars = 256;

std::string scene_views_text();  // "emulation, heatmap, source, performance, compare, ladder"
std::string scene_parts_text();  // "load, use, 'load + use', store, compute"
bool is_scene_view(std::string_view v);
bool is_scene_part(std::string_view p);
// Empty when `device` is a selector the GUI accepts, else what is wrong with it.
std::string scene_device_problem(std::string_view device);

}  // namespace tilescope
