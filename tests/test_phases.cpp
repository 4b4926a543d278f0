// Phases as the slides count them (core/trace/phases.h), on hand-made barrier sequences.
#include <gtest/gtest.h>

#include "core/trace/phases.h"

using namespace tilescope;

namespace {
std::vector<std::string> names_of(const PhasePlan& p) {
    std::vector<std::string> n;
    for (const auto& part : p.parts) n.push_back(std::to_string(part.phase) + ":" + part.name);
    return n;
}
}  // namespace

// tiled at 4x4, TS 2: barriers on lines 33 (after the load) and 37 (after the use), twice;
// then the store. The slides: 2 phases, each a Load and a Use.
TEST(Phases, TiledFourByFourHasTwoPhasesOfLoadAndUse) {
    const PhasePlan p = phase_plan({33, 37, 33, 37, 0}, {"load", "use", "load", "use", "store"});
    EXPECT_EQ(p.phases, 2);
    EXPECT_EQ(p.cycle_lines, (std::vector<int>{33, 37}));
    EXPECT_EQ(names_of(p), (std::vector<std::string>{"0:load", "0:use", "1:load", "1:use", "1:store"}));
    EXPECT_EQ(p.interval_of(1), 2);
    EXPECT_EQ(p.interval_of(1, "use"), 3);
    EXPECT_EQ(p.interval_of(2), -1);
    EXPECT_EQ(p.parts[4].index, 2);
    EXPECT_EQ(part_title(p, 3), "phase 1 of 2, use (ends at the barrier on line 37)");
    // held for a question on the phase count: neither the count nor the phase's number
    EXPECT_EQ(part_title(p, 3, true), "phase ? of ? (hidden until Reveal), use (ends at the barrier on line 37)");
}

// 37x29x45 with TS 8: ceil(45/8) = 6 trips round the loop.
TEST(Phases, SixTripsAreSixPhases) {
    std::vector<int> lines;
    std::vector<std::string> names;
    for (int i = 0; i < 6; ++i) lines.insert(lines.end(), {33, 37}), names.insert(names.end(), {"load", "use"});
    lines.push_back(0), names.push_back("store");
    EXPECT_EQ(phase_plan(lines, names).phases, 6);
}

// Double buffering: one barrier before the loop (tile 0 loaded), then one per trip.
TEST(Phases, DoubleBufferingHasOnePartPerPhaseAndAPrologue) {
    const PhasePlan p = phase_plan({20, 41, 41, 41, 0}, {"load", "load + use", "load + use", "use", "store"});
    EXPECT_EQ(p.phases, 3);
    EXPECT_EQ(p.cycle_start, 1);
    EXPECT_EQ(p.cycle_lines, (std::vector<int>{41}));
    EXPECT_EQ(names_of(p),
              (std::vector<std::string>{"0:load", "0:load + use", "1:load + use", "2:use", "2:store"}));
}

TEST(Phases, NoBarrierNoPhases) {
    const PhasePlan p = phase_plan({0}, {"compute"});
    EXPECT_EQ(p.phases, 0);
    EXPECT_EQ(p.parts.size(), 1u);
    EXPECT_EQ(part_title(p, 0), "no phases (no barrier)");
}

// One trip: the cycle is the whole sequence, one phase.
TEST(Phases, OneTripIsOnePhase) {
    const PhasePlan p = phase_plan({33, 37, 0}, {"load", "use", "store"});
    EXPECT_EQ(p.phases, 1);
    EXPECT_EQ(names_of(p), (std::vector<std::string>{"0:load", "0:use", "0:store"}));
}

// A part is named by what it did.
TEST(Phases, PartsAreNamedByTheirTraffic) {
    BarrierInterval in;
    EXPECT_EQ(part_name(in), "compute");
    in.global.store_bytes = 4;
    EXPECT_EQ(part_name(in), "store");
    in.local.load_bytes = 4;
    EXPECT_EQ(part_name(in), "use");
    in.local.store_bytes = 4;
    EXPECT_EQ(part_name(in), "load + use");
    in.local.load_bytes = 0;
    EXPECT_EQ(part_name(in), "load");
}

// A slide's title loses its phase number while the phase count is held, and only a title that
// starts with one changes.
TEST(Phases, ATitleWithoutItsPhaseNumber) {
    EXPECT_EQ(title_without_phase_number("Phase 5 Load for Block (0,0)"), "This phase: Load for Block (0,0)");
    EXPECT_EQ(title_without_phase_number("Phase 12 Use for Block (1,2) (iteration 3)"), "This phase: Use for Block (1,2) (iteration 3)");
    EXPECT_EQ(title_without_phase_number("Store for Block (0,0)"), "Store for Block (0,0)");
    EXPECT_EQ(title_without_phase_number("Phase one"), "Phase one");
    EXPECT_EQ(title_without_phase_number("Phase 5"), "Phase 5");
    EXPECT_EQ(title_without_phase_number(""), "");
}
