#pragma once
// Scripted mode (--frames, --screenshot, --layout, --frame-stats, --phase checks): waits
// until every trace and measurement asked for is in, then renders N frames, writes the
// PNG and the layout file after the last one, and reports frame times.
#include <optional>
#include <string>
#include <vector>

#include "gfx/backend.h"
#include "ui/shell/gui_options.h"

namespace tilescope::ui {

class App;

class ScriptedRun {
public:
    explicit ScriptedRun(const GuiOptions& options) : o_(options) {}
    // Before each frame. False: stop now (status() says why: 2 for bad input).
    bool before_frame(App& app, double now);
    // After the frame rendered, before it is presented.
    void after_render(App& app, gfx::Backend& backend);
    bool finished() const { return finished_; }
    int status() const { return status_; }
    void print_frame_stats() const;  // `frames=N p50_ms=X p95_ms=Y max_ms=Z` when asked

private:
    bool data_arrived(App& app);
    void write_outputs(App& app, gfx::Backend& backend);

    GuiOptions o_;
    bool ready_ = false;
    double started_ = -1, frame_start_ = 0, last_start_ = -1;
    int counted_ = 0;
    std::vector<double> frame_ms_;
    bool finished_ = false;
    int status_ = 0;
};

}  // namespace tilescope::ui
