// The cache model (issue 11) on tiny hand-built request streams, each worked out by hand
// in the comments: LRU eviction, sector fills, write-back stores, the lockstep order,
// coarser sectors, profiles and bad parameters. No emulator needed.
#include <gtest/gtest.h>

#include "core/caches/cache_model.h"
#include "core/caches/cache_trace.h"
#include "core/caches/held_out.h"
#include "core/base/number_text.h"
#include "core/caches/translated_groups.h"
#include "core/base/errors.h"
#include "core/teach/ladder_explained.h"
#include "core/trace/trace.h"

using namespace tilescope;

namespace {

CacheParams tiny(uint64_t l1, uint64_t l2, uint32_t ways, uint32_t cus = 1, uint32_t resident = 1) {
    CacheParams p;
    p.l1_bytes = l1;
    p.l2_bytes = l2;
    p.line_bytes = 64;  // two 32-byte sectors: sector s lies in line s / 2
    p.sector_bytes = 32;
    p.ways = ways;
    p.cus = cus;
    p.resident = resident;
    return p;
}

// One work-item reading the first sector of `lines` consecutive 64-B lines in order, 20 laps.
CacheRequestStream walk(uint64_t lines) {
    CacheRequestStream s;
    s.begin_group();
    for (int lap = 0; lap < 20; ++lap)
        for (uint64_t l = 0; l < lines; ++l) s.add({2 * l}, false);
    return s;
}

}  // namespace

// L1: 256 B = 2 sets x 2 ways of 64-B lines (line l in set l % 2). L2: 512 B = 4 sets x 2 ways.
TEST(CacheModel, LoadsHitEvictAndFillSectorBySector) {
    CacheRequestStream s;
    s.begin_group();
    s.add({0, 1}, false);  // line 0: both sectors miss L1 and L2 -> 2 DRAM sectors
    s.add({0}, false);     // L1 hit
    s.add({4}, false);     // line 2 (L1 set 0): miss, 1 DRAM sector; L1 set 0 = {0, 2}
    s.add({8}, false);     // line 4 (L1 set 0): miss, evicts line 0 (least recent); 1 DRAM sector
    s.add({1}, false);     // line 0 again: L1 miss, L2 hit; evicts line 2 from L1
    s.add({5}, false);     // line 2, sector 1: L1 miss; L2 holds line 2 without it -> 1 DRAM sector
    const CacheReport r = run_cache_model(s, tiny(256, 512, 2), "hand");
    EXPECT_EQ(r.totals.l1_requests, 6u);
    EXPECT_EQ(r.totals.l1_sectors, 7u);
    EXPECT_EQ(r.totals.l1_hit_sectors, 1u);
    EXPECT_EQ(r.totals.l2_sectors, 6u);
    EXPECT_EQ(r.totals.l2_load_sectors, 6u);
    EXPECT_EQ(r.totals.l2_hit_sectors, 1u);
    EXPECT_EQ(r.totals.dram_read_bytes, 5u * 32);
    EXPECT_EQ(r.totals.dram_write_bytes, 0u);
    EXPECT_EQ(r.bounds.distinct_sectors, 5u);
    EXPECT_EQ(r.bounds.group_distinct_sectors, 5u);
}

// No L1; L2: 128 B = one set of 2 ways. Stores allocate without fetching and are written
// back once per dirty sector: evicted (lines 0 and 1 below) or left at the end (line 0).
TEST(CacheModel, StoresWriteBackFromL2) {
    CacheRequestStream s;
    s.begin_group();
    s.add({0}, true);   // line 0 allocated, sector 0 dirty: one DRAM write to come
    s.add({0}, true);   // hit, already dirty
    s.add({1}, false);  // line 0 sector 1 not valid: DRAM read
    s.add({0}, false);  // hit on the stored sector
    s.add({2}, true);   // line 1 allocated, dirty: one write
    s.add({4}, false);  // line 2: evicts line 0 (dirty sector written back), DRAM read
    s.add({0}, true);   // line 0 again: evicts line 1 (written back), dirty again: one write
    const CacheReport r = run_cache_model(s, tiny(0, 128, 2), "hand");
    EXPECT_EQ(r.totals.l1_requests, 3u);
    EXPECT_EQ(r.totals.l1_sectors, 3u);
    EXPECT_EQ(r.totals.l1_hit_sectors, 0u);
    EXPECT_EQ(r.totals.l2_sectors, 7u);
    EXPECT_EQ(r.totals.l2_load_sectors, 3u);
    EXPECT_EQ(r.totals.l2_hit_sectors, 2u);
    EXPECT_EQ(r.totals.dram_read_bytes, 2u * 32);
    EXPECT_EQ(r.totals.dram_write_bytes, 3u * 32);
    EXPECT_EQ(r.bounds.distinct_sectors, 3u);  // loads only: 1, 0, 4
}

// A store passes L1 by: a later load of the sector misses L1 and finds it in L2.
TEST(CacheModel, StoresDoNotAllocateInL1) {
    CacheRequestStream s;
    s.begin_group();
    s.add({3}, true);
    s.add({3}, false);
    const CacheReport r = run_cache_model(s, tiny(1024, 1024, 2), "hand");
    EXPECT_EQ(r.totals.l1_hit_sectors, 0u);
    EXPECT_EQ(r.totals.l2_hit_sectors, 1u);
    EXPECT_EQ(r.totals.dram_read_bytes, 0u);
    EXPECT_EQ(r.totals.dram_write_bytes, 32u);
}

// Groups 0, 1, 2 on 2 compute units, 1 resident each: 0 -> CU0, 1 -> CU1. Group 0 ends in
// round 1, so CU0 takes group 2, whose load of sector 5 in round 2 misses CU0's L1 and
// hits in L2 (CU1 fetched it in round 1). Had group 2 gone to CU1, it would hit CU1's L1.
TEST(CacheModel, LockstepOrderDealsGroupsAndRefillsFreedUnits) {
    CacheRequestStream s;
    s.begin_group();
    s.add({0}, false);
    s.begin_group();
    s.add({5}, false);
    s.add({0}, false);
    s.begin_group();
    s.add({5}, false);
    const CacheReport r = run_cache_model(s, tiny(1024, 1024, 2, 2, 1), "hand");
    EXPECT_EQ(r.totals.l1_hit_sectors, 0u);
    EXPECT_EQ(r.totals.l2_sectors, 4u);
    EXPECT_EQ(r.totals.l2_hit_sectors, 2u);
    EXPECT_EQ(r.totals.dram_read_bytes, 2u * 32);
    EXPECT_EQ(r.bounds.group_distinct_sectors, 4u);
    // One unit running one group at a time: group 2's load hits that unit's L1.
    const CacheReport one = run_cache_model(s, tiny(1024, 1024, 2, 1, 1), "hand");
    EXPECT_EQ(one.totals.l1_hit_sectors, 2u);  // group 1's load of 0, group 2's load of 5
    EXPECT_EQ(one.totals.l2_sectors, 2u);
}

// Within a unit, resident groups take turns request by request: with 2 resident groups
// that each load sectors 0 then 2 (lines 0 and 1, both in the one L1 set of 1 way), the
// turns thrash the L1; one group at a time hits twice.
TEST(CacheModel, ResidentGroupsInterleave) {
    CacheRequestStream s;
    for (int g = 0; g < 2; ++g) {
        s.begin_group();
        s.add({0}, false);
        s.add({0}, false);
        s.add({2}, false);
    }
    // L1 64 B, 1 way: a single line. Order with resident 2: g0:0 g1:0(hit) g0:0(hit) g1:0(hit) g0:2 g1:2(hit).
    CacheParams p = tiny(64, 1024, 1, 1, 2);
    EXPECT_EQ(run_cache_model(s, p, "hand").totals.l1_hit_sectors, 4u);
    // One at a time: g0: 0, 0(hit), 2; g1: 0 (miss: line 1 holds the set), 0(hit), 2.
    p.resident = 1;
    EXPECT_EQ(run_cache_model(s, p, "hand").totals.l1_hit_sectors, 2u);
}

// Issue 24: an L1 miss on a sector whose L2 request from the same cluster is still in
// flight joins it (counted as merged, not as an L2 sector); other clusters, or the same
// one after inflight_rounds, look it up in L2 again.
TEST(CacheModel, MissesMergeWithRequestsInFlightOfTheirCluster) {
    CacheRequestStream s;
    for (int g = 0; g < 4; ++g) {  // four groups on four units, each loading sector 0 once
        s.begin_group();
        s.add({0}, false);
    }
    CacheParams p = tiny(1024, 4096, 2, 4, 1);
    EXPECT_EQ(run_cache_model(s, p, "hand").totals.l2_sectors, 4u);  // no merging: every L1 miss reaches L2
    p.inflight_rounds = 2;
    CacheReport r = run_cache_model(s, p, "hand");  // one cluster: units 1-3 join unit 0's fetch
    EXPECT_EQ(r.totals.l2_sectors, 1u);
    EXPECT_EQ(r.totals.l2_merged_sectors, 3u);
    EXPECT_EQ(r.totals.l1_hit_sectors, 0u);  // merged misses are still L1 misses
    EXPECT_EQ(r.totals.dram_read_bytes, 32u);
    p.merge_clusters = 2;  // units 0,1 and 2,3: one request per cluster
    r = run_cache_model(s, p, "hand");
    EXPECT_EQ(r.totals.l2_sectors, 2u);
    EXPECT_EQ(r.totals.l2_merged_sectors, 2u);
    EXPECT_EQ(r.totals.l2_hit_sectors, 1u);  // cluster 1's request finds the sector in L2
    // No L1 (issue 31, item 5): no misses to merge, every requested sector reaches L2.
    p.merge_clusters = 1;
    p.l1_bytes = 0;
    r = run_cache_model(s, p, "hand");
    EXPECT_EQ(r.totals.l2_sectors, 4u);
    EXPECT_EQ(r.totals.l2_merged_sectors, 0u);
    EXPECT_EQ(r.totals.dram_read_bytes, 32u);
    p.l1_bytes = 1024;
    p.merge_clusters = 5;
    EXPECT_THROW(run_cache_model(s, p, "hand"), InputError);
}

// Clusters are runs of consecutive units (in the order groups are dealt to them), not
// every n-th unit: groups 0,1 share sector 0 and groups 2,3 sector 8.
TEST(CacheModel, ClustersAreRunsOfConsecutiveUnits) {
    CacheRequestStream s;
    for (uint64_t sector : {0, 0, 8, 8}) {
        s.begin_group();
        s.add({sector}, false);
    }
    CacheParams p = tiny(1024, 4096, 2, 4, 1);
    p.inflight_rounds = 2;
    p.merge_clusters = 2;  // units 0,1 | 2,3: each pair merges
    EXPECT_EQ(run_cache_model(s, p, "hand").totals.l2_merged_sectors, 2u);
    p.merge_clusters = 4;  // a table per unit: nothing merges
    EXPECT_EQ(run_cache_model(s, p, "hand").totals.l2_merged_sectors, 0u);
    p.merge_clusters = 3;  // units 0,1 | 2 | 3 (u * 3 / 4): only the first pair merges
    EXPECT_EQ(run_cache_model(s, p, "hand").totals.l2_merged_sectors, 1u);
}

// A column walk with a power-of-two stride: with set = line mod sets its lines fall into
// one set and evict each other; with the hashed (XOR-folded) index they spread and stay.
TEST(CacheModel, HashedSetsSpreadAPowerOfTwoStride) {
    CacheRequestStream s;
    s.begin_group();
    for (int pass = 0; pass < 2; ++pass)
        for (uint64_t k = 0; k < 8; ++k) s.add({k * 16 * 2}, false);  // line 16k: set 0 of 16 sets
    CacheParams p = tiny(64 * 2 * 16, 1 << 20, 2);  // L1: 16 sets of 2 ways; L2 holds everything
    const CacheReport plain = run_cache_model(s, p, "hand");
    EXPECT_EQ(plain.totals.l1_hit_sectors, 0u);  // 8 lines through one 2-way set: LRU keeps none
    p.hashed_sets = true;
    const CacheReport hashed = run_cache_model(s, p, "hand");
    EXPECT_EQ(hashed.totals.l1_hit_sectors, 8u);  // line 16k -> set k: the second pass hits
    EXPECT_EQ(hashed.totals.l1_sectors, plain.totals.l1_sectors);
    EXPECT_EQ(hashed.totals.dram_read_bytes, plain.totals.dram_read_bytes);  // 8 distinct sectors either way
}

TEST(CacheModel, MergingEndsAfterInflightRounds) {
    CacheRequestStream s;
    s.begin_group();
    s.add({0}, false);  // unit 0, round 1
    s.begin_group();
    s.add({4}, false);  // unit 1: rounds 1-3 elsewhere, then sector 0 in round 4
    s.add({8}, false);
    s.add({12}, false);
    s.add({0}, false);
    CacheParams p = tiny(1024, 4096, 2, 2, 1);
    p.inflight_rounds = 3;  // issued in round 1, in flight through round 3
    EXPECT_EQ(run_cache_model(s, p, "hand").totals.l2_merged_sectors, 0u);
    p.inflight_rounds = 4;
    EXPECT_EQ(run_cache_model(s, p, "hand").totals.l2_merged_sectors, 1u);
}

// Time (issue 31): two groups on two units of one cluster load the same sectors, one per
// request (sector 4j at request j: a line each, so L1 never helps). In lockstep every second
// miss joins the first; with drift group g issues request j at 1 + j * pace(g), so the two
// drift apart by j * |pace(0) - pace(1)| and merge only while that is under the window.
TEST(CacheModel, DriftingGroupsStopMergingOnceApartByTheWindow) {
    constexpr int n = 200;
    CacheRequestStream s;
    for (int g = 0; g < 2; ++g) {
        s.begin_group();
        for (uint64_t j = 0; j < n; ++j) s.add({4 * j}, false);
    }
    CacheParams p = tiny(1 << 16, 1 << 20, 2, 2, 1);
    p.inflight_rounds = 4;
    CacheReport r = run_cache_model(s, p, "hand");
    EXPECT_EQ(r.totals.l2_merged_sectors, uint64_t(n));  // lockstep: the same round, every time
    p.drift = 0.1;
    const double apart = std::abs(group_pace(p, 0) - group_pace(p, 1));
    ASSERT_GT(apart, 0.001);
    uint64_t within = 0;  // requests j whose two issues lie less than the window apart
    for (int j = 0; j < n; ++j) within += double(j) * apart < p.inflight_rounds;
    ASSERT_LT(within, uint64_t(n));  // the test means something: they do drift out
    r = run_cache_model(s, p, "hand");
    EXPECT_EQ(r.totals.l2_merged_sectors, within);
    EXPECT_EQ(r.totals.l2_sectors, 2 * uint64_t(n) - within);
    EXPECT_EQ(r.totals.dram_read_bytes, uint64_t(n) * 32);  // the order changes no distinct count
    // The pace is per group, fixed, within 1 +- drift, and 1 in lockstep.
    EXPECT_EQ(group_pace(p, 7), group_pace(p, 7));
    for (uint64_t g = 0; g < 100; ++g) {
        EXPECT_GE(group_pace(p, g), 0.9);
        EXPECT_LT(group_pace(p, g), 1.1);
    }
    p.drift = 0;
    EXPECT_EQ(group_pace(p, 3), 1.0);
}

// Age priority (issue 31): two groups on one unit read the same 100 lines, one a request,
// through an L1 of 16 lines (one set). In lockstep the younger reads each line in the round the
// elder fetched it: 100 hits. With age_pace 1 the younger issues every second round, falls
// behind by one line a request, and finds a line only while fewer than 16 others came between.
TEST(CacheModel, AgePriorityLetsTheYoungerGroupFallBehindItsElder) {
    constexpr uint64_t n = 100;
    CacheRequestStream s;
    for (int g = 0; g < 2; ++g) {
        s.begin_group();
        for (uint64_t j = 0; j < n; ++j) s.add({2 * j}, false);  // line j
    }
    CacheParams p = tiny(16 * 64, 1 << 20, 16, 1, 2);
    const CacheReport lockstep = run_cache_model(s, p, "hand");
    EXPECT_EQ(lockstep.totals.l1_hit_sectors, n);
    p.age_pace = 1;
    const CacheReport aged = run_cache_model(s, p, "hand");
    EXPECT_EQ(aged.totals.l1_sectors, 2 * n);  // every request still issued once
    EXPECT_LT(aged.totals.l1_hit_sectors, n / 2);
    EXPECT_GT(aged.totals.l1_hit_sectors, 0u);  // early on, and once the elder has ended
    // One group per unit: no elder, no change.
    p.resident = 1;
    p.cus = 2;
    p.age_pace = 0;
    const CacheReport alone = run_cache_model(s, p, "hand");
    p.age_pace = 1;
    EXPECT_EQ(run_cache_model(s, p, "hand").totals, alone.totals);
}

// A hit that does not wait (cache6's experiment, l1_hit_rounds): two groups on two units both
// miss on sector 40 after eight requests. Group 0's seven before it hit L1 (sector 0 again),
// group 1's all miss. With every request a round they ask for sector 40 in the same round and
// the second merges with the first; with a hit taking 0.1 of a round, group 0 gets there six
// rounds early, outside the 4-round window: nothing merges. Every L1 miss still reaches L2 or
// merges, and no sector is lost.
TEST(CacheModel, HitsThatDoNotWaitMoveAGroupsMissesEarlier) {
    CacheRequestStream s;
    s.begin_group();
    for (int j = 0; j < 8; ++j) s.add({0}, false);
    s.add({40}, false);
    s.begin_group();
    for (uint64_t j = 0; j < 8; ++j) s.add({2 * (j + 4)}, false);
    s.add({40}, false);
    CacheParams p = tiny(1 << 12, 1 << 16, 4, 2, 1);
    p.inflight_rounds = 4;
    const CacheReport even = run_cache_model(s, p, "hand");
    EXPECT_EQ(even.totals.l2_merged_sectors, 1u);
    p.l1_hit_rounds = 0.1;
    const CacheReport quick = run_cache_model(s, p, "hand");
    EXPECT_EQ(quick.totals.l2_merged_sectors, 0u);
    for (const CacheReport* r : {&even, &quick}) {
        EXPECT_EQ(r->totals.l1_sectors, 18u);
        EXPECT_EQ(r->totals.l1_hit_sectors, 7u);
        EXPECT_EQ(r->totals.l2_load_sectors + r->totals.l2_merged_sectors, 11u);
    }
    p.l1_hit_rounds = 0;  // a hit in no time: refused, as above 10
    EXPECT_THROW(run_cache_model(s, p, "hand"), InputError);
    p.l1_hit_rounds = 11;
    EXPECT_THROW(run_cache_model(s, p, "hand"), InputError);
}

// A DRAM read holds its group (cache7, dram_rounds): group 0 misses L2 on all eight of its
// first requests, group 1 reads sector 0 from DRAM once and then hits L1 seven times; both then
// ask for sector 40. With every request a round they ask in the same round and the second
// merges; with a DRAM read taking 3 rounds group 0 gets there 14 rounds after group 1, outside
// the 4-round window: nothing merges. The sectors each level sees are otherwise the same.
TEST(CacheModel, DramReadsHoldTheGroupThatLeads) {
    CacheRequestStream s;
    s.begin_group();
    for (uint64_t j = 0; j < 8; ++j) s.add({2 * (j + 4)}, false);
    s.add({40}, false);
    s.begin_group();
    for (int j = 0; j < 8; ++j) s.add({0}, false);
    s.add({40}, false);
    CacheParams p = tiny(1 << 12, 1 << 16, 4, 2, 1);
    p.inflight_rounds = 4;
    const CacheReport even = run_cache_model(s, p, "hand");
    EXPECT_EQ(even.totals.l2_merged_sectors, 1u);
    p.dram_rounds = 3;
    const CacheReport held = run_cache_model(s, p, "hand");
    EXPECT_EQ(held.totals.l2_merged_sectors, 0u);
    for (const CacheReport* r : {&even, &held}) {
        EXPECT_EQ(r->totals.l1_sectors, 18u);
        EXPECT_EQ(r->totals.l1_hit_sectors, 7u);
        EXPECT_EQ(r->totals.l2_load_sectors + r->totals.l2_merged_sectors, 11u);
        EXPECT_EQ(r->totals.dram_read_bytes, 10u * p.sector_bytes);  // the distinct sectors
    }
    p.dram_rounds = 0;  // a DRAM read in no time: refused, as above 1000
    EXPECT_THROW(run_cache_model(s, p, "hand"), InputError);
    p.dram_rounds = 1001;
    EXPECT_THROW(run_cache_model(s, p, "hand"), InputError);
}

// L1 replacement (cache9): an L1 of one set of 4 ways (256 B of 64-B lines), walked cyclically.
// 4 lines fit: 4 misses, then every read hits, LRU or random (a set with a free way evicts
// nothing). 5 lines: LRU evicts each line just before it comes round again, so all 100 reads
// miss; with random victims (l1_random 1) a line survives a lap with chance (3/4) per fill, so
// some reads hit but not all; the same stream gives the same counts each time.
TEST(CacheModel, RandomL1VictimsLoseACyclicSetLargerThanTheCacheGradually) {
    CacheParams p = tiny(256, 1 << 16, 4);
    for (double share : {0.0, 1.0}) {
        p.l1_random = share;
        const CacheReport fits = run_cache_model(walk(4), p, "hand");
        EXPECT_EQ(fits.totals.l1_hit_sectors, 80u - 4u) << share;
    }
    p.l1_random = 0;
    const CacheReport lru = run_cache_model(walk(5), p, "hand");
    EXPECT_EQ(lru.totals.l1_sectors, 100u);
    EXPECT_EQ(lru.totals.l1_hit_sectors, 0u);
    EXPECT_EQ(lru.totals.l2_sectors, 100u);
    p.l1_random = 1;
    const CacheReport random = run_cache_model(walk(5), p, "hand");
    EXPECT_GT(random.totals.l1_hit_sectors, 20u);
    EXPECT_LT(random.totals.l1_hit_sectors, 80u);
    EXPECT_EQ(random.totals.l2_sectors, 100u - random.totals.l1_hit_sectors);
    EXPECT_EQ(run_cache_model(walk(5), p, "hand").totals, random.totals);
    EXPECT_EQ(random.totals.dram_read_bytes, 5u * p.sector_bytes);  // the L2 still holds all 5
    p.l1_random = 1.5;
    EXPECT_THROW(run_cache_model(walk(5), p, "hand"), InputError);
    p.l1_random = -0.1;
    EXPECT_THROW(run_cache_model(walk(5), p, "hand"), InputError);
}

// The L1's own associativity (issue 31, cache12): with fewer ways an LRU L1 loses an over-full
// cyclic working set set by set. L1: 256 B = 4 lines of 64 B. 4-way (one set), a walk of 5 lines
// never hits; 2-way (2 sets, line l in set l % 2), set 0 cycles lines 0, 2, 4 through 2 ways (no
// hit) and set 1 keeps lines 1 and 3 (a hit on each of laps 2-20): 38 of 100.
TEST(CacheModel, FewerL1WaysLoseAnOverFullCycleSetBySet) {
    CacheParams p = tiny(256, 1 << 16, 4);
    EXPECT_EQ(run_cache_model(walk(5), p, "hand").totals.l1_hit_sectors, 0u);
    p.l1_ways = 2;
    const CacheReport two = run_cache_model(walk(5), p, "hand");
    EXPECT_EQ(two.totals.l1_hit_sectors, 38u);
    EXPECT_EQ(two.totals.l2_sectors, 62u);
    EXPECT_EQ(two.totals.dram_read_bytes, 5u * p.sector_bytes);  // the L2 (4-way) holds all 5
    EXPECT_EQ(run_cache_model(walk(4), p, "hand").totals.l1_hit_sectors, 80u - 4u);  // 2 lines a set fit
    EXPECT_EQ(p.l1_ways_or_ways(), 2u);
    p.l1_ways = 8;  // 8 ways of 64 B: 512 B, more than the L1
    EXPECT_THROW(run_cache_model(walk(5), p, "hand"), InputError);
    p.l1_ways = 2048;
    EXPECT_THROW(run_cache_model(walk(5), p, "hand"), InputError);
}

// RRIP in the L1 (issue 31, cache12's experiment). One set of 4 ways, 2-bit values. SRRIP (every
// fill at 2): a cycle of 4 lines hits 76 of 80, one of 5 never (as LRU). Bimodal with no fill one
// step nearer (every fill at 3, the next victim): line 4 takes line 0's way and then each of 0 and
// 4 takes the other's, while lines 1-3 stay: 3 hits a lap from the second, 57 of 100.
TEST(CacheModel, RripKeepsPartOfAnOverFullCycleOnlyWhenFillsAreTheNextVictims) {
    CacheParams p = tiny(256, 1 << 16, 4);
    p.l1_rrip_bits = 2;
    EXPECT_EQ(run_cache_model(walk(4), p, "hand").totals.l1_hit_sectors, 76u);
    EXPECT_EQ(run_cache_model(walk(5), p, "hand").totals.l1_hit_sectors, 0u);
    p.l1_rrip_long = 0;
    const CacheReport bimodal = run_cache_model(walk(5), p, "hand");
    EXPECT_EQ(bimodal.totals.l1_hit_sectors, 57u);
    EXPECT_EQ(bimodal.totals.l2_sectors, 43u);
    p.l1_rrip_bits = 9;
    EXPECT_THROW(run_cache_model(walk(5), p, "hand"), InputError);
    p.l1_rrip_bits = 2;
    p.l1_rrip_long = 1.5;
    EXPECT_THROW(run_cache_model(walk(5), p, "hand"), InputError);
}

// Where groups run (issue 31): groups 0 and 1 read the same lines, 2 and 3 others. Dealt
// round-robin to 2 units of 2 slots, no unit holds a pair: no L1 hit. A recorded placement
// (unit_of_group) or deal order (deal_order) that puts each pair on one unit: every second
// read hits.
TEST(CacheModel, RecordedPlacementOrDealOrderDecidesWhichGroupsShareAnL1) {
    constexpr uint64_t n = 20;
    CacheRequestStream s;
    for (uint64_t g = 0; g < 4; ++g) {
        s.begin_group();
        for (uint64_t j = 0; j < n; ++j) s.add({2 * (j + (g / 2) * 1000)}, false);
    }
    CacheParams p = tiny(1 << 16, 1 << 20, 16, 2, 2);
    EXPECT_EQ(run_cache_model(s, p, "hand").totals.l1_hit_sectors, 0u);
    p.unit_of_group = {0, 0, 1, 1};
    EXPECT_EQ(run_cache_model(s, p, "hand").totals.l1_hit_sectors, 2 * n);
    p.unit_of_group.clear();
    p.deal_order = {1, 1, 0, 0};
    EXPECT_EQ(run_cache_model(s, p, "hand").totals.l1_hit_sectors, 2 * n);
    EXPECT_EQ(run_cache_model(s, p, "hand").totals.l1_sectors, 4 * n);
}

// Drift changes the order, not what is asked: 12 groups of 1-5 requests (loads and stores)
// on 2 units of 2 slots, freed slots refilled at their own times, issue every request once.
TEST(CacheModel, DriftKeepsEveryRequestAndTheDistinctCounts) {
    CacheRequestStream s;
    for (int g = 0; g < 12; ++g) {
        s.begin_group();
        for (uint64_t j = 0; j < uint64_t(1 + g % 5); ++j) {
            if (g % 4 == 3)  // stores to sectors no load reads (a load after a store would hit L2 in any order)
                s.add({1000 + uint64_t(g) * 8 + j}, true);
            else
                s.add({uint64_t(g % 3) * 8 + j, 100 + j}, false);
        }
    }
    CacheParams p = tiny(256, 1 << 20, 2, 2, 2);
    p.inflight_rounds = 2;
    const CacheReport lockstep = run_cache_model(s, p, "hand");
    p.drift = 0.5;
    const CacheReport timed = run_cache_model(s, p, "hand");
    EXPECT_EQ(timed.totals.l1_sectors, lockstep.totals.l1_sectors);  // every request issued once
    EXPECT_EQ(timed.totals.l1_requests, lockstep.totals.l1_requests);
    EXPECT_EQ(timed.totals.dram_read_bytes, lockstep.totals.dram_read_bytes);  // an L2 that holds it all
    EXPECT_EQ(timed.totals.dram_write_bytes, lockstep.totals.dram_write_bytes);
    EXPECT_EQ(timed.totals.l2_load_sectors + timed.totals.l2_merged_sectors,
              timed.totals.l1_sectors - timed.totals.l1_hit_sectors);  // every L1 miss goes on
    EXPECT_EQ(timed.totals.l2_sectors - timed.totals.l2_load_sectors,
              lockstep.totals.l2_sectors - lockstep.totals.l2_load_sectors);  // the stores
}

TEST(CacheModel, CoarserModelSectorsMergeTracedSectors) {
    CacheRequestStream s;
    s.begin_group();
    s.add({0, 1, 2}, false);  // 32-B sectors 0,1 -> 64-B sector 0; 2 -> 1
    CacheParams p = tiny(1024, 1024, 2);
    p.line_bytes = 128;
    p.sector_bytes = 64;
    const CacheReport r = run_cache_model(s, p, "hand");
    EXPECT_EQ(r.totals.l1_sectors, 2u);
    EXPECT_EQ(r.totals.dram_read_bytes, 128u);
    EXPECT_EQ(r.bounds.distinct_sectors, 2u);
}

TEST(CacheModel, PerBufferAndPerLineSumToTotals) {
    CacheRequestStream s;
    s.begin_group();
    s.add({0, 1}, false, 0, 10);
    s.add({100}, false, 1, 11);
    s.add({0}, false, 0, 12);
    s.add({200}, true, 2, 13);
    const CacheReport r = run_cache_model(s, tiny(256, 512, 2), "hand");
    CacheCounts by_buffer, by_line;
    for (const auto& [name, c] : r.buffers) by_buffer += c;
    for (const auto& [line, c] : r.lines) by_line += c;
    EXPECT_EQ(by_buffer, r.totals);
    EXPECT_EQ(by_line, r.totals);
    ASSERT_EQ(r.lines.size(), 4u);
    EXPECT_EQ(r.lines[2].first, 12);
    EXPECT_EQ(r.lines[2].second.l1_hit_sectors, 1u);
    EXPECT_EQ(r.buffers.size(), 3u);
    EXPECT_EQ(r.buffers[2].second.dram_write_bytes, 32u);
}

TEST(CacheModel, BadParametersNameTheirOption) {
    CacheRequestStream s;
    s.begin_group();
    s.add({0}, false);
    auto message = [&](CacheParams p) {
        try {
            run_cache_model(s, p, "hand");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CacheParams p = tiny(256, 512, 2);
    p.ways = 0;
    EXPECT_NE(message(p).find("--ways 0"), std::string::npos);
    p = tiny(100, 512, 2);
    EXPECT_NE(message(p).find("--l1 100 bytes"), std::string::npos);
    p = tiny(256, 64, 2);
    EXPECT_NE(message(p).find("--l2"), std::string::npos);
    p = tiny(256, 512, 2);
    p.line_bytes = 48;
    EXPECT_NE(message(p).find("--line 48"), std::string::npos);
    p = tiny(256, 512, 2, 0);
    EXPECT_NE(message(p).find("--cus 0"), std::string::npos);
    EXPECT_EQ(message(tiny(0, 512, 2)), "no error");  // --l1 0: no L1
    p = tiny(256, 512, 2);
    p.drift = 1.5;  // a pace of 1 - 1.5 would go back in time
    EXPECT_NE(message(p).find("drift"), std::string::npos);
    p.drift = -0.1;
    EXPECT_NE(message(p).find("drift"), std::string::npos);
}

TEST(CacheProfiles, EveryProfileLoadsWithItsSourceAndValidParameters) {
    const auto names = cache_profile_names();
    for (const char* wanted : {"h200", "h100", "teaching", "cpu"})
        EXPECT_NE(std::find(names.begin(), names.end(), wanted), names.end()) << wanted;
    for (const std::string& n : names) {
        const CacheProfile p = load_cache_profile(n);
        EXPECT_FALSE(p.source.empty()) << n;
        EXPECT_NO_THROW(check_cache_params(p.params, 32)) << n;
    }
    EXPECT_TRUE(load_cache_profile("cpu").from_sysfs);
    EXPECT_EQ(load_cache_profile("h200").params.cus, 132u);
    EXPECT_THROW(load_cache_profile("nosuch"), InputError);
}

// The ladder explained: each step names its largest traffic change, or says none changed
// while the measured time did.
TEST(LadderExplained, NamesTheLargestChangeOrSaysNoneChanged) {
    LadderRungFigures naive{"naive", 16, 1000, 0, 0, 64000.0, 8000.0, 4000.0, 2.0, ""};
    LadderRungFigures tiled{"tiled", 16, 125, 50000, 64, 8000.0, 7000.0, 4000.0, 1.5, ""};
    LadderRungFigures same{"tiled_pad", 16, 125, 50000, 64, 8000.0, 7000.0, 4000.0, 1.0, ""};
    const auto steps = explain_ladder({naive, tiled, same});
    ASSERT_EQ(steps.size(), 2u);
    ASSERT_EQ(steps[0].changes.size(), 7u);  // requests, L1, L2, DRAM, local, barriers, time
    EXPECT_EQ(steps[0].changes[0].what, "global requests");
    EXPECT_DOUBLE_EQ(steps[0].changes[0].ratio(), 0.125);
    EXPECT_EQ(steps[0].changes[6].kind, FigureKind::Measured);
    // local bytes went from 0 to 50000: the largest change
    EXPECT_NE(steps[0].note.find("local bytes"), std::string::npos) << steps[0].note;
    EXPECT_NE(steps[1].note.find("no traced or modelled traffic changed"), std::string::npos) << steps[1].note;
    EXPECT_NE(steps[1].note.find("time is 1.5x less"), std::string::npos) << steps[1].note;
    // Without cache figures the modelled rows are left out, not zero.
    LadderRungFigures bare = naive;
    bare.l1_bytes.reset();
    EXPECT_EQ(explain_ladder({bare, tiled})[0].changes.size(), 6u);
}

// Issue 31: a rung's modelled figures carry the held-out check for that kernel and profile,
// and the step to it shows it beside its note; not once options override the profile.
TEST(LadderExplained, ModelledFiguresCarryTheirHeldOutCheck) {
    Trace t;
    t.kernel = "tiled_wpt";
    CacheReport r;
    r.profile = "h200";
    r.params.sector_bytes = 32;
    const LadderRungFigures f = ladder_figures(t, &r, std::nullopt);
    EXPECT_EQ(f.cache_check, [] { std::string s = cache_check_lines("h200", "", "tiled_wpt"); s.pop_back(); return s; }());
    EXPECT_NE(f.cache_check.find("tiled_wpt"), std::string::npos) << f.cache_check;
    LadderRungFigures before = f;
    before.kernel = "tiled";
    EXPECT_EQ(explain_ladder({before, f})[0].check, f.cache_check);
    r.profile = "h200 + overrides";
    EXPECT_EQ(ladder_figures(t, &r, std::nullopt).cache_check, "");
    EXPECT_EQ(ladder_figures(t, nullptr, std::nullopt).cache_check, "");
}

// The heatmap by DRAM fetches: each element gets its sector's DRAM reads. Buffer "A" of
// 24 floats starts at sector 10: elements 0-7 in sector 10, 8-15 in 11, 16-23 in 12.
TEST(CacheModel, DramFetchesPerElementFollowTheirSectors) {
    CacheRequestStream s;
    s.buffers = {"A"};
    s.buffer_first_sector = {10};
    s.begin_group();
    s.add({10}, false);
    s.add({12}, false);  // line 6 (64-B lines) evicts line 5 from the one-line L2
    s.add({20}, false);
    s.add({10}, false);  // so sector 10 is read from DRAM a second time
    CacheParams p = tiny(0, 64, 1);
    const CacheReport r = run_cache_model(s, p, "hand");
    const auto counts = dram_fetches_per_element(s, r, "A", 4, 24);
    ASSERT_EQ(counts.size(), 24u);
    EXPECT_EQ(counts[0], 2u);
    EXPECT_EQ(counts[7], 2u);
    EXPECT_EQ(counts[8], 0u);   // sector 11 never loaded
    EXPECT_EQ(counts[16], 1u);
    EXPECT_TRUE(dram_fetches_per_element(s, r, "B", 4, 24).empty());
}

// ---- Groups made from one traced group (issue 24, item 3) ----

namespace {

// A launch of gx x gy groups whose group (x, y) asks for sectors 1000*y + 16*x + {0, 1}
// (load), then 5000 + 8*x + y (store): moved copies of group (0,0) by construction.
CacheRequestStream moved_launch(uint32_t gx, uint32_t gy, uint32_t broken_x = 99, uint32_t broken_y = 99) {
    CacheRequestStream s;
    for (uint32_t y = 0; y < gy; ++y)
        for (uint32_t x = 0; x < gx; ++x) {
            s.begin_group();
            const uint64_t a = 1000ull * y + 16ull * x;
            s.add({a, a + 1}, false, 0, 10);
            s.add({a + 4}, false, 0, 11);
            s.add({5000ull + 8 * x + y + (x == broken_x && y == broken_y ? 1 : 0)}, true, 1, 12);
        }
    return s;
}

}  // namespace

TEST(TranslatedGroups, AWholeLaunchMadeFromASampleReplaysAsTheRecordedLaunch) {
    const CacheRequestStream sample = moved_launch(3, 3);
    const TranslatedGroups t = fit_translated_groups(sample, {3, 3, 1}, {7, 5, 1});
    EXPECT_EQ(t.groups_checked, 6u);  // nine traced, three gave the steps
    EXPECT_EQ(t.total_groups(), 35u);
    // Caches small enough to evict, 3 units x 2 resident: the order of dealing matters.
    CacheParams p = tiny(256, 1024, 2, 3, 2);
    const CacheRequestStream whole = moved_launch(7, 5);
    const CacheReport recorded = run_cache_model(whole, p, "hand");
    const CacheReport made = run_cache_model(t, p, "hand", 35);
    EXPECT_EQ(made.totals, recorded.totals);
    EXPECT_EQ(made.buffers, recorded.buffers);
    EXPECT_EQ(made.lines, recorded.lines);
    EXPECT_EQ(made.dram_reads, recorded.dram_reads);
    EXPECT_GT(made.totals.dram_read_bytes, 0u);
    EXPECT_LT(made.totals.l1_hit_sectors, made.totals.l1_sectors);  // not everything hits
    // The first 12 groups only: the recorded launch cut after its 12th group.
    CacheRequestStream first12 = whole;
    first12.groups.resize(12);
    EXPECT_EQ(run_cache_model(t, p, "hand", 12).totals, run_cache_model(first12, p, "hand").totals);
    // A progress that says stop ends the replay early: fewer requests than the whole.
    const CacheReport stopped = run_cache_model(t, p, "hand", 35, [](uint64_t, uint64_t) { return false; });
    EXPECT_LE(stopped.totals.l1_requests, made.totals.l1_requests);
}

TEST(TranslatedGroups, AGroupOffTheRuleIsRefusedNamingIt) {
    try {
        fit_translated_groups(moved_launch(3, 3, 2, 1), {3, 3, 1}, {7, 5, 1});
        FAIL() << "a sample off the rule was accepted";
    } catch (const InputError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("group (2,1,0)"), std::string::npos) << m;
        EXPECT_NE(m.find("source line 12"), std::string::npos) << m;
        EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    }
    // One group along a dimension the launch has several of: no step can be found.
    EXPECT_THROW(fit_translated_groups(moved_launch(3, 1), {3, 1, 1}, {7, 5, 1}), InputError);
    // A sample of the wrong size.
    EXPECT_THROW(fit_translated_groups(moved_launch(3, 3), {2, 2, 1}, {7, 5, 1}), InputError);
}

// Refills are dealt like the first deal (issue 24): 2 units x 2 slots, groups of one request.
// Round 1 runs groups 0-3 (unit 0: 0 and 2; unit 1: 1 and 3); all end, and the four freed
// slots take 4-7 slot by slot, one to each unit in turn: unit 0 gets 4 and 6, unit 1 gets
// 5 and 7. Groups 4 and 6 load the same sector, so the second finds it in unit 0's L1. (A
// unit taking its freed slots in a run would put 4 and 5 on unit 0, 6 and 7 on unit 1.)
TEST(CacheModel, FreedSlotsAreDealtOneToEachUnitInTurn) {
    CacheRequestStream s;
    for (uint64_t g = 0; g < 8; ++g) {
        s.begin_group();
        s.add({g == 6 ? 40u : 10u * g}, false);  // group 6 asks for group 4's sector 40
    }
    const CacheReport r = run_cache_model(s, tiny(1024, 4096, 2, 2, 2), "hand");
    EXPECT_EQ(r.totals.l1_sectors, 8u);
    EXPECT_EQ(r.totals.l1_hit_sectors, 1u);
}

// Issue 31: the held-out check beside the modelled figures is computed from the held-out
// table, per kernel and GPU: within where every size is within, else the measurement.
namespace {
const char* kHeldOutSources = "gpu,device,date,tool\nh200,NVIDIA H200,2026-11-26,Nsight Compute 2025.3.1\n";
const char* kHeldOutRows =
    "gpu,kernel,size,ncu_l2_sectors,model_l2_sectors,l2_error_pct,model_l2_sectors_no_merging,ncu_l1_hit_pct,"
    "model_l1_hit_pct,ncu_l2_read_over_l1_misses,groups_modelled\n"
    "h200,good,448,1000,1100,10.0,1,50.00,52.00,0.5,1 of 1\n"
    "h200,good,896,2000,1800,-10.0,1,40.00,40.00,0.5,1 of 1\n"
    "h200,bad,448,1000,1000,0.0,1,50.00,50.00,0.5,1 of 1\n"
    "h200,bad,896,2000000,1000000,-50.0,1,10.00,20.00,0.5,1 of 1\n"
    "h200,bad,1920,3000,,,,5.00,,0.9,\n"
    "h200,unrun,1408,4000,,,,7.00,,0.9,\n";
}  // namespace

TEST(HeldOut, VerdictPerKernelComesFromTheRows) {
    const HeldOutTable t = parse_held_out(kHeldOutRows, kHeldOutSources, "test");
    ASSERT_EQ(t.rows.size(), 6u);
    EXPECT_TRUE(t.rows[0].l2_within());   // +10 %
    EXPECT_TRUE(t.rows[0].l1_within());   // 2 points
    EXPECT_FALSE(t.rows[3].l2_within());  // -50 %
    EXPECT_FALSE(t.rows[3].l1_within());  // 10 points
    EXPECT_FALSE(t.rows[4].modelled());
    const std::string good = held_out_l2_line(t, "h200", "good");
    EXPECT_NE(good.find("within 15 % for good at every held-out size"), std::string::npos) << good;
    EXPECT_EQ(good.find("outside"), std::string::npos) << good;
    const std::string bad = held_out_l2_line(t, "h200", "bad");
    EXPECT_NE(bad.find("outside 15 % for bad at 896^3 (measured 2,000,000 L2 sectors, model -50.0 %)"), std::string::npos) << bad;
    EXPECT_NE(bad.find("NVIDIA H200, 2026-11-26"), std::string::npos) << bad;  // device and date
    EXPECT_NE(bad.find("within at 448^3"), std::string::npos) << bad;
    EXPECT_NE(bad.find("not modelled: 1920^3"), std::string::npos) << bad;
    const std::string bad_l1 = held_out_l1_line(t, "h200", "bad");
    EXPECT_NE(bad_l1.find("at 896^3 (measured 10.00 % L1 hit, model 20.00 %)"), std::string::npos) << bad_l1;
    // A kernel the table does not hold: the GPU's summary, counted from the rows.
    const std::string all = held_out_l2_line(t, "h200", "other");
    EXPECT_NE(all.find("for 3 of 4 held-out launches"), std::string::npos) << all;
    EXPECT_EQ(all.find("other was not held to the hardware"), 0u) << all;
    EXPECT_EQ(held_out_l2_line(t, "h100", "good"), "");  // no rows for that GPU
    // A kernel measured but never modelled: said so, with the sizes, not "outside ... at ;".
    const std::string unrun = held_out_l1_line(t, "h200", "unrun");
    EXPECT_EQ(unrun.find("the model was not run for unrun at the held-out sizes"), 0u) << unrun;
    EXPECT_NE(unrun.find("not modelled: 1408^3"), std::string::npos) << unrun;
    EXPECT_EQ(unrun.find(" at ;"), std::string::npos) << unrun;
}

TEST(HeldOut, BadTablesAreRefusedWithTheirLine) {
    const std::string head = "gpu,kernel,size,ncu_l2_sectors,model_l2_sectors,ncu_l1_hit_pct,model_l1_hit_pct\n";
    for (const std::string& bad : {std::string("gpu,kernel\nh200,naive\n"), head + "h200,naive,448,12x,1,2,3\n",
                                  head + "h200,naive,448,1,1,101,3\n", head + "h200,naive,0,1,1,1,1\n",
                                  head + "h200,naive,448\n"})
        EXPECT_THROW(parse_held_out(bad, kHeldOutSources, "test"), InputError) << bad;
}

TEST(HeldOut, HardwareProfilesCarryTheCompiledInCheckPerKernel) {
    const HeldOutTable& t = held_out_table();
    ASSERT_FALSE(t.rows.empty());
    for (const char* gpu : {"h200", "h100"}) {
        EXPECT_NE(cache_check_lines(gpu).find("held-out launches"), std::string::npos) << gpu;
        EXPECT_EQ(cache_check_lines(std::string(gpu) + " + overrides", "  ", "naive"), "") << gpu;
        for (const HeldOutRow& r : t.rows) {
            if (r.gpu != gpu || !r.modelled()) continue;
            const std::string lines = cache_check_lines(gpu, "  ", r.kernel);
            const std::string size = std::to_string(r.size) + "^3";
            if (!r.l2_within())  // the measurement is named beside the modelled figure
                EXPECT_NE(lines.find(size + " (measured " + grouped(uint64_t(r.ncu_l2)) + " L2 sectors"), std::string::npos)
                    << lines;
            else
                EXPECT_EQ(lines.find(size + " (measured " + grouped(uint64_t(r.ncu_l2))), std::string::npos) << lines;
        }
    }
    EXPECT_EQ(cache_check_lines("teaching"), "");
    EXPECT_EQ(cache_check_lines("nosuch"), "");
}

namespace {

// The first line numbers (from `from`) whose home is L2 half `half`.
std::vector<uint64_t> lines_at_home(const CacheParams& p, uint32_t half, size_t count, uint64_t from = 0) {
    std::vector<uint64_t> out;
    for (uint64_t line = from; out.size() < count; ++line)
        if (l2_home_half(p, line) == half) out.push_back(line);
    return out;
}

}  // namespace

// The two-half L2 (issue 31, cache8). No L1, two units, one per half; each half one set of two
// 64-B lines. Unit 0 reads sector 0 of line F (home half 0): DRAM. Unit 1 reads F's sector 1 (far:
// no copy near, the home lacks it: DRAM, and a copy in half 1), then sector 0 (the copy lacks it,
// the home has it: an L2 hit, now copied too), then sector 0 again (a hit in the copy).
TEST(CacheModel, TwoHalvesReadAFarLineFromDramOnceAndKeepACopyNear) {
    CacheParams p = tiny(0, 256, 2, 2, 1);
    p.l2_halves = 2;
    ASSERT_EQ(l2_near_half(p, 0), 0u);
    ASSERT_EQ(l2_near_half(p, 1), 1u);
    const uint64_t f = lines_at_home(p, 0, 1)[0];
    CacheRequestStream s;
    s.begin_group();  // group 0 on unit 0
    s.add({2 * f}, false);
    s.begin_group();  // group 1 on unit 1, a round later for its second read
    s.add({2 * f + 1}, false);  // the other sector of F: DRAM
    s.add({2 * f}, false);      // home hit; the copy in half 1 now holds both sectors
    s.add({2 * f}, false);      // copy hit
    const CacheReport r = run_cache_model(s, p, "hand");
    EXPECT_EQ(r.totals.l2_sectors, 4u);
    EXPECT_EQ(r.totals.l2_hit_sectors, 2u);
    EXPECT_EQ(r.totals.dram_read_bytes, 2u * 32);
}

// A line is held twice only while both halves keep it: copies take ways from the near half's own
// lines. Unit 1 (half 1; half 1 is one set of 2 ways) reads its near lines N1 and N2, then far
// lines F1 and F2, then N2 again. With no limit on copies, F1's and F2's copies evict N1 and N2:
// N2 is read from DRAM again (5 DRAM sectors). With copies limited to 1 way of a set, F2's copy
// replaces F1's and N2 stays (4); with no copies, the same 4 (F1 and F2 are read from their home).
TEST(CacheModel, TwoHalvesHoldALineTwiceOnlyInTheWaysCopiesMayTake) {
    CacheParams p = tiny(0, 256, 2, 2, 1);
    p.l2_halves = 2;
    p.deal_order = {1};  // the one group runs on unit 1
    const std::vector<uint64_t> n = lines_at_home(p, 1, 2), f = lines_at_home(p, 0, 2);
    CacheRequestStream s;
    s.begin_group();
    for (uint64_t line : {n[0], n[1], f[0], f[1], n[1]}) s.add({2 * line}, false);
    for (const auto& [copy_ways, dram] : std::vector<std::pair<uint32_t, uint64_t>>{{2, 5}, {16, 5}, {1, 4}, {0, 4}}) {
        p.l2_copy_ways = copy_ways;
        const CacheReport r = run_cache_model(s, p, "hand");
        EXPECT_EQ(r.totals.dram_read_bytes, dram * 32) << "copy ways " << copy_ways;
        EXPECT_EQ(r.totals.l2_sectors, 5u) << "copy ways " << copy_ways;  // L2 traffic does not depend on it
    }
    p.l2_halves = 3;
    EXPECT_THROW(check_cache_params(p, 32), InputError);
}

// DRAM past the L2 (issue 31, cache8): the verdict beside a modelled figure comes from the rows.
TEST(HeldOut, DramPastTheL2IsJudgedFromTheRows) {
    const HeldOutTable t = parse_held_out("gpu,kernel,size,ncu_l2_sectors,model_l2_sectors,ncu_l1_hit_pct,model_l1_hit_pct\n",
                                          "gpu,device,date,tool\nh200,NVIDIA H200,2026-11-27,Nsight Compute\n", "test");
    const std::vector<DramRow> rows = parse_dram_past_l2(
        "gpu,kernel,size,ncu_dram_read_sectors,model_dram_read_sectors\n"
        "h200,good,4096,1000000,1200000\nh200,good,6144,2000000,1900000\n"
        "h200,bad,4096,1000000,1400000\nh200,bad,6144,2000000,2100000\n",
        "test");
    const std::string good = dram_past_l2_line(rows, t, "h200", "good");
    EXPECT_EQ(good.find("the model is within 30 % for good at 4096^3, 6144^3 (Nsight Compute on the lent NVIDIA H200"), 0u) << good;
    const std::string bad = dram_past_l2_line(rows, t, "h200", "bad");
    EXPECT_EQ(bad.find("the model is outside 30 % for bad at 4096^3 (measured 32 MB, model +40.0 %)"), 0u) << bad;
    EXPECT_NE(bad.find("within at 6144^3: quote the measurement"), std::string::npos) << bad;
    EXPECT_EQ(dram_past_l2_line(rows, t, "h200", "other"), "");
    EXPECT_EQ(dram_past_l2_line(rows, t, "h100", "good"), "");  // no source for that GPU
    EXPECT_THROW(parse_dram_past_l2("gpu,kernel,size,ncu_dram_read_sectors,model_dram_read_sectors\nh200,x,4096,0,1\n", "t"),
                 InputError);
    for (const char* size : {"0", "4096.5", "2000000"})  // the held-out table's rule for sizes, shared
        EXPECT_THROW(parse_dram_past_l2(std::string("gpu,kernel,size,ncu_dram_read_sectors,model_dram_read_sectors\nh200,x,") +
                                            size + ",5,1\n",
                                        "t"),
                     InputError)
            << size;
    // The compiled-in rows: every one outside the target is named with its measurement.
    for (const DramRow& r : dram_past_l2_table()) {
        const std::string line = dram_past_l2_line(dram_past_l2_table(), held_out_table(), r.gpu, r.kernel);
        EXPECT_EQ(line.find(std::to_string(r.size) + "^3 (measured") != std::string::npos, !r.within()) << line;
    }
    EXPECT_EQ(dram_past_l2_table().size(), 8u);  // naive and tiled, 4,096^3 and 6,144^3, H200 and H100
}
