#pragma once
// The cache model in the GUI (issue 11): the memory hierarchy diagram (traced requests ->
// L1 -> L2 -> DRAM, every number labelled traced or modelled), the hierarchical
// roofline's modelled DRAM points, and "the ladder explained" chart. Each widget paints
// data the caller owns; the hierarchy panel keeps its own profile choice.
#include <imgui.h>

#include <optional>
#include <string>
#include <vector>

#include "core/caches/cache_model.h"
#include "core/teach/ladder_explained.h"
#include "core/trace/trace.h"
#include "ui/state/app_state.h"
#include "ui/widgets/emulation_view.h"
#include "ui/panels/side_panel.h"

namespace tilescope::ui {

class PlotFrame;

// The hierarchy diagram for one trace, with a profile picker; runs the model on the
// trace's requests when the trace or the profile changes (a few ms at 128^3).
void draw_memory_hierarchy(const TraceSnapshot& trace, std::string& profile, ImVec2 size);

// The heatmap's data with A's and B's counts replaced by the modelled DRAM fetches of
// their sectors, when state.heatmap_by_dram (cached per trace and profile).
EmulationViewData heatmap_by_dram(EmulationViewData data, const AppState& state);

// One rung in the hierarchical roofline: traced global intensity, modelled DRAM intensity.
struct HierarchicalPoint {
    std::string kernel;
    double global_flops_per_byte = 0;  // traced
    double dram_flops_per_byte = 0;    // modelled (0: none)
    double gflops = 0;                 // measured
};
// Both points of each rung, joined by a line, in a roofline frame the caller painted.
void draw_hierarchical_points(const PlotFrame& frame, const std::vector<HierarchicalPoint>& points,
                              const std::string& profile);

// The side panel's section holding the hierarchy diagram of the main trace.
class CachesSection : public SidePanel {
public:
    const char* title() const override { return "Memory hierarchy (modelled)"; }
    void draw(AppState& state) override;
};

// Each rung's two intensities with its measured GFLOP/s (the performance plan modelled
// the DRAM ones: core/tasks/performance.h).
std::vector<HierarchicalPoint> hierarchical_points(const Performance& perf);

// The Ladder view: the ladder chart over the performance job's data.
void draw_ladder_view(AppState& state, ImVec2 size);

// One chart, rung by rung: a column per step, a row per figure, each cell a bar of the
// ratio to the rung before (log scale; down is less), with the step's reading beneath.
void draw_ladder_chart(const std::vector<LadderStep>& steps, ImVec2 size, const std::string& caption);

}  // namespace tilescope::ui
