// The first picture at once (issue 12): while the emulator runs a launch, the trace plugin
// hands over what it knows so far, and the selected work-group's phases as soon as that
// group completes. A snapshot must already be the truth: its group's phases equal those of
// the final trace, its per-group totals equal the final ones, and its partial totals are
// the sum of the groups it lists. The CLI prints the group's table as soon as it exists.
#include <gtest/gtest.h>

#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include "core/kernel/catalog.h"
#include "core/emulator/trace_runner.h"

using namespace tilescope;

namespace {

LaunchConfig tiled(const std::string& size, int tile) {
    const KernelSpec* k = find_rung("tiled");
    if (!k) throw std::runtime_error("no rung tiled");
    return LaunchConfig{*k, parse_size(size), tile};
}

std::string output_of(const std::string& cmd) {
    std::string out;
    if (FILE* p = popen(cmd.c_str(), "r")) {
        char buf[512];
        while (fgets(buf, sizeof buf, p)) out += buf;
        pclose(p);
    }
    return out;
}

size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
}

}  // namespace

TEST(StreamedTrace, SnapshotsAreTheFinalTraceSoFar) {
    // 64 work-groups of 8x8; group (2,1) is asked for early.
    const GroupId early{2, 1, 0};
    std::mutex mutex;
    std::vector<TraceSnapshot> snapshots;
    TraceOptions o;
    o.checks = false;
    o.early_groups = {early};
    o.partial_interval_ms = 0;  // a snapshot after every work-group
    o.partial = [&](TraceSnapshot s) {
        std::lock_guard<std::mutex> lock(mutex);
        snapshots.push_back(std::move(s));
    };
    const Trace final_trace = run_trace(tiled("64", 8), o);
    ASSERT_TRUE(final_trace.complete);
    EXPECT_FALSE(final_trace.partial);
    ASSERT_FALSE(snapshots.empty());
    const GroupTrace* final_group = final_trace.find_group(early);
    ASSERT_NE(final_group, nullptr);

    bool early_seen = false, seen_before_the_end = false;
    size_t previous_done = 0;
    for (const TraceSnapshot& s : snapshots) {
        EXPECT_TRUE(s->partial);
        EXPECT_FALSE(s->complete);
        EXPECT_EQ(s->total_groups(), final_trace.total_groups());
        EXPECT_GE(s->group_totals.size(), previous_done);  // calls come one at a time, in order
        previous_done = s->group_totals.size();
        // Every group listed is one the final trace has, with the same totals; the partial
        // totals are their sum.
        AccessTotals global, local;
        uint64_t barriers = 0;
        for (const GroupTotals& g : s->group_totals) {
            const uint64_t linear = g.group[0] + final_trace.groups[0] * g.group[1];
            ASSERT_LT(linear, final_trace.group_totals.size());
            EXPECT_EQ(g, final_trace.group_totals[linear]);
            global.load_bytes += g.global.load_bytes;
            global.store_bytes += g.global.store_bytes;
            local.load_bytes += g.local.load_bytes;
            local.store_bytes += g.local.store_bytes;
            barriers += g.barriers;
        }
        EXPECT_EQ(s->totals.global_load_bytes, global.load_bytes);
        EXPECT_EQ(s->totals.global_store_bytes, global.store_bytes);
        EXPECT_EQ(s->totals.local_load_bytes, local.load_bytes);
        EXPECT_EQ(s->totals.local_store_bytes, local.store_bytes);
        EXPECT_EQ(s->totals.barriers, barriers);
        // Detail only for the early group, and then exactly the final trace's.
        for (const GroupTrace& g : s->detail) EXPECT_EQ(g.group, early);
        if (const GroupTrace* g = s->find_group(early)) {
            EXPECT_EQ(*g, *final_group);
            if (!early_seen) {
                early_seen = true;
                seen_before_the_end = s->group_totals.size() < s->total_groups();
                EXPECT_EQ(s->barrier_lines, final_trace.barrier_lines);
            }
        }
    }
    EXPECT_TRUE(early_seen) << "no snapshot held the early group";
    EXPECT_TRUE(seen_before_the_end) << "the early group came only with the last work-group";
    // The totals of the last snapshot grow to the final ones only with the final trace.
    EXPECT_LE(snapshots.back()->totals.global_load_bytes, final_trace.totals.global_load_bytes);
}

TEST(StreamedTrace, WithoutACallbackNothingChanges) {
    TraceOptions o;
    o.checks = false;
    o.groups = {{1, 1, 0}};
    const Trace plain = run_trace(tiled("32", 8), o);
    bool called = false;
    o.partial = [&](TraceSnapshot) { called = true; };
    o.early_groups = {{1, 1, 0}};
    Trace streamed = run_trace(tiled("32", 8), o);
    EXPECT_TRUE(called);
    streamed.seconds = plain.seconds;
    streamed.verification = plain.verification;
    ASSERT_EQ(streamed.detail.size(), plain.detail.size());
    for (size_t g = 0; g < plain.detail.size(); ++g) {
        ASSERT_EQ(streamed.detail[g].intervals.size(), plain.detail[g].intervals.size());
        for (size_t i = 0; i < plain.detail[g].intervals.size(); ++i) {
            const BarrierInterval &a = streamed.detail[g].intervals[i], &b = plain.detail[g].intervals[i];
            EXPECT_EQ(a.global, b.global) << i;
            EXPECT_EQ(a.local, b.local) << i;
            EXPECT_EQ(a.coalescing, b.coalescing) << i;
            EXPECT_EQ(a.bank_conflicts, b.bank_conflicts) << i;
            EXPECT_EQ(a.buffers, b.buffers) << i;
            EXPECT_EQ(a.local_buffers, b.local_buffers) << i;
            EXPECT_EQ(a.work_items, b.work_items) << i;
        }
    }
    EXPECT_EQ(streamed.detail, plain.detail);
    EXPECT_EQ(streamed.totals, plain.totals);
    EXPECT_EQ(streamed.group_totals, plain.group_totals);
    EXPECT_EQ(streamed.lines, plain.lines);
}

TEST(StreamedTrace, CliPrintsTheGroupsTableAsSoonAsItIsKnownAndOnce) {
    const std::string out =
        output_of(std::string(TILESCOPE_BIN) + " trace --kernel tiled --size 64 --tile 8 --group 1,0 --no-compare 2>/dev/null");
    ASSERT_EQ(count(out, "work-group (1,0): "), 1u) << out;
    const size_t table = out.find("work-group (1,0): ");
    EXPECT_NE(out.find("as soon as it completed", table), std::string::npos) << out;
    // It comes before the totals of the whole launch, which only the end knows.
    const size_t totals = out.find("diagnostics:");
    ASSERT_NE(totals, std::string::npos) << out;
    EXPECT_LT(table, totals) << out;
    // 64/8 = 8 trips round the tile loop are 8 phases (the slides' count); each has a
    // load and a use part, and the last phase also the store: 17 parts.
    EXPECT_NE(out.find("work-group (1,0): 8 phases (trips round the tile loop; barriers on lines 33, 37 each trip), 17 parts",
                       table), std::string::npos) << out;
}
