#pragma once
// Compare mode: two configurations side by side, one phase cursor. The second one is
// chosen here (kernel, size, tile); the selected group maps to the group of the second
// configuration that computes the same cells of C, and the phase to the one loading the
// same columns of A. Owns its two emulation views and its form: one per App.
#include <optional>
#include <string>
#include <vector>

#include "ui/state/app_state.h"
#include "ui/widgets/emulation_view.h"

namespace tilescope::ui {

// The group of a launch whose block of C holds (row, col), from its NDRange alone (C
// split evenly among the groups, as every rung of the ladder does); clamped to the groups
// that exist, so it never names a group the launch does not have.
GroupId group_covering(const LaunchConfig& config, int64_t row, int64_t col);

class ComparePanel {
public:
    // `projector`: presenter mode with the panels away. The form row goes (H brings the
    // panels and it back), the summaries shrink to three short lines, the matrices take the rest.
    void draw(AppState& s, ImVec2 size, bool projector = false);
    // Both views' matrices, left then right (for --layout).
    std::vector<MatrixPlacement> placements() const;
    // The second configuration's group for the first's `group` (before either is traced).
    static GroupId mapped_group(const LaunchConfig& first, const GroupId& group, const LaunchConfig& second);

private:
    struct Shown {  // what the right side shows for the cursor
        GroupId group{};
        int interval = 0;  // the part on show (barrier interval)
        std::string why;  // how it was matched, in words
    };
    Shown match(const AppState& s) const;
    void draw_form(AppState& s);
    void follow_main(AppState& s);
    void retrace_for(AppState& s, const GroupId& group);
    void summary(const AppState& s, const TraceSlot& slot, const GroupId& group, int interval, const std::string& why,
                 bool projector) const;

    EmulationView left_, right_;
    int kernel_ = -1;             // index into kernel_menu()
    char size_[32] = "";
    int tile_ = 0;
    std::string problem_;         // the form's first problem, one sentence
    bool chosen_ = false;         // the user picked the second configuration (else it follows the first at 2*TS)
    std::string followed_;        // config_key of the first configuration last followed
    std::optional<GroupId> asked_;  // group whose detail was last asked of the second trace
    uint64_t asked_version_ = 0;
    uint64_t imposed_seen_ = 0;   // AppState::imposed when last drawn
};

// Compare mode's measurements of both configurations.
void start_compare_measurements(AppState& state);

}  // namespace tilescope::ui
