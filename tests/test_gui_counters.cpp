// The counters panel's rows (ui/state/counters.h) on real traces of every rung: each says what
// it counts and which kind of number it is, each traced count has its closed form beside
// it, and the coalescing ideal follows the access width.
#include <gtest/gtest.h>

#include "core/trace/analysis.h"
#include "core/kernel/catalog.h"
#include "core/emulator/trace_runner.h"
#include "ui/state/counters.h"

using namespace tilescope;
using namespace tilescope::ui;

TEST(CounterRows, EveryRungHasClosedFormsAndTooltips) {
    int rungs = 0;
    for (const KernelSpec& k : ladder()) {
        if (!k.library.empty()) continue;  // a library call: nothing to trace
        SCOPED_TRACE(k.name);
        TraceOptions o;
        o.checks = false;
        const Trace t = run_trace(LaunchConfig{k, ProblemSize{64, 64, 64}, k.default_tile}, o);
        const std::vector<CounterRow> rows = ndrange_counter_rows(t);
        ASSERT_GE(rows.size(), 5u);
        for (const CounterRow& r : rows) {
            EXPECT_GT(r.tooltip.size(), 30u) << r.what << ": no explanation";
            EXPECT_EQ(r.kind, NumberKind::Traced) << r.what;  // the counters show trace counts only
        }
        for (size_t i = 0; i < 5; ++i) {  // global/local loads and stores, barriers
            EXPECT_NE(rows[i].reference, "-") << rows[i].what << " has no closed form";
            EXPECT_EQ(rows[i].verdict, 1) << rows[i].what << ": traced " << rows[i].traced << ", closed form " << rows[i].reference;
        }
        const CoalescingSummary co = coalescing_summary(t);
        for (const CounterRow& r : rows)
            if (r.what == "sectors/request") {
                char ideal[32];
                std::snprintf(ideal, sizeof ideal, "ideal %.2f", co.ideal_sectors_per_request);
                EXPECT_EQ(r.reference, ideal);
                if (k.name == "reg2d_vec") EXPECT_EQ(r.reference, "ideal 16.00") << "a float4 request of 32 lanes ideally touches 16 sectors";
            }
        ASSERT_FALSE(t.detail.empty());
        for (const CounterRow& r : group_counter_rows(t, t.detail.front(), 0)) EXPECT_GT(r.tooltip.size(), 30u) << r.what;
        ++rungs;
    }
    EXPECT_GE(rungs, 5);
}
