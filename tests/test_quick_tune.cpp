// tune --quick's search (issue 12) on made-up landscapes, where the best point is known:
// it climbs to the best where parameters interact (one axis at a time would stop short),
// measures a small part of the grid, keeps to its budget, and stops on cancel.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/base/errors.h"
#include "core/tuning/tuning.h"

using namespace tilescope;

namespace {

KernelSpec rung() {
    KernelSpec k;
    k.name = "made_up";
    k.tiles = {16, 32, 48, 64};
    k.default_tile = 32;
    k.params = {{"WPTM", 8, {4, 8, 12, 16}}, {"WGM", 1, {1, 2, 4}}, {"WGN", 1, {1, 2, 4, 8}}, {"VW", 16, {8, 16}}};
    return k;
}

// A diagonal ridge: WPTM and WGN trade against each other. In list positions (WPTM 4,8,12,16
// -> 0..3; WGN 1,2,4,8 -> 0..3) the ridge is iw + ig = 4 and it rises towards WPTM=16,
// WGN=2. From WPTM=8, WGN=8 every single step falls off the ridge (-60, gaining at most
// +10); one step of each at once stays on it and climbs.
int position(const std::vector<int64_t>& list, int64_t v) { return int(std::find(list.begin(), list.end(), v) - list.begin()); }

double ridge(int tile, const std::map<std::string, int64_t>& p) {
    const int iw = position({4, 8, 12, 16}, p.at("WPTM")), ig = position({1, 2, 4, 8}, p.at("WGN"));
    double g = 300 - 2 * std::abs(tile - 32) - std::abs(double(p.at("WGM")) - 2) * 10 - (p.at("VW") == 16 ? 0 : 150);
    g -= 60 * std::abs(iw + ig - 4);
    g += 10 * iw;
    return g;
}

TuneResult measured(int tile, const std::map<std::string, int64_t>& p, double g) {
    TuneResult r;
    r.tile = tile;
    r.params = p;
    r.status = "ok";
    r.gflops = g;
    return r;
}

std::pair<int, std::map<std::string, int64_t>> best_of(const std::vector<TuneResult>& results) {
    const int i = best_result(results);
    return {results.at(size_t(i)).tile, results.at(size_t(i)).params};
}

}  // namespace

TEST(QuickTune, ClimbsARidgeThatOneAxisAtATimeCannot) {
    const KernelSpec k = rung();
    int calls = 0;
    const auto results = quick_tune(k, 32, {{"WPTM", 8}, {"WGM", 2}, {"WGN", 8}, {"VW", 16}},
                                    [&](int tile, const std::map<std::string, int64_t>& p) {
                                        ++calls;
                                        return measured(tile, p, ridge(tile, p));
                                    });
    const auto [tile, params] = best_of(results);
    EXPECT_EQ(tile, 32);
    EXPECT_EQ(params.at("WPTM"), 16);
    EXPECT_EQ(params.at("WGN"), 2);
    EXPECT_EQ(params.at("WGM"), 2);
    EXPECT_EQ(params.at("VW"), 16);
    // The grid is 4*4*3*4*2 = 384 points; the search measures each point once, few of them.
    EXPECT_EQ(calls, static_cast<int>(results.size()));
    EXPECT_LT(calls, 384 / 3);
    EXPECT_LE(calls, QuickTuneOptions{}.max_points);
}

TEST(QuickTune, StopsAtItsPointsAndOnCancel) {
    const KernelSpec k = rung();
    QuickTuneOptions o;
    o.max_points = 7;
    int progress_calls = 0, last_done = 0;
    o.progress = [&](int done, int planned, const TuneResult&) {
        ++progress_calls;
        EXPECT_EQ(done, last_done + 1);
        EXPECT_GE(planned, done);
        last_done = done;
    };
    const auto capped = quick_tune(k, 32, {}, [&](int t, const auto& p) { return measured(t, p, ridge(t, p)); }, o);
    EXPECT_EQ(capped.size(), 7u);
    EXPECT_EQ(progress_calls, 7);

    QuickTuneOptions c;
    int measured_points = 0;
    c.cancelled = [&] { return measured_points >= 3; };
    EXPECT_THROW(quick_tune(k, 32, {},
                            [&](int t, const auto& p) {
                                ++measured_points;
                                return measured(t, p, ridge(t, p));
                            },
                            c),
                 Cancelled);
    EXPECT_EQ(measured_points, 3);
}

TEST(QuickTune, RefusedPointsAreStepsNotEndpoints) {
    // Tiles above 48 are refused (say, too much local memory): the search goes around them.
    const KernelSpec k = rung();
    const auto results = quick_tune(k, 64, {{"WPTM", 16}, {"WGM", 2}, {"WGN", 2}, {"VW", 16}},
                                    [&](int t, const std::map<std::string, int64_t>& p) {
                                        if (t > 48) {
                                            TuneResult r;
                                            r.tile = t;
                                            r.params = p;
                                            r.status = "refused";
                                            return r;
                                        }
                                        return measured(t, p, ridge(t, p));
                                    });
    EXPECT_EQ(best_of(results).first, 32);
}
