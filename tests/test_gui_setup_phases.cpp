// The set-up panel's "N phases per work-group" is what the timeline then shows: for every
// rung of the ladder, at sizes that are and are not multiples of the tile, the form's
// count (from the rung's closed forms, before anything runs) equals the traced count of
// barrier intervals of a work-group.
#include <gtest/gtest.h>

#include "core/kernel/catalog.h"
#include "core/emulator/trace_runner.h"
#include "core/trace/view_model.h"
#include "ui/state/setup_form.h"

using namespace tilescope;
using namespace tilescope::ui;

namespace {

int form_phases(const SetupCheck& c) {
    for (const std::string& line : c.implied)
        if (line.find("phases per work-group") != std::string::npos) return std::stoi(line);
    return -1;
}

}  // namespace

TEST(SetupPhases, TheFormCountsThePhasesTheTimelineShows) {
    for (const char* size : {"32", "37x29x45"}) {
        for (const KernelSpec& rung : ladder()) {
            if (!rung.library.empty()) continue;  // a library call: nothing is traced
            SCOPED_TRACE(rung.name + " " + size);
            SetupForm f;
            f.kernel = rung.name;
            f.size = size;
            f.tile = rung.default_tile;
            const SetupCheck c = check_setup(f, nullptr);
            ASSERT_TRUE(c.ok()) << c.problem;
            const int said = form_phases(c);
            ASSERT_GT(said, 0) << "no phase count in the form";
            TraceOptions o;
            o.groups = {GroupId{0, 0, 0}};
            const Trace t = run_trace(*c.config, o);
            EXPECT_EQ(said, phase_count(t, GroupId{0, 0, 0}));
        }
    }
}
