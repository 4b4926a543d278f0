#pragma once
// Paints ImGui's draw data, re-rasterising only the region whose draw lists changed
// since the last frame, when the window can present a region of a back buffer that
// persists (Mesa's software GL: a classroom laptop without a GPU, Xvfb). There the
// text-heavy side panels cost most of a frame and rarely change while the phases play,
// and a full-window copy alone costs ~12 ms. Elsewhere it repaints everything.
#include <cstdint>
#include <string>
#include <vector>

struct ImDrawData;

namespace tilescope::gfx {

class DamageRenderer {
public:
    // Renders `dd` (after ImGui::Render) into the back buffer. `partial`: the back buffer
    // kept the last frame, so only the damage is repainted. Returns the damaged region
    // in GL window coordinates (x, y bottom-left, w, h) for Window::present_region.
    struct Region { int x = 0, y = 0, w = 0, h = 0; };
    Region render(ImDrawData* dd, int fb_width, int fb_height, uint32_t clear_rgba, bool partial);
    void invalidate() { full_ = true; }  // repaint everything next frame
    float last_damage_fraction() const { return damage_; }  // share of the window repainted

    struct ListState {  // what one ImGui draw list painted last frame
        std::string name;
        uint64_t hash = 0;
        float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // bounding box of its clip rectangles
    };

private:
    int w_ = 0, h_ = 0;
    bool full_ = true;
    uint32_t clear_ = 0;
    float damage_ = 1.f;
    std::vector<ListState> lists_;
};

// A signature of what a grid callback will paint (texture contents included), so a list
// whose only change is a re-uploaded grid texture counts as changed.
uint64_t grid_callback_signature(const void* user_data);

}  // namespace tilescope::gfx
