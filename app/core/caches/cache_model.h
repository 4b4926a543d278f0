#pragma once
// The cache model of issue 11: the traced global requests replayed in a lockstep GPU's
// order through a per-compute-unit L1 and a shared L2, both set-associative LRU caches
// of sector-filled lines. Loads allocate in L1 and L2; stores pass through L1 without
// allocating and allocate in L2, write-back. Pure and headless: the input is a plain
// request stream (built from a trace, or by hand in tests) and the output plain counts.
// Every count it produces is *modelled*, never traced or measured.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tilescope {

struct CacheParams {
    uint64_t l1_bytes = 256 * 1024;       // per compute unit; 0: no L1
    uint64_t l2_bytes = 50ull << 20;      // shared
    uint32_t line_bytes = 128;            // a multiple of sector_bytes
    uint32_t sector_bytes = 32;           // fill granule; a multiple of the stream's sector
    uint32_t ways = 16;                   // associativity of both levels
    // The L1's own associativity where it differs from the L2's (0: `ways`, every profile).
    // NVIDIA publishes neither. An experiment of cache_replay (`l1ways=`, issue 31's cache12,
    // docs/caches.md): with fewer ways an over-full working set is lost set by set.
    uint32_t l1_ways = 0;
    // The L1's replacement by re-reference interval prediction (RRIP, cache12's experiment,
    // `l1rrip=` and `l1long=` in cache_replay): 0 bits, LRU (every profile); B bits, a hit sets a
    // line's value to 0, a fill to 2^B - 2 for a share l1_rrip_long of fills (1: SRRIP) and
    // 2^B - 1 for the rest (bimodal), and the victim is a line at 2^B - 1, all lines of the set
    // aged until one is. Keeps part of a cycle larger than the cache, as the GPU's L1 does.
    uint32_t l1_rrip_bits = 0;
    double l1_rrip_long = 1;
    uint32_t l1_ways_or_ways() const { return l1_ways ? l1_ways : ways; }
    uint32_t cus = 132;                   // compute units, one L1 each
    uint32_t resident = 8;                // work-groups a compute unit runs at once
    // Misses merged in flight (issue 24): a load sector that misses L1 while the L2's DRAM
    // fetch of that sector, issued less than this many rounds earlier, is still under way
    // joins that fetch (an MSHR-like table at the L2) and is not looked up in L2 again.
    // 0: no merging (issue 11's model). Without an L1 (l1_bytes 0) nothing merges: every
    // requested sector reaches L2.
    uint32_t inflight_rounds = 0;
    // Units that share one in-flight table: the units, in the order groups are dealt to them,
    // cut into merge_clusters runs of consecutive units (unit u is in cluster
    // u * merge_clusters / cus): groups dealt one after another sit side by side and share
    // one table. 1: one table for the whole GPU; cus: a table per unit (no sharing). 1 is the L2
    // Request Coalescer's scope (a table per L2 slice, slices chosen by address, joins the same
    // misses); cache11 found no window at which it fits the fit set (docs/caches.md).
    uint32_t merge_clusters = 1;
    // Time (issue 31): the rounds between two requests of one group are 1 + drift * u, with
    // u in [-1, 1) fixed per group (a hash of its number). 0: lockstep, every group one
    // request a round. Above 0, groups drift apart in proportion to the requests they have
    // made, so a long kernel's groups stop finding each other's misses in flight, and
    // co-resident groups stop sharing L1 lines at the same moment. The merging window
    // (inflight_rounds) is then a time: misses issued less than that many rounds apart merge.
    double drift = 0;
    // Age priority (issue 31): a group with r older groups resident on its unit issues
    // 1 + age_pace * r times slower (on top of drift). 0: every resident group at its own pace.
    double age_pace = 0;
    // A load request whose sectors all hit L1 keeps its group this many rounds (times its pace)
    // before the next request, where any other request keeps it one (issue 31, cache6: a miss waits
    // for its data, a hit does not). 1: every request one round. An experiment of cache_replay
    // (`l1hit=`), in no profile: with line sampling, a request none of whose lines is sampled
    // counts as a miss.
    double l1_hit_rounds = 1;
    // A load request any of whose sectors L2 had to read from DRAM (not merged with a fetch in
    // flight) keeps its group this many rounds (times its pace) before the next request
    // (issue 31, cache7: the group that leads waits for DRAM; the groups that follow it find
    // the data in L2 or in flight and catch up, so groups sharing data stay in a convoy). 1:
    // every request one round (the order of earlier rounds). An experiment of cache_replay
    // (`dram=`); see docs/caches.md for whether a profile uses it.
    double dram_rounds = 1;
    // L1 replacement (issue 31, cache9): the share of L1 fills into a full set whose victim is a
    // way picked by a hash (of the cache's own fill count, so a replay is deterministic) instead of
    // the least recently used one. 0: LRU (every profile); 1: random replacement. An LRU cache
    // keeps all of a cyclic working set a little smaller than itself and none of one a little
    // larger; with a share of random victims it loses such a set gradually. An experiment of
    // cache_replay (`l1rand=`); see docs/caches.md for whether a profile uses it. The L2 stays LRU.
    double l1_random = 0;
    // Set index of both levels: false, line number mod sets; true, the line number's higher
    // bits XOR-folded onto its low ones first (an assumption: GPUs hash their set index,
    // NVIDIA does not say how; without it a column walk with a power-of-two stride falls
    // into a few L1 sets and evicts itself).
    bool hashed_sets = false;
    // Line sampling (issue 31, item 2: DRAM past the L2 at sizes too large to replay whole):
    // above 1, only lines whose hash falls in one of `line_sample` classes are looked up, in
    // caches of 1/line_sample the sets (each sampled set sees the traffic a whole cache's set
    // would); the caller scales the sector counts by line_sample. 1: every line (exact).
    uint32_t line_sample = 1;
    // The L2 as two halves (issue 31, cache8; the A100/H100 whitepapers' two L2 partitions): 2,
    // each half l2_bytes / 2 with its own sets; a line's home half is fixed by its address (a hash
    // bit), and each unit is wired to one half (the first cus / 2 units by number to half 0, the
    // rest to half 1). A load that misses L1 looks in the unit's near half; for a line whose home
    // is the far half, the near half holds copies: a copy hit is an L2 hit, else the far (home)
    // half is looked up (and reads DRAM on a miss) and the near half keeps a copy. Copies take at
    // most l2_copy_ways ways of a near set (a copy beyond them replaces the set's least recently
    // used copy), so homes keep the rest; 0: no copies (a far line is read from its home each
    // time), the ways or more: no limit. Stores go to the home half and drop the sector from a
    // copy. L2 sectors requested and L1 figures do not depend on it: only L2 hits and DRAM reads.
    // 1: one L2 of the whole size (every rung's limiting cases exact either way).
    uint32_t l2_halves = 1;
    uint32_t l2_copy_ways = 16;
    // When not empty: the cluster of each unit, in the order the scheduler deals to them
    // (overrides merge_clusters' runs).
    std::vector<uint32_t> cluster_of;
    // When not empty: the unit each work-group ran on (a recorded placement); a freed slot
    // then takes its unit's next group.
    std::vector<uint32_t> unit_of_group;
    // When not empty: the units in the order the first groups are dealt to them, one entry a
    // group (a unit already holding `resident` groups is passed over); units it leaves out then
    // take the groups left, in turn. Empty: one to each unit in turn (round-robin).
    std::vector<uint32_t> deal_order;
    bool operator==(const CacheParams&) const = default;
};

// Traced global requests in each work-group's issue order. Sector numbers are in one
// flat address space (buffers laid out one after another), in units of sector_bytes.
struct CacheRequestStream {
    struct Request {
        uint32_t sector_begin = 0, sector_count = 0;  // into `sectors`, sorted ascending
        int32_t line = 0;                             // source line
        uint16_t buffer = 0;                          // index into `buffers`
        bool load = false, store = false;             // an atomic is both: modelled as a store
    };
    struct Group {
        uint32_t request_begin = 0, request_count = 0;  // into `requests`
    };
    uint32_t sector_bytes = 32;
    std::vector<std::string> buffers;  // names
    std::vector<uint64_t> buffer_first_sector;  // where each buffer starts (when known; for maps back to elements)
    std::vector<Group> groups;         // in linear work-group order (dimension 0 fastest)
    std::vector<Request> requests;
    std::vector<uint64_t> sectors;

    // Appends a work-group; then add its requests in issue order.
    void begin_group();
    void add(std::initializer_list<uint64_t> request_sectors, bool store, uint16_t buffer = 0, int32_t line = 0);
    void add(const uint64_t* begin, const uint64_t* end, bool store, uint16_t buffer, int32_t line);
    uint64_t bytes() const;  // memory it holds
};

struct CacheCounts {
    uint64_t l1_requests = 0;      // load requests reaching L1
    uint64_t l1_sectors = 0;       // load sectors requested from L1
    uint64_t l1_hit_sectors = 0;
    uint64_t l2_sectors = 0;       // sectors requested from L2: L1 load misses plus stores
    uint64_t l2_load_sectors = 0;  // of which loads (L1 load misses)
    uint64_t l2_hit_sectors = 0;
    uint64_t l2_merged_sectors = 0; // L1 load misses merged with a DRAM fetch in flight (not in l2_sectors)
    uint64_t dram_read_bytes = 0;
    uint64_t dram_write_bytes = 0; // dirty sectors evicted from L2 plus those left at the end

    CacheCounts& operator+=(const CacheCounts& o);
    bool operator==(const CacheCounts&) const = default;
    double l1_hit_rate() const { return l1_sectors ? double(l1_hit_sectors) / double(l1_sectors) : 0.0; }
    double l2_hit_rate() const { return l2_sectors ? double(l2_hit_sectors) / double(l2_sectors) : 0.0; }
};

// What no order of the same requests can beat (model sectors, loads only).
struct CacheBounds {
    uint64_t distinct_sectors = 0;        // of the whole launch: a perfect L2 still reads these from DRAM
    uint64_t group_distinct_sectors = 0;  // summed over work-groups: what perfect, unshared L1s read from L2
    bool operator==(const CacheBounds&) const = default;
};

struct CacheReport {
    std::string profile;  // the profile named, with "+ overrides" when any
    CacheParams params;
    CacheCounts totals;
    CacheBounds bounds;
    std::vector<std::pair<std::string, CacheCounts>> buffers;  // stream's buffer order, touched ones
    std::vector<std::pair<int32_t, CacheCounts>> lines;        // sorted by source line
    std::vector<std::pair<uint64_t, uint32_t>> dram_reads;     // (model sector, times read from DRAM), sorted
    bool operator==(const CacheReport&) const = default;  // a Trace compares equal field by field (saved traces)
};

// Throws InputError when the parameters cannot describe a cache (the message names the
// option: --l1, --l2, --line, --ways, --cus, --resident, --sector).
void check_cache_params(const CacheParams& params, uint32_t stream_sector_bytes);

// Replays `stream` through the caches described by `params`.
//
// Order: work-groups in linear order are dealt to `cus` compute units, round-robin,
// `resident` per unit; slots whose group issued its last request take the next groups
// after it, dealt the same way, and issue one round later. Each group issues its requests
// `1 + drift * u(g)` rounds apart (drift 0: a lockstep GPU, where each round every unit, in
// order, issues the next request of each of its resident groups in slot order); requests
// due at the same time go in unit and slot order. Within a request, sectors are looked up
// in ascending order. An L2 load request issued at time t is in flight until
// t + inflight_rounds: L1 misses on its sector from a unit of the same cluster meanwhile are merged.
CacheReport run_cache_model(const CacheRequestStream& stream, const CacheParams& params, const std::string& profile);

CacheBounds cache_bounds(const CacheRequestStream& stream, uint32_t model_sector_bytes);

// Rounds between two requests of work-group `group` (its number in linear launch order):
// 1 + drift * u, u in [-1, 1) a hash of the number, the same for a recorded and a made launch.
double group_pace(const CacheParams& params, uint64_t group);

// The L2 half that is the home of line number `line` (l2_halves 2): a bit of a multiplicative
// hash of the number, independent of the set index and of the line sample. 0 with one L2.
uint32_t l2_home_half(const CacheParams& params, uint64_t line);

// The L2 half compute unit `cu` is wired to: the first cus / 2 units by number to half 0.
uint32_t l2_near_half(const CacheParams& params, uint32_t cu);

}  // namespace tilescope
