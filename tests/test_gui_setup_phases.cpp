// The set-up panel's "N phases per work-group" is what the timeline then shows: for every
// rung of the ladder, at sizes that are and are not multiples of the tile, the form's
// count (from the rung's closed forms, before anything runs) equals the phases found in
// the trace (trips round the tile loop, from the cycle of barrier lines a group passes);
// a rung without barriers says "no phases" and its trace has none.
#include <gtest/gtest.h>

#include "core/kernel/catalog.h"
#include "core/emulator/trace_runner.h"
#include "core/trace/phases.h"
#include "ui/state/setup_form.h"

using namespace tilescope;
using namespace tilescope::ui;

namespace {

int form_phases(const SetupCheck& c) {
    for (const std::string& line : c.implied)
        if (line.rfind("no phases", 0) == 0) return 0;
        else if (line.find(" per work-group (trips round the tile loop") != std::string::npos) return std::stoi(line);
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
            ASSERT_GE(said, 0) << "no phase count in the form: " << ::testing::PrintToString(c.implied);
            TraceOptions o;
            o.groups = {GroupId{0, 0, 0}};
            const Trace t = run_trace(*c.config, o);
            EXPECT_EQ(said, phase_plan(t, GroupId{0, 0, 0}).phases);
        }
    }
}
