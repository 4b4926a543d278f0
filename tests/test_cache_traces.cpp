// The cache model (issue 11) on traced kernels. Two things are computed here
// independently of the product's code and compared with it:
//  1. the request stream, from the kernels' own index arithmetic (naive.cl, tiled.cl)
//     and DESIGN.md's definition of a synthetic sub-group request, against the stream the
//     plugin recorded;
//  2. the cache counts, from a deliberately plain reference simulator (std::list LRU per
//     set, an explicit schedule of rounds), against run_cache_model, with caches small
//     enough that both hits and evictions occur.
// Then the order-independent bounds of the issue, and the 128^3 H200-like claim.
#include <gtest/gtest.h>

#include <cmath>
#include <list>
#include <map>
#include <set>

#include "core/caches/cache_trace.h"
#include "core/kernel/catalog.h"
#include "core/emulator/trace_runner.h"
#include "core/tasks/sampled_caches.h"

#include <limits>

using namespace tilescope;

namespace {

Trace traced(const std::string& rung, const std::string& size, int tile) {
    const KernelSpec* k = find_rung(rung);
    if (!k) throw std::runtime_error("no rung " + rung);
    TraceOptions o;
    o.checks = false;
    o.verify = false;
    o.cache_requests = true;
    o.detail_budget_bytes = 1 << 16;
    return run_trace(LaunchConfig{*k, parse_size(size), tile}, o);
}

int buffer_index(const CacheRequestStream& s, const std::string& name) {
    for (size_t i = 0; i < s.buffers.size(); ++i)
        if (s.buffers[i] == name) return static_cast<int>(i);
    throw std::runtime_error("no buffer " + name);
}

// ---- 1. The expected request stream, from the kernel source ----

struct Access {
    int instruction;  // in source order: the tie-break the plugin takes from source lines
    int buffer;
    uint64_t element;
    bool store;
};

struct ExpectedRequest {
    int instruction = 0, buffer = 0;
    bool store = false;
    uint32_t index = UINT32_MAX, subgroup = 0;
    std::set<uint64_t> sectors;
};

// One interval of one work-group: each lane's global accesses in program order ->
// requests keyed by (instruction, k-th execution, sub-group of 32 lanes), issued in order
// of (smallest dynamic access index of their lanes, sub-group, instruction).
void add_interval(CacheRequestStream& out, const std::vector<std::vector<Access>>& lanes,
                  const CacheRequestStream& traced_stream) {
    std::map<std::tuple<int, uint32_t, uint32_t>, ExpectedRequest> requests;
    for (uint32_t lane = 0; lane < lanes.size(); ++lane) {
        std::map<int, uint32_t> executions;
        for (uint32_t index = 0; index < lanes[lane].size(); ++index) {
            const Access& a = lanes[lane][index];
            ExpectedRequest& r = requests[{a.instruction, executions[a.instruction]++, lane / 32}];
            r.instruction = a.instruction;
            r.buffer = a.buffer;
            r.store = a.store;
            r.index = std::min(r.index, index);
            r.subgroup = lane / 32;
            r.sectors.insert(traced_stream.buffer_first_sector[a.buffer] + a.element * 4 / 32);
        }
    }
    std::vector<ExpectedRequest> ordered;
    for (auto& [key, r] : requests) ordered.push_back(r);
    std::sort(ordered.begin(), ordered.end(), [](const ExpectedRequest& a, const ExpectedRequest& b) {
        return std::tie(a.index, a.subgroup, a.instruction) < std::tie(b.index, b.subgroup, b.instruction);
    });
    for (const ExpectedRequest& r : ordered) {
        const std::vector<uint64_t> sectors(r.sectors.begin(), r.sectors.end());
        out.add(sectors.data(), sectors.data() + sectors.size(), r.store, static_cast<uint16_t>(r.buffer), r.instruction);
    }
}

// naive.cl: work-item (col, row) = global id; if inside C: for k { A[row*K+k]; B[k*N+col] }; C[row*N+col] = .
CacheRequestStream expected_naive(int64_t M, int64_t N, int64_t K, int TS, const CacheRequestStream& t) {
    CacheRequestStream s;
    s.sector_bytes = 32;
    s.buffers = t.buffers;
    const int a = buffer_index(t, "A"), b = buffer_index(t, "B"), c = buffer_index(t, "C");
    for (int64_t gy = 0; gy < (M + TS - 1) / TS; ++gy)
        for (int64_t gx = 0; gx < (N + TS - 1) / TS; ++gx) {
            s.begin_group();
            std::vector<std::vector<Access>> lanes(size_t(TS) * TS);
            for (int lr = 0; lr < TS; ++lr)
                for (int lc = 0; lc < TS; ++lc) {
                    const int64_t row = gy * TS + lr, col = gx * TS + lc;
                    if (row >= M || col >= N) continue;
                    auto& acc = lanes[size_t(lc + TS * lr)];
                    for (int64_t k = 0; k < K; ++k) {
                        acc.push_back({0, a, uint64_t(row * K + k), false});
                        acc.push_back({1, b, uint64_t(k * N + col), false});
                    }
                    acc.push_back({2, c, uint64_t(row * N + col), true});
                }
            add_interval(s, lanes, t);
        }
    return s;
}

// tiled.cl: per phase p, interval 2p loads A[row*K + p*TS+lc] and B[(p*TS+lr)*N + col]
// when inside A and B; interval 2p+1 only reads local memory; the last stores C.
CacheRequestStream expected_tiled(int64_t M, int64_t N, int64_t K, int TS, const CacheRequestStream& t) {
    CacheRequestStream s;
    s.sector_bytes = 32;
    s.buffers = t.buffers;
    const int a = buffer_index(t, "A"), b = buffer_index(t, "B"), c = buffer_index(t, "C");
    const int64_t phases = (K + TS - 1) / TS;
    for (int64_t gy = 0; gy < (M + TS - 1) / TS; ++gy)
        for (int64_t gx = 0; gx < (N + TS - 1) / TS; ++gx) {
            s.begin_group();
            for (int64_t interval = 0; interval <= 2 * phases; ++interval) {
                std::vector<std::vector<Access>> lanes(size_t(TS) * TS);
                for (int lr = 0; lr < TS; ++lr)
                    for (int lc = 0; lc < TS; ++lc) {
                        const int64_t row = gy * TS + lr, col = gx * TS + lc;
                        auto& acc = lanes[size_t(lc + TS * lr)];
                        if (interval == 2 * phases) {
                            if (row < M && col < N) acc.push_back({2, c, uint64_t(row * N + col), true});
                        } else if (interval % 2 == 0) {
                            const int64_t p = interval / 2, acol = p * TS + lc, brow = p * TS + lr;
                            if (row < M && acol < K) acc.push_back({0, a, uint64_t(row * K + acol), false});
                            if (brow < K && col < N) acc.push_back({1, b, uint64_t(brow * N + col), false});
                        }
                    }
                add_interval(s, lanes, t);
            }
        }
    return s;
}

// Requests compared by what the model reads (source lines aside: the expected stream
// numbers instructions, the trace has real lines).
void expect_same_requests(const CacheRequestStream& want, const CacheRequestStream& got, const std::string& what) {
    size_t want_groups = 0;
    for (const auto& g : want.groups) want_groups += g.request_count > 0;
    ASSERT_EQ(got.groups.size(), want_groups) << what;
    size_t gi = 0;
    for (const auto& wg : want.groups) {
        if (wg.request_count == 0) continue;
        const auto& gg = got.groups[gi++];
        ASSERT_EQ(gg.request_count, wg.request_count) << what << " group " << gi - 1;
        for (uint32_t i = 0; i < wg.request_count; ++i) {
            const auto& w = want.requests[wg.request_begin + i];
            const auto& g = got.requests[gg.request_begin + i];
            const std::vector<uint64_t> ws(want.sectors.begin() + w.sector_begin,
                                           want.sectors.begin() + w.sector_begin + w.sector_count);
            const std::vector<uint64_t> gs(got.sectors.begin() + g.sector_begin,
                                           got.sectors.begin() + g.sector_begin + g.sector_count);
            ASSERT_EQ(gs, ws) << what << " group " << gi - 1 << " request " << i;
            ASSERT_EQ(g.store, w.store) << what << " group " << gi - 1 << " request " << i;
            ASSERT_EQ(g.buffer, w.buffer) << what << " group " << gi - 1 << " request " << i;
        }
    }
}

// ---- 2. A plain reference simulator ----

struct RefLine {
    uint64_t line;
    std::set<uint64_t> valid, dirty;
};

// Set-associative, LRU as a list per set (front: most recently used).
struct RefCache {
    uint64_t sets = 0, ways = 0;
    bool hashed = false;  // CacheParams::hashed_sets: XOR of the line number's set-index-wide chunks
    std::map<uint64_t, std::list<RefLine>> content;

    uint64_t set_of(uint64_t line) const {
        if (!hashed || sets < 2) return line % sets;
        unsigned bits = 0;
        while ((uint64_t(1) << bits) < sets) ++bits;
        uint64_t h = 0;
        for (unsigned shift = 0; shift < 64; shift += bits) h ^= line >> shift;
        return h % sets;
    }

    RefLine* use(uint64_t line) {  // moves to the front when present
        auto& set = content[set_of(line)];
        for (auto it = set.begin(); it != set.end(); ++it)
            if (it->line == line) {
                set.splice(set.begin(), set, it);
                return &set.front();
            }
        return nullptr;
    }
    RefLine& insert(uint64_t line) {
        auto& set = content[set_of(line)];
        if (set.size() == ways) set.pop_back();
        set.push_front({line, {}, {}});
        return set.front();
    }
};

CacheCounts reference_counts(const CacheRequestStream& s, const CacheParams& p) {
    // The schedule: (unit, request) pairs in the order the lockstep rounds issue them.
    std::vector<std::pair<uint32_t, uint32_t>> schedule;
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> units(p.cus);  // per unit, per slot: [next, end)
    std::vector<std::vector<bool>> busy(p.cus, std::vector<bool>(p.resident, false));
    for (auto& u : units) u.resize(p.resident);
    size_t next = 0;
    auto refill = [&](uint32_t cu, uint32_t slot) {
        busy[cu][slot] = false;
        while (next < s.groups.size()) {
            const auto& g = s.groups[next++];
            if (g.request_count) {
                units[cu][slot] = {g.request_begin, g.request_begin + g.request_count};
                busy[cu][slot] = true;
                return;
            }
        }
    };
    for (uint32_t slot = 0; slot < p.resident; ++slot)
        for (uint32_t cu = 0; cu < p.cus; ++cu) refill(cu, slot);
    for (bool any = true; any;) {
        any = false;
        std::vector<std::vector<bool>> ended(p.cus, std::vector<bool>(p.resident, false));
        for (uint32_t cu = 0; cu < p.cus; ++cu)
            for (uint32_t slot = 0; slot < p.resident; ++slot) {
                if (!busy[cu][slot]) continue;
                any = true;
                schedule.push_back({cu, units[cu][slot].first++});
                ended[cu][slot] = units[cu][slot].first == units[cu][slot].second;
            }
        // The round's ended slots take the next groups after it, as at the start: slot by
        // slot, one to each unit in turn.
        for (uint32_t slot = 0; slot < p.resident; ++slot)
            for (uint32_t cu = 0; cu < p.cus; ++cu)
                if (ended[cu][slot]) refill(cu, slot);
    }

    const uint64_t per_line = p.line_bytes / p.sector_bytes;
    std::vector<RefCache> l1(p.cus, RefCache{p.l1_bytes / (p.line_bytes * p.ways), p.ways, p.hashed_sets, {}});
    RefCache l2{p.l2_bytes / (p.line_bytes * p.ways), p.ways, p.hashed_sets, {}};
    CacheCounts c;
    for (const auto& [cu, ri] : schedule) {
        const auto& r = s.requests[ri];
        std::set<uint64_t> sectors;
        for (uint32_t i = 0; i < r.sector_count; ++i)
            sectors.insert(s.sectors[r.sector_begin + i] / (p.sector_bytes / s.sector_bytes));
        if (!r.store) ++c.l1_requests;
        for (uint64_t sector : sectors) {
            const uint64_t line = sector / per_line;
            if (r.store) {
                ++c.l2_sectors;
                RefLine* in2 = l2.use(line);
                if (in2 && in2->valid.count(sector)) ++c.l2_hit_sectors;
                if (!in2) in2 = &l2.insert(line);
                in2->valid.insert(sector);
                if (in2->dirty.insert(sector).second) c.dram_write_bytes += p.sector_bytes;
                continue;
            }
            ++c.l1_sectors;
            RefLine* in1 = p.l1_bytes ? l1[cu].use(line) : nullptr;
            if (in1 && in1->valid.count(sector)) {
                ++c.l1_hit_sectors;
                continue;
            }
            ++c.l2_sectors;
            ++c.l2_load_sectors;
            RefLine* in2 = l2.use(line);
            if (in2 && in2->valid.count(sector)) {
                ++c.l2_hit_sectors;
            } else {
                c.dram_read_bytes += p.sector_bytes;
                if (!in2) in2 = &l2.insert(line);
                in2->valid.insert(sector);
            }
            if (p.l1_bytes) {
                if (!in1) in1 = &l1[cu].insert(line);
                in1->valid.insert(sector);
            }
        }
    }
    return c;
}

uint64_t distinct_load_sectors(const CacheRequestStream& s, bool per_group) {
    uint64_t total = 0;
    std::set<uint64_t> all;
    for (const auto& g : s.groups) {
        std::set<uint64_t> mine;
        for (uint32_t i = 0; i < g.request_count; ++i) {
            const auto& r = s.requests[g.request_begin + i];
            if (!r.store) mine.insert(s.sectors.begin() + r.sector_begin, s.sectors.begin() + r.sector_begin + r.sector_count);
        }
        total += mine.size();
        all.insert(mine.begin(), mine.end());
    }
    return per_group ? total : all.size();
}

CacheParams small_caches() {  // L1 1 KB (4 sets x 2 ways), L2 8 KB (16 sets x 4 ways)
    CacheParams p;
    p.l1_bytes = 1024;
    p.l2_bytes = 8 * 1024;
    p.line_bytes = 128;
    p.sector_bytes = 32;
    p.ways = 2;
    p.cus = 3;
    p.resident = 2;
    return p;
}

struct Case {
    std::string rung, size;
    int64_t M, N, K;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.rung << " " << c.size; }

class CacheTraces : public ::testing::TestWithParam<Case> {};

}  // namespace

TEST_P(CacheTraces, StreamAndCountsMatchIndependentComputation) {
    const Case& c = GetParam();
    const Trace t = traced(c.rung, c.size, 16);
    ASSERT_TRUE(t.cache_requests) << "the trace kept no cache requests";
    const CacheRequestStream& got = *t.cache_requests;
    // The requests are the coalescing requests: same count, same sectors.
    EXPECT_EQ(got.requests.size(), t.coalescing.requests);
    EXPECT_EQ(got.sectors.size(), t.coalescing.sectors);

    const CacheRequestStream want = c.rung == "naive" ? expected_naive(c.M, c.N, c.K, 16, got)
                                                      : expected_tiled(c.M, c.N, c.K, 16, got);
    expect_same_requests(want, got, c.rung + " " + c.size);

    CacheParams p = small_caches();
    // At the small size even 8 KB holds everything: shrink L2 so it must evict there too.
    if (c.M * c.K + c.K * c.N + c.M * c.N < 8 * 1024) p.l2_bytes = 2 * 1024;
    const CacheReport model = run_cache_model(got, p, "test");
    const CacheCounts ref = reference_counts(want, p);
    EXPECT_EQ(model.totals, ref);
    EXPECT_GT(model.totals.l1_hit_sectors, 0u) << "no L1 hits: the case tests too little";
    EXPECT_GT(model.totals.dram_read_bytes, model.bounds.distinct_sectors * 32) << "no L2 capacity misses";
    EXPECT_GT(model.totals.dram_write_bytes, 0u);
    EXPECT_EQ(model.bounds.distinct_sectors, distinct_load_sectors(want, false));
    EXPECT_EQ(model.bounds.group_distinct_sectors, distinct_load_sectors(want, true));
    CacheCounts sum;
    for (const auto& [name, counts] : model.buffers) sum += counts;
    EXPECT_EQ(sum, model.totals);

    // Bounds that hold in any order, for any caches.
    for (const CacheParams& q : {p, load_cache_profile("h200").params, load_cache_profile("teaching").params}) {
        const CacheReport r = run_cache_model(got, q, "bounds");
        EXPECT_GE(r.totals.dram_read_bytes, r.bounds.distinct_sectors * q.sector_bytes);
        EXPECT_GE(r.totals.l2_load_sectors, r.bounds.distinct_sectors);
        EXPECT_EQ(r.totals.l2_load_sectors + r.totals.l2_merged_sectors, r.totals.l1_sectors - r.totals.l1_hit_sectors);
        // Merging only takes away: the same order (and drift) with it turned off.
        CacheParams unmerged = q;
        unmerged.inflight_rounds = 0;
        const CacheReport u = run_cache_model(got, unmerged, "bounds");
        EXPECT_GE(u.totals.l2_load_sectors, u.bounds.distinct_sectors);
        EXPECT_LE(r.totals.l2_sectors, u.totals.l2_sectors);
        // The reference is lockstep with no merging in flight: compared with both off (hashed sets kept).
        unmerged.drift = 0;
        EXPECT_EQ(run_cache_model(got, unmerged, "bounds").totals, reference_counts(want, unmerged));
    }
    // The hashed set index against the reference's own, where it matters: a 1 KB L1.
    CacheParams hashed = p;
    hashed.hashed_sets = true;
    EXPECT_EQ(run_cache_model(got, hashed, "hashed").totals, reference_counts(want, hashed));
    // One group per compute unit and an L1 larger than the data: L2 sees each group's
    // distinct sectors once. One unit running one group at a time: the launch's, once.
    CacheParams big = p;
    big.l1_bytes = 1 << 20;
    big.l2_bytes = 1 << 20;
    big.ways = 16;
    big.cus = static_cast<uint32_t>(t.total_groups());
    big.resident = 1;
    EXPECT_EQ(run_cache_model(got, big, "bounds").totals.l2_load_sectors, model.bounds.group_distinct_sectors);
    big.cus = 1;
    EXPECT_EQ(run_cache_model(got, big, "bounds").totals.l2_load_sectors, model.bounds.distinct_sectors);
    EXPECT_EQ(run_cache_model(got, big, "bounds").totals.dram_read_bytes, model.bounds.distinct_sectors * 32);
}

INSTANTIATE_TEST_SUITE_P(Rungs, CacheTraces,
                         ::testing::Values(Case{"naive", "64", 64, 64, 64}, Case{"tiled", "64", 64, 64, 64},
                                           Case{"naive", "37x29x45", 37, 29, 45},
                                           Case{"tiled", "37x29x45", 37, 29, 45}),
                         [](const auto& info) {
                             std::string n = info.param.rung + "_" + info.param.size;
                             std::replace(n.begin(), n.end(), 'x', '_');
                             return n;
                         });

// The claim: on an H200-like GPU the L1 catches naive's reuse, so naive's L2
// traffic is within 2x of tiled's (TS=16) although it makes 16x the global requests.
TEST(CacheClaims, NaiveL2TrafficWithinTwiceTiledsAt128OnH200) {
    const CacheProfile h200 = load_cache_profile("h200");
    const Trace naive = traced("naive", "128", 16);
    const Trace tiled = traced("tiled", "128", 16);
    const CacheReport n = model_trace_caches(naive, h200);
    const CacheReport t = model_trace_caches(tiled, h200);
    EXPECT_GE(naive.totals.global_load_bytes, 15 * tiled.totals.global_load_bytes);
    EXPECT_LE(n.totals.l2_sectors, 2 * t.totals.l2_sectors)
        << "naive L2 sectors " << n.totals.l2_sectors << ", tiled " << t.totals.l2_sectors;
    EXPECT_GT(n.totals.l1_hit_rate(), 0.5);
}

// Issue 24, item 3: the launch made from a traced 3x3 block of groups, replayed whole, is
// the launch traced whole, count for count, for rungs whose groups are moved copies of
// each other; a size whose edge groups differ (partial tiles) is refused, naming a group.
TEST(SampledCaches, AMadeLaunchModelsAsTheTracedLaunch) {
    for (const char* rung : {"naive", "tiled", "row"}) {
        for (const char* profile : {"h200", "teaching"}) {
            const KernelSpec* k = find_rung(rung);
            ASSERT_NE(k, nullptr);
            const int tile = 16;
            tasks::SampledCachesRequest req;
            req.config = LaunchConfig{*k, parse_size("128"), tile};
            req.profile = load_cache_profile(profile);
            req.sample = {3, 3, 1};
            req.model_groups = std::numeric_limits<uint64_t>::max();
            const tasks::SampledCachesResult r = tasks::model_caches_sampled(req, {});
            const CacheReport whole = model_trace_caches(traced(rung, "128", tile), req.profile);
            const bool one_row = std::string(rung) == "row";  // 8 groups along x, one along y
            EXPECT_EQ(r.groups_traced, one_row ? 3u : 9u);
            EXPECT_EQ(r.groups_checked, one_row ? 1u : 6u);  // less the group (0,0) and those giving the steps
            EXPECT_EQ(r.groups_modelled, r.groups_total);
            EXPECT_DOUBLE_EQ(r.scale(), 1.0);
            EXPECT_EQ(r.report.totals, whole.totals) << rung << " " << profile;
            EXPECT_EQ(r.report.dram_reads, whole.dram_reads) << rung << " " << profile;
            EXPECT_EQ(r.report.lines, whole.lines) << rung << " " << profile;
        }
    }
}

TEST(SampledCaches, GroupsThatAreNotMovedCopiesAreRefused) {
    tasks::SampledCachesRequest req;
    req.config = LaunchConfig{*find_rung("tiled"), parse_size("37x29x45"), 8};
    req.profile = load_cache_profile("h200");
    const ResolvedLaunch launch = resolve(req.config);
    // The whole launch: its last row and column of groups hold partial tiles.
    req.sample = {uint32_t(launch.groups[0]), uint32_t(launch.groups[1]), 1};
    try {
        tasks::model_caches_sampled(req, {});
        FAIL() << "partial tiles were stood in for by group (0,0)";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("not moved copies of group (0,0,0)"), std::string::npos) << e.what();
    }
    req.sample = {uint32_t(launch.groups[0]) + 1, 2, 1};  // larger than the launch
    EXPECT_THROW(tasks::model_caches_sampled(req, {}), InputError);
}

// A scale below one: the first two waves of a launch of several, the rest scaled.
TEST(SampledCaches, TheModelledGroupsAreTheFirstWholeWavesWhenTheWholeIsTooDear) {
    EXPECT_EQ(tasks::default_model_groups(65536, 1056, 1000, 2'000'000'000), 65536u);
    EXPECT_EQ(tasks::default_model_groups(65536, 1056, 557'056, 2'000'000'000), 3u * 1056);
    EXPECT_EQ(tasks::default_model_groups(65536, 1056, 100'000'000, 2'000'000'000), 2u * 1056);  // at least two
    EXPECT_EQ(tasks::default_model_groups(1000, 1056, 100'000'000, 2'000'000'000), 1000u);
}

// Issue 31, item 5: the limiting cases hold exactly on every rung of the catalog written in
// OpenCL C (the list comes from the catalog), under every profile's own order and merging:
//  - no L1 and an L2 larger than the data: every requested sector reaches L2, none merged;
//  - an L2 larger than the data: DRAM reads are the launch's distinct sectors;
//  - one group per unit, caches larger than the data: the L1 misses are each group's
//    distinct sectors; with a table per unit (nothing to merge with) L2 sees exactly those.
// The distinct sectors are counted here from the stream, not taken from cache_bounds.
// 32^3 keeps it fast (partial tiles for the rungs with tiles of 64 and 128); naive at 64^3
// is issue 31's example (8,704 L2 sectors for 33,280 requested before the fix).
namespace {

struct StreamSums {
    uint64_t load_sectors = 0, store_sectors = 0, distinct = 0, group_distinct = 0;
};

StreamSums stream_sums(const CacheRequestStream& s) {
    StreamSums out;
    for (const auto& r : s.requests) (r.store ? out.store_sectors : out.load_sectors) += r.sector_count;
    out.distinct = distinct_load_sectors(s, false);
    out.group_distinct = distinct_load_sectors(s, true);
    return out;
}

void expect_limits(const Trace& t, const std::string& rung) {
    ASSERT_TRUE(t.cache_requests) << rung;
    const CacheRequestStream& s = *t.cache_requests;
    ASSERT_EQ(s.sector_bytes, 32u) << rung;
    const StreamSums sums = stream_sums(s);
    ASSERT_GT(sums.load_sectors, 0u) << rung;
    for (const std::string profile : {"h200", "h100", "teaching"}) {
        const CacheParams base = load_cache_profile(profile).params;
        ASSERT_EQ(base.sector_bytes, 32u) << profile;
        const std::string what = rung + " " + profile;
        // No L1, huge L2.
        CacheParams p = base;
        p.l1_bytes = 0;
        p.l2_bytes = 1ull << 30;
        CacheReport r = run_cache_model(s, p, "limit");
        EXPECT_EQ(r.totals.l1_sectors, sums.load_sectors) << what;
        EXPECT_EQ(r.totals.l1_hit_sectors, 0u) << what;
        EXPECT_EQ(r.totals.l2_merged_sectors, 0u) << what;
        EXPECT_EQ(r.totals.l2_load_sectors, sums.load_sectors) << what;
        EXPECT_EQ(r.totals.l2_sectors, sums.load_sectors + sums.store_sectors) << what;
        EXPECT_EQ(r.totals.dram_read_bytes, sums.distinct * 32) << what;
        // Huge L2, the profile's L1.
        p = base;
        p.l2_bytes = 1ull << 30;
        r = run_cache_model(s, p, "limit");
        EXPECT_EQ(r.totals.dram_read_bytes, sums.distinct * 32) << what;
        EXPECT_EQ(r.totals.l2_load_sectors + r.totals.l2_merged_sectors,
                  r.totals.l1_sectors - r.totals.l1_hit_sectors) << what;
        // One group per unit, huge L1 and L2.
        p = base;
        p.l1_bytes = 16ull << 20;
        p.l2_bytes = 1ull << 30;
        p.cus = static_cast<uint32_t>(s.groups.size());
        p.resident = 1;
        p.merge_clusters = std::min(p.merge_clusters, p.cus);
        p.cluster_of.clear();
        r = run_cache_model(s, p, "limit");
        EXPECT_EQ(r.totals.l2_load_sectors + r.totals.l2_merged_sectors, sums.group_distinct) << what;
        EXPECT_EQ(r.totals.dram_read_bytes, sums.distinct * 32) << what;
        p.merge_clusters = p.cus;  // a table per unit: no other unit's fetch to join
        r = run_cache_model(s, p, "limit");
        EXPECT_EQ(r.totals.l2_merged_sectors, 0u) << what;
        EXPECT_EQ(r.totals.l2_load_sectors, sums.group_distinct) << what;
        EXPECT_EQ(r.totals.l2_sectors, sums.group_distinct + sums.store_sectors) << what;
    }
}

std::vector<std::string> opencl_rungs() {
    std::vector<std::string> names;
    for (const KernelSpec& k : ladder())
        if (k.library.empty()) names.push_back(k.name);
    return names;
}

class CacheLimits : public ::testing::TestWithParam<std::string> {};

}  // namespace

TEST_P(CacheLimits, HoldExactlyOnTheRung) {
    const KernelSpec* k = find_rung(GetParam());
    ASSERT_NE(k, nullptr);
    expect_limits(traced(k->name, "32", k->default_tile), k->name);
}

INSTANTIATE_TEST_SUITE_P(Ladder, CacheLimits, ::testing::ValuesIn(opencl_rungs()),
                         [](const auto& info) { return info.param; });

TEST(CacheLimits, NaiveAt64WithNoL1SendsEveryRequestedSectorToL2) {
    const Trace t = traced("naive", "64", 16);
    expect_limits(t, "naive 64");
    CacheOverrides no_l1;
    no_l1.l1_kb = 0;
    no_l1.l2_kb = 1 << 20;
    const CacheReport r = model_trace_caches(t, load_cache_profile("h200"), no_l1);
    EXPECT_EQ(r.totals.l2_sectors, 33'280u);  // 2 * 64^3 / 16 load sectors + 64^2 / 8 stores
}

// Per-launch residency (issue 31, fourth round). The blocks per SM CUDA itself reported for
// the seven twins on the lent H200 and H100 (docs/results/caches31/*/h*/run.txt: block size,
// static shared memory, registers per thread as nvcc gave them -> cudaOccupancyMaxActiveBlocks-
// PerMultiprocessor) against the profile's occupancy and register file.
TEST(CacheResidency, FollowsEachLaunchAsCudaRanTheTwins) {
    struct Twin {
        const char* kernel;
        uint32_t threads;
        uint64_t smem;
        uint32_t regs, cuda_blocks_per_sm;
    };
    const Twin twins[] = {{"naive", 256, 0, 32, 8},        {"tiled", 256, 2048, 32, 8},
                          {"row", 16, 0, 32, 32},          {"reg2d", 256, 8192, 55, 4},
                          {"tiled_wpt", 256, 8192, 37, 6}, {"reg2d_tpad", 64, 8448, 129, 6},
                          {"naive_bt", 256, 0, 30, 8}};
    for (const std::string gpu : {"h200", "h100"}) {
        const CacheProfile p = load_cache_profile(gpu);
        for (const Twin& t : twins)
            EXPECT_EQ(launch_resident(p, t.threads, t.smem, t.regs), t.cuda_blocks_per_sm) << gpu << " " << t.kernel;
        // Registers unknown: threads and local memory alone (reg2d: 2,048 / 256 threads).
        EXPECT_EQ(launch_resident(p, 256, 8192, 0), 8u) << gpu;
        // A profile with no occupancy keeps its own figure.
        EXPECT_EQ(launch_resident(load_cache_profile("teaching"), 256, 8192, 55), 2u);
    }
}

TEST(CacheResidency, TheL1IsWhatTheSharedMemoryCarveOutLeaves) {
    const CacheProfile h200 = load_cache_profile("h200");
    CacheOverrides regs;
    regs.regs = 55;  // reg2d: 4 groups x (2 x 8 KB + 1 KB) = 68 KB -> the 100 KB step -> 156 KB of L1
    CacheParams p = launch_params(h200, regs, 256, 8192);
    EXPECT_EQ(p.resident, 4u);
    EXPECT_EQ(p.l1_bytes, 156u * 1024);
    p = launch_params(h200, {}, 256, 2048);  // tiled: 8 x (2 x 2 KB + 1 KB) = 40 KB -> 64 KB step -> 192 KB
    EXPECT_EQ(p.resident, 8u);
    EXPECT_EQ(p.l1_bytes, 192u * 1024);
    p = launch_params(h200, {}, 256, 0);  // no local memory: still the 32 KB least, as the driver gives
    EXPECT_EQ(p.l1_bytes, 224u * 1024);
    CacheOverrides mine;  // what the user sets wins
    mine.resident = 3;
    mine.l1_kb = 100;
    p = launch_params(h200, mine, 256, 2048);
    EXPECT_EQ(p.resident, 3u);
    EXPECT_EQ(p.l1_bytes, 100u * 1024);
}

// The carve-out the driver took for each twin by default (cache10; ncu's
// launch__shared_mem_config_size, docs/results/caches31/cache9/carveout/ncu_default_640.csv on the
// lent H200 and carveout_h100/ncu_default_640.csv, ncu_default_1088.csv on the lent H100, and
// cache10/h200, cache10/h100 ncu_1216.csv, ncu_1600.csv, ncu_1984.csv: the same everywhere): the rule (twice the static shared memory plus CUDA's 1 KB a block, for the blocks
// CUDA ran, and at least 32 KB) reproduces all seven; the fourth round's rule (once, none without
// shared memory) gives four of them less.
TEST(CacheResidency, TheDriversCarveOutRuleGivesWhatNcuRecorded) {
    struct Twin {
        const char* kernel;
        uint64_t smem;
        uint32_t blocks_per_sm, carveout_kb, fourth_round_kb;
    };
    const Twin twins[] = {{"naive", 0, 8, 32, 0},        {"tiled", 2048, 8, 64, 32},
                          {"row", 0, 32, 32, 0},         {"reg2d", 8192, 4, 100, 64},
                          {"tiled_wpt", 8192, 6, 132, 64}, {"reg2d_tpad", 8448, 6, 132, 64},
                          {"naive_bt", 0, 8, 32, 0}};
    for (const std::string gpu : {"h200", "h100"}) {
        const CacheProfile driver = load_cache_profile(gpu);  // the profiles follow the driver since cache10
        EXPECT_EQ(driver.carveout_local_factor, 2u) << gpu;
        EXPECT_EQ(driver.carveout_min_kb, 32u) << gpu;
        CacheProfile fourth = driver;
        fourth.carveout_local_factor = 1;
        fourth.carveout_min_kb = 0;
        for (const Twin& t : twins) {
            EXPECT_EQ(launch_carveout_kb(driver, t.blocks_per_sm, t.smem), t.carveout_kb) << gpu << " " << t.kernel;
            EXPECT_EQ(launch_carveout_kb(fourth, t.blocks_per_sm, t.smem), t.fourth_round_kb) << gpu << " " << t.kernel;
        }
        // The L1 a launch gets is what the carve-out leaves of 256 KB (reg2d: 4 blocks, 156 KB).
        CacheOverrides regs;
        regs.regs = 55;
        EXPECT_EQ(launch_params(driver, regs, 256, 8192).l1_bytes, 156u * 1024) << gpu;
        EXPECT_EQ(launch_params(driver, {}, 256, 0).l1_bytes, 224u * 1024) << gpu;  // naive: the 32 KB least
        // More than the largest step would hold twice: the largest step (228 KB).
        EXPECT_EQ(launch_carveout_kb(driver, 1, 150 * 1024), 228u) << gpu;
    }
}

TEST(CacheResidency, ATracedLaunchIsModelledWithItsOwnResidency) {
    const Trace t = traced("tiled", "64", 16);  // 16x16 work-groups, two 16x16 float tiles: 2 KB
    const CacheProfile h200 = load_cache_profile("h200");
    CacheReport r = model_trace_caches(t, h200);
    EXPECT_EQ(r.params.resident, 8u);
    EXPECT_EQ(r.params.l1_bytes, 192u * 1024);  // 8 x (2 x 2 KB + 1 KB) = 40 KB -> the 64 KB step
    EXPECT_EQ(r.params.deal_order, h200.params.deal_order);
    EXPECT_FALSE(r.params.deal_order.empty());
    CacheOverrides regs;
    regs.regs = 55;  // 4 groups x 5 KB = 20 KB -> the 32 KB least
    r = model_trace_caches(t, h200, regs);
    EXPECT_EQ(r.params.resident, 4u);
    EXPECT_EQ(r.params.l1_bytes, 224u * 1024);
    EXPECT_EQ(r.profile, "h200");  // registers are the launch's, not an override of the profile
}

// Line sampling (issue 31, item 2): a sample of the lines in caches of 1/k the sets stands in
// for the whole replay, counts scaled by k. Checked here at 128^3 with an L2 smaller than A and
// B (so DRAM reads exceed the compulsory ones) and at 1,024^3 in docs/caches.md.
TEST(CacheLineSample, OneLineInEightStandsInForTheWholeReplay) {
    const Trace t = traced("tiled", "128", 16);
    ASSERT_TRUE(t.cache_requests);
    CacheParams p = load_cache_profile("h200").params;
    p.l1_bytes = 16 * 1024;
    p.l2_bytes = 32 * 1024;
    const CacheCounts whole = run_cache_model(*t.cache_requests, p, "whole").totals;
    ASSERT_GT(whole.dram_read_bytes, uint64_t(4096) * 32);  // past the compulsory 4,096 sectors
    p.line_sample = 8;
    const CacheCounts sampled = run_cache_model(*t.cache_requests, p, "sampled").totals;
    const auto near = [](uint64_t part, uint64_t all) { return std::abs(8.0 * double(part) / double(all) - 1.0); };
    EXPECT_LT(near(sampled.l1_sectors, whole.l1_sectors), 0.03);
    EXPECT_LT(near(sampled.l2_sectors, whole.l2_sectors), 0.03);
    EXPECT_LT(near(sampled.dram_read_bytes, whole.dram_read_bytes), 0.05);
    EXPECT_LT(sampled.l2_sectors, whole.l2_sectors / 4);  // it did look up fewer
}
