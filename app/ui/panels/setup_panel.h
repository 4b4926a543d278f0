#pragma once
#include <map>
// Set-up: device, kernel (ladder or custom .cl), sizes, tile; what they imply (NDRange,
// groups, phases, local bytes) with limits in red; Trace and Measure buttons; jobs in
// flight with Cancel.
#include <utility>
#include <vector>

#include "core/caches/occupancy.h"
#include "ui/panels/side_panel.h"
#include "ui/state/setup_form.h"

namespace tilescope::ui {

class SetupPanel : public SidePanel {
public:
    const char* title() const override { return "Set-up"; }
    void draw(AppState& state) override;

    // The form's text fields (ImGui edits char buffers); converted to a SetupForm each frame.
    struct FormText {
        int kernel = 0;  // index into kernel_menu(), or its size for a custom kernel
        char size[64] = "32";
        int tile = 8;
        char source[256] = "", entry[64] = "", global[96] = "", local[96] = "", args[512] = "", defines[128] = "", check[64] = "";
        std::map<std::string, int64_t> params;  // the launch's tunable parameters (no field of their own yet)
    };

private:
    void sync_from(const LaunchConfig& config, const std::string& source_path);
    void draw_device(AppState& state, const DeviceInfo* device);
    void draw_kernel_fields();
    void draw_buttons(AppState& state, const SetupCheck& check);
    void draw_check(const SetupCheck& check);
    void draw_lesson();
    void draw_jobs(AppState& state);
    void draw_occupancy(const Trace& trace, const HiddenFigures& hide);

    FormText form_;
    bool initialised_ = false;
    uint64_t imposed_seen_ = 0;  // AppState::imposed when the form last took the launch on show
    // occupancy_of_trace parses the profiles: kept for the trace on show (its work-items, bytes)
    std::pair<uint64_t, uint64_t> occupancy_key_{0, 0};
    std::vector<ProfileOccupancy> occupancy_rows_;
};

}  // namespace tilescope::ui
