#include "core/caches/cache_model.h"
#include "core/caches/translated_groups.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <limits>
#include <queue>
#include <tuple>
#include <unordered_map>

#include "core/base/errors.h"

namespace tilescope {
namespace {

std::string kb_text(uint64_t bytes) {
    return bytes % 1024 == 0 ? std::to_string(bytes / 1024) + " KB" : std::to_string(bytes) + " bytes";
}

// One level: `sets` x `ways` lines, each with a valid and a dirty bit per sector, LRU
// by last-use stamp. A set's lines are allocated on its first use, so idle compute units
// and the untouched part of a large cache (a CPU's last level) cost nothing.
class SectorCache {
public:
    struct Way {
        uint64_t line = kEmpty;
        uint64_t valid = 0, dirty = 0;  // one bit per sector of the line
        uint64_t stamp = 0;             // last use (LRU); the re-reference prediction value (RRIP)
        bool copy = false;              // a near half's copy of a line whose home is the far half (l2_halves 2)
        bool fresh = false;             // RRIP: filled and not yet touched (its fill sets its value)
    };
    static constexpr uint64_t kEmpty = std::numeric_limits<uint64_t>::max();

    SectorCache() = default;
    // random_share (CacheParams::l1_random): the share of fills into a full set that evict a way
    // picked by a hash instead of the least recently used one.
    // rrip_bits (CacheParams::l1_rrip_bits, cache12): 0, LRU; B, re-reference interval prediction
    // with B-bit values (a hit sets 0; the victim is a way at the largest value, all ways aged
    // until one is; a fill takes the largest value less one for a share `rrip_long` of fills,
    // the largest for the rest: 1 is SRRIP, a small share bimodal RRIP).
    SectorCache(uint64_t bytes, uint32_t line_bytes, uint32_t ways, bool hashed, double random_share = 0,
                uint32_t rrip_bits = 0, double rrip_long = 1)
        : sets_(bytes / (uint64_t(line_bytes) * ways)), ways_(ways), hashed_(hashed),
          fold_bits_(sets_ > 1 ? unsigned(std::bit_width(sets_ - 1)) : 0),
          random_below_(random_share >= 1 ? std::numeric_limits<uint64_t>::max()
                                          : uint64_t(random_share * 0x1p64)),
          rrip_max_(rrip_bits ? (uint64_t(1) << rrip_bits) - 1 : 0),
          long_below_(rrip_long >= 1 ? std::numeric_limits<uint64_t>::max() : uint64_t(rrip_long * 0x1p64)) {}

    bool enabled() const { return sets_ > 0; }

    Way* find(uint64_t line) {
        Way* set = existing_set(line);
        if (!set) return nullptr;
        for (uint32_t w = 0; w < ways_; ++w)
            if (set[w].line == line) return &set[w];
        return nullptr;
    }

    // A line for `line`, taking the least recently used way of its set. A copy (l2_halves 2) in a
    // set already holding `copy_ways` copies takes the least recently used copy's way instead.
    Way& allocate(uint64_t line, bool copy = false, uint32_t copy_ways = ~0u) {
        Way* set = existing_set(line);
        if (!set) {
            const uint64_t index = set_of(line);
            if (first_way_.empty()) first_way_.assign(sets_, kNoSet);
            first_way_[index] = static_cast<uint32_t>(pool_.size());
            pool_.resize(pool_.size() + ways_);
            set = &pool_[first_way_[index]];
        }
        Way* victim = nullptr;
        if (copy && copy_ways < ways_) {
            uint32_t copies = 0;
            for (uint32_t w = 0; w < ways_; ++w)
                if (set[w].line != kEmpty && set[w].copy) {
                    ++copies;
                    if (!victim || set[w].stamp < victim->stamp) victim = &set[w];
                }
            if (copies < copy_ways) victim = nullptr;
        }
        if (!victim && rrip_max_) return rrip_fill(set, line, copy);
        if (!victim) {
            victim = &set[0];
            bool full = true;
            for (uint32_t w = 0; w < ways_; ++w) {
                if (set[w].line == kEmpty) {
                    victim = &set[w];
                    full = false;
                    break;
                }
                if (set[w].stamp < victim->stamp) victim = &set[w];
            }
            if (full && random_below_) {
                const uint64_t h = mix(++fills_);
                if (h < random_below_) victim = &set[mix(h) % ways_];
            }
        }
        *victim = Way{line, 0, 0, 0, copy};
        return *victim;
    }

    void touch(Way& way) {
        if (!rrip_max_) way.stamp = ++clock_;
        else if (way.fresh) way.fresh = false;
        else way.stamp = 0;
    }

private:
    static constexpr uint32_t kNoSet = std::numeric_limits<uint32_t>::max();
    Way& rrip_fill(Way* set, uint64_t line, bool copy) {
        Way* victim = nullptr;
        for (uint32_t w = 0; w < ways_ && !victim; ++w)
            if (set[w].line == kEmpty) victim = &set[w];
        while (!victim) {
            uint64_t oldest = 0;
            for (uint32_t w = 0; w < ways_; ++w) oldest = std::max(oldest, set[w].stamp);
            for (uint32_t w = 0; w < ways_; ++w) {
                set[w].stamp += rrip_max_ - oldest;
                if (!victim && set[w].stamp == rrip_max_) victim = &set[w];
            }
        }
        const bool longer = mix(++fills_) < long_below_;
        *victim = Way{line, 0, 0, longer ? rrip_max_ - 1 : rrip_max_, copy, true};
        return *victim;
    }
    // splitmix64's finaliser: the random victims' draws, a fixed function of the fill count.
    static uint64_t mix(uint64_t x) {
        x += 0x9e3779b97f4a7c15ull;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
        return x ^ (x >> 31);
    }
    Way* existing_set(uint64_t line) {
        if (first_way_.empty()) return nullptr;
        const uint32_t first = first_way_[set_of(line)];
        return first == kNoSet ? nullptr : &pool_[first];
    }

    // The set of a line: its number mod sets, or (hashed) the number with its higher bits
    // XOR-folded onto its low ones first, in chunks as wide as a set index, so lines a
    // power-of-two stride apart spread over the sets (issue 24: the model's assumption;
    // NVIDIA does not publish its hash).
    uint64_t set_of(uint64_t line) const {
        if (!hashed_ || fold_bits_ == 0) return line % sets_;
        uint64_t h = 0;
        for (uint64_t x = line; x; x >>= fold_bits_) h ^= x;
        return h % sets_;
    }

    uint64_t sets_ = 0;
    uint32_t ways_ = 1;
    bool hashed_ = false;
    unsigned fold_bits_ = 0;
    uint64_t clock_ = 0;
    uint64_t random_below_ = 0;  // a fill's draw below this evicts a hashed way (0: LRU only)
    uint64_t fills_ = 0;         // fills into a full set while random_below_ > 0
    uint64_t rrip_max_ = 0;      // RRIP's largest value (0: LRU)
    uint64_t long_below_ = 0;    // RRIP: a fill's draw below this inserts one step nearer
    std::vector<uint32_t> first_way_;  // per set: its first way in pool_, or kNoSet
    std::vector<Way> pool_;
};

// The misses in flight (issue 31, item 3: this table was most of a sampled replay's cost as an
// unordered_map): keys (sector and cluster) with the time of their L2 request, open addressing
// with linear probing, never erased one by one but cleared whole.
class InFlightTable {
public:
    // The time recorded for `key`, or nullptr.
    const double* find(uint64_t key) const {
        if (used_ == 0) return nullptr;
        for (size_t i = slot(key);; i = (i + 1) & mask_) {
            if (keys_[i] == key) return &times_[i];
            if (keys_[i] == kFree) return nullptr;
        }
    }
    void put(uint64_t key, double at) {
        if (2 * (used_ + 1) > keys_.size()) grow();
        size_t i = slot(key);
        while (keys_[i] != kFree && keys_[i] != key) i = (i + 1) & mask_;
        used_ += keys_[i] == kFree;
        keys_[i] = key;
        times_[i] = at;
    }
    void clear() {
        if (used_ == 0) return;
        std::fill(keys_.begin(), keys_.end(), kFree);
        used_ = 0;
    }

private:
    static constexpr uint64_t kFree = std::numeric_limits<uint64_t>::max();
    size_t slot(uint64_t key) const { return size_t((key * 0x9E3779B97F4A7C15ull) >> 20) & mask_; }
    void grow() {
        std::vector<uint64_t> keys = std::move(keys_);
        std::vector<double> times = std::move(times_);
        const size_t size = std::max<size_t>(1024, 2 * keys.size());
        keys_.assign(size, kFree);
        times_.assign(size, 0.0);
        mask_ = size - 1;
        used_ = 0;
        for (size_t i = 0; i < keys.size(); ++i)
            if (keys[i] != kFree) put(keys[i], times[i]);
    }
    std::vector<uint64_t> keys_;
    std::vector<double> times_;
    size_t mask_ = 0, used_ = 0;
};

// The model's sectors of one request: the stream's, coarsened to the model's sector size.
void model_sectors(const CacheRequestStream& stream, const CacheRequestStream::Request& r, unsigned shift,
                   std::vector<uint64_t>& out) {
    out.clear();
    for (uint32_t i = 0; i < r.sector_count; ++i) {
        const uint64_t s = stream.sectors[r.sector_begin + i] >> shift;
        if (out.empty() || out.back() != s) out.push_back(s);
    }
}

unsigned coarsening_shift(uint32_t stream_sector_bytes, uint32_t model_sector_bytes) {
    return static_cast<unsigned>(std::countr_zero(model_sector_bytes) - std::countr_zero(stream_sector_bytes));
}

// The replay's view of a recorded stream: group g's request j.
class RecordedGroups {
public:
    explicit RecordedGroups(const CacheRequestStream& s) : s_(s) {}
    const CacheRequestStream& base() const { return s_; }
    uint64_t group_count() const { return s_.groups.size(); }
    uint32_t request_count(uint64_t g) const { return s_.groups[g].request_count; }
    const CacheRequestStream::Request& request(uint64_t g, uint32_t j, unsigned shift, std::vector<uint64_t>& out) const {
        const auto& r = s_.requests[s_.groups[g].request_begin + j];
        model_sectors(s_, r, shift, out);
        return r;
    }

private:
    const CacheRequestStream& s_;
};

// The replay's view of groups made from one traced group by translation.
class MovedGroups {
public:
    explicit MovedGroups(const TranslatedGroups& t) : t_(t) {}
    const CacheRequestStream& base() const { return t_.base; }
    uint64_t group_count() const { return t_.grid[0] * t_.grid[1] * t_.grid[2]; }
    uint32_t request_count(uint64_t) const { return t_.base.groups.empty() ? 0 : t_.base.groups[0].request_count; }
    const CacheRequestStream::Request& request(uint64_t g, uint32_t j, unsigned shift, std::vector<uint64_t>& out) const {
        const int64_t x = int64_t(g % t_.grid[0]), y = int64_t(g / t_.grid[0] % t_.grid[1]),
                      z = int64_t(g / (t_.grid[0] * t_.grid[1]));
        const auto& r = t_.base.requests[j];
        out.clear();
        for (uint32_t i = 0; i < r.sector_count; ++i) {
            const size_t k = r.sector_begin + i;
            const int64_t moved =
                int64_t(t_.base.sectors[k]) + x * t_.step[0][k] + y * t_.step[1][k] + z * t_.step[2][k];
            out.push_back(uint64_t(std::max<int64_t>(0, moved)) >> shift);
        }
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
        return r;
    }

private:
    const TranslatedGroups& t_;
};

template <class Groups>
class Replay {
public:
    Replay(const Groups& groups, const CacheParams& p, uint64_t first_groups)
        : groups_(groups), p_(p), shift_(coarsening_shift(groups.base().sector_bytes, p.sector_bytes)),
          sectors_per_line_(p.line_bytes / p.sector_bytes),
          l2_(std::max(1u, p.l2_halves),
              SectorCache(p.l2_bytes / std::max(1u, p.l2_halves) / std::max(1u, p.line_sample), p.line_bytes, p.ways,
                          p.hashed_sets)),
          group_end_(std::min(first_groups, groups.group_count())) {
        const CacheRequestStream& base = groups.base();
        l1_.assign(p.cus, SectorCache(p.l1_bytes / std::max(1u, p.line_sample), p.line_bytes, p.l1_ways_or_ways(), p.hashed_sets,
                                      p.l1_random, p.l1_rrip_bits, p.l1_rrip_long));
        by_buffer_.resize(base.buffers.size());
        for (const auto& r : base.requests) line_index_.emplace(r.line, 0);
        std::vector<int32_t> lines;
        for (const auto& [line, index] : line_index_) lines.push_back(line);
        std::sort(lines.begin(), lines.end());
        for (size_t i = 0; i < lines.size(); ++i) line_index_[lines[i]] = i;
        by_line_.resize(lines.size());
        for (size_t i = 0; i < lines.size(); ++i) by_line_[i].first = lines[i];
    }

    uint64_t groups_replayed() const { return next_group_; }

    void run(const std::function<bool(uint64_t, uint64_t)>& progress) {
        struct Slot {
            uint64_t group = 0;
            uint32_t next = 0, end = 0;
            bool busy = false;
            double at = 0, pace = 1;  // when it issues next; time between its requests
            uint64_t age = 0;         // order the unit took it in (smaller: older)
        };
        const size_t slots_per_cu = p_.resident;
        std::vector<Slot> slots(size_t(p_.cus) * slots_per_cu);
        // Slots by when they issue next, then unit, then slot: with no drift every request is
        // a whole number of rounds, and one round's requests come out in the lockstep order.
        using Entry = std::tuple<double, uint32_t, uint32_t>;  // (at, unit, slot)
        std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
        // A recorded placement (unit_of_group): each unit takes the groups the hardware gave it, in order.
        std::vector<std::vector<uint64_t>> placed;
        std::vector<size_t> placed_next;
        if (!p_.unit_of_group.empty()) {
            placed.resize(p_.cus);
            placed_next.assign(p_.cus, 0);
            for (uint64_t g = 0; g < group_end_; ++g)
                placed[g < p_.unit_of_group.size() ? p_.unit_of_group[g] % p_.cus : g % p_.cus].push_back(g);
        }
        // A unit's merge cluster: a run of units in the order groups are dealt to them (a
        // unit's first place in deal_order when one is given, else its number), unless
        // cluster_of names it.
        cluster_of_unit_.assign(p_.cus, 0);
        {
            std::vector<uint32_t> dealt;  // units by their first place in the deal
            std::vector<bool> seen(p_.cus, false);
            for (uint32_t cu : p_.deal_order)
                if (cu < p_.cus && !seen[cu]) seen[cu] = true, dealt.push_back(cu);
            for (uint32_t cu = 0; cu < p_.cus; ++cu)
                if (!seen[cu]) dealt.push_back(cu);
            for (size_t i = 0; i < dealt.size(); ++i)
                cluster_of_unit_[dealt[i]] = p_.cluster_of.empty() ? uint32_t(uint64_t(i) * p_.merge_clusters / p_.cus)
                                                                   : p_.cluster_of[dealt[i] % p_.cluster_of.size()];
        }
        uint64_t taken = 0;
        auto take_next = [&](Slot& slot, double at, size_t cu) {
            slot.busy = false;
            if (!placed.empty()) {
                while (placed_next[cu] < placed[cu].size()) {
                    const uint64_t g = placed[cu][placed_next[cu]++];
                    ++next_group_;
                    const uint32_t count = groups_.request_count(g);
                    if (count == 0) continue;
                    slot = {g, 0, count, true, at, pace(g), ++taken};
                    return;
                }
                return;
            }
            while (next_group_ < group_end_) {
                const uint64_t g = next_group_++;
                const uint32_t count = groups_.request_count(g);
                if (count == 0) continue;  // a group with no global request ends at once
                slot = {g, 0, count, true, at, pace(g), ++taken};
                if (progress && next_group_ % 256 == 0 && !progress(next_group_, group_end_)) group_end_ = next_group_;
                return;
            }
        };
        if (!p_.deal_order.empty() && placed.empty()) {
            // Dealt in the order the hardware was seen to deal its first wave (deal_order: units,
            // one entry a group); a unit already holding `resident` groups is passed over, as
            // are units the order leaves out, which then take the groups left in turn.
            std::vector<uint32_t> held(p_.cus, 0);
            auto deal_to = [&](size_t cu) {
                if (held[cu] >= slots_per_cu) return;
                const size_t s = held[cu]++;
                Slot& slot = slots[cu * slots_per_cu + s];
                take_next(slot, 1.0, cu);
                if (slot.busy) queue.emplace(slot.at, uint32_t(cu), uint32_t(s));
            };
            for (uint32_t cu : p_.deal_order)
                if (cu < p_.cus) deal_to(cu);
            for (size_t s = 0; s < slots_per_cu; ++s)
                for (size_t cu = 0; cu < p_.cus; ++cu) deal_to(cu);
        } else {
            // Dealt like cards: one group to each unit in turn, `resident` times over.
            for (size_t s = 0; s < slots_per_cu; ++s)
                for (size_t cu = 0; cu < p_.cus; ++cu) {
                    Slot& slot = slots[cu * slots_per_cu + s];
                    take_next(slot, 1.0, cu);
                    if (slot.busy) queue.emplace(slot.at, uint32_t(cu), uint32_t(s));
                }
        }
        // The requests issued at one time (with no drift: one round) go in unit and slot
        // order; slots freed then take the next groups after it, dealt the same way: slot by
        // slot, one to each unit in turn (a unit freeing all its slots at once does not take a
        // run of consecutive groups, which would share rows of A as no GPU does). A new group
        // issues its first request one round after the last of the group it follows.
        std::vector<std::pair<size_t, size_t>> freed;  // (slot, unit)
        while (!queue.empty()) {
            now_ = std::get<0>(queue.top());
            forget_landed();
            freed.clear();
            while (!queue.empty() && std::get<0>(queue.top()) == now_) {
                const auto [at, cu, s] = queue.top();
                queue.pop();
                Slot& slot = slots[size_t(cu) * slots_per_cu + s];
                cluster_ = cluster_of_unit_[cu];
                near_ = l2_near_half(p_, cu);
                const double wait = issue(groups_.request(slot.group, slot.next++, shift_, scratch_), l1_[cu]);
                if (slot.next == slot.end) {
                    freed.emplace_back(s, cu);
                } else {
                    slot.at += slot.pace * age_factor(slots, size_t(cu) * slots_per_cu, slots_per_cu, slot.age) * wait;
                    queue.emplace(slot.at, cu, s);
                }
            }
            std::sort(freed.begin(), freed.end());
            for (const auto& [s, cu] : freed) {
                Slot& slot = slots[cu * slots_per_cu + s];
                take_next(slot, now_ + 1.0, cu);
                if (slot.busy) queue.emplace(slot.at, uint32_t(cu), uint32_t(s));
            }
        }
    }

    CacheReport report(const std::string& profile) const {
        CacheReport out;
        out.profile = profile;
        out.params = p_;
        out.totals = totals_;
        for (size_t b = 0; b < by_buffer_.size(); ++b)
            if (!(by_buffer_[b] == CacheCounts{})) out.buffers.emplace_back(groups_.base().buffers[b], by_buffer_[b]);
        out.lines = by_line_;
        out.dram_reads.assign(dram_reads_.begin(), dram_reads_.end());
        std::sort(out.dram_reads.begin(), out.dram_reads.end());
        return out;
    }

private:
    // Age priority (issue 31): a unit's warp schedulers favour its oldest groups, so a group
    // with `rank` older groups beside it on its unit waits 1 + age_pace * rank times as long
    // between requests; when an older group ends, the younger ones speed up.
    template <class Slots>
    double age_factor(const Slots& slots, size_t first, size_t count, uint64_t age) const {
        if (p_.age_pace == 0) return 1.0;
        uint32_t rank = 0;
        for (size_t i = first; i < first + count; ++i) rank += slots[i].busy && slots[i].age < age;
        return 1.0 + p_.age_pace * rank;
    }

    // Whether a line is in the sample (line_sample): a multiplicative hash's top bits, independent
    // of the set index (its low bits, XOR-folded).
    bool sampled(uint64_t line) const {
        return p_.line_sample <= 1 || ((line * 0x9E3779B97F4A7C15ull) >> 40) % p_.line_sample == 0;
    }

    // A group keeps its pace, so two groups drift apart in proportion to the requests they
    // have made.
    double pace(uint64_t g) const { return group_pace(p_, g); }

    // Returns the rounds the request keeps its group (before pace and age): l1_hit_rounds for a
    // load whose (sampled) sectors all hit L1, dram_rounds for a load L2 had to read from DRAM
    // for, else 1.
    double issue(const CacheRequestStream::Request& r, SectorCache& l1) {
        CacheCounts c;
        if (r.store) store(c);
        else load(c, l1);
        totals_ += c;
        if (r.buffer < by_buffer_.size()) by_buffer_[r.buffer] += c;
        by_line_[line_index_.at(r.line)].second += c;
        if (r.store) return 1.0;
        if (c.l1_sectors > 0 && c.l1_hit_sectors == c.l1_sectors) return p_.l1_hit_rounds;
        return c.dram_read_bytes > 0 ? p_.dram_rounds : 1.0;
    }
    void load(CacheCounts& c, SectorCache& l1) {
        ++c.l1_requests;
        for (uint64_t sector : scratch_) {
            const uint64_t line = sector / sectors_per_line_, bit = uint64_t(1) << (sector % sectors_per_line_);
            if (!sampled(line)) continue;
            ++c.l1_sectors;
            SectorCache::Way* w1 = l1.enabled() ? l1.find(line) : nullptr;
            if (w1 && (w1->valid & bit)) {
                ++c.l1_hit_sectors;
                l1.touch(*w1);
                continue;
            }
            // Merging joins an L1 miss to one in flight: with no L1 there are no misses to
            // merge, and every requested sector reaches L2 (issue 31, item 5).
            const bool merging = p_.inflight_rounds && l1.enabled();
            const uint64_t key = sector << 17 | cluster_;  // clusters <= cus <= 100000 < 2^17
            const bool merged = merging && in_flight(key);
            if (!merged && merging) fetched_.put(key, now_);
            if (merged) {
                ++c.l2_merged_sectors;
            } else {
                ++c.l2_sectors;
                ++c.l2_load_sectors;
            }
            if (l2_load(line, bit)) {
                if (!merged) ++c.l2_hit_sectors;
            } else {
                c.dram_read_bytes += p_.sector_bytes;
                ++dram_reads_[sector];
            }
            if (l1.enabled()) {
                if (!w1) w1 = &l1.allocate(line);
                w1->valid |= bit;
                l1.touch(*w1);
            }
        }
    }

    // Drops the fetches that have landed (issued inflight_rounds or more rounds ago), every
    // inflight_rounds rounds: the table then holds what is in flight, not every sector ever
    // fetched (4.5 GB at 4096^3 otherwise). in_flight() answers the same either way.
    // Two tables: `fetched_` since the last sweep, `fetched_before_` the sweep before. Every
    // fetch still in flight was issued after the sweep before the last (the sweeps are at least
    // inflight_rounds apart), so dropping the older table loses none.
    void forget_landed() {
        if (!p_.inflight_rounds || now_ - last_sweep_ < p_.inflight_rounds) return;
        last_sweep_ = now_;
        std::swap(fetched_, fetched_before_);
        fetched_.clear();
    }

    // Whether this cluster's L2 request for the sector (key: sector and cluster) is still
    // under way (issued within inflight_rounds). The newer table holds a key's latest request.
    bool in_flight(uint64_t key) const {
        if (!p_.inflight_rounds) return false;
        const double* at = fetched_.find(key);
        if (!at) at = fetched_before_.find(key);
        return at && now_ - *at < p_.inflight_rounds;
    }

    // Write-through L1 without allocation (a copy L1 holds is left as it is), write-back
    // L2 with allocation and no fetch. A sector going from clean to dirty will be written
    // to DRAM exactly once (when evicted, or at the end), so its write is counted here,
    // against the request that dirtied it.
    void store(CacheCounts& c) {
        for (uint64_t sector : scratch_) {
            const uint64_t line = sector / sectors_per_line_, bit = uint64_t(1) << (sector % sectors_per_line_);
            if (!sampled(line)) continue;
            ++c.l2_sectors;
            SectorCache& l2 = l2_[home(line)];
            SectorCache::Way* w2 = l2.find(line);
            if (w2 && (w2->valid & bit)) ++c.l2_hit_sectors;
            if (!w2) w2 = &l2.allocate(line);
            w2->valid |= bit;
            if (!(w2->dirty & bit)) {
                w2->dirty |= bit;
                c.dram_write_bytes += p_.sector_bytes;
            }
            l2.touch(*w2);
            // The other half's copy of the sector is stale now.
            for (size_t h = 0; h < l2_.size(); ++h)
                if (h != home(line))
                    if (SectorCache::Way* copy = l2_[h].find(line)) copy->valid &= ~bit;
        }
    }

    // The L2 half a line lives in (l2_halves 2): a bit of a multiplicative hash of its number,
    // independent of the set index and of the line sample.
    size_t home(uint64_t line) const { return l2_home_half(p_, line); }

    // One load sector that missed L1, looked up in L2 by a unit wired to half near_: whether L2
    // held it (else DRAM is read). The home half allocates and fills; a far line's copy in the
    // near half is looked up first and kept after (at most l2_copy_ways ways of a set).
    bool l2_load(uint64_t line, uint64_t bit) {
        const size_t h = home(line);
        if (h != near_) {
            SectorCache& near = l2_[near_];
            SectorCache::Way* copy = near.find(line);
            if (copy && (copy->valid & bit)) {
                near.touch(*copy);
                return true;
            }
        }
        SectorCache& l2 = l2_[h];
        SectorCache::Way* w2 = l2.find(line);
        const bool hit = w2 && (w2->valid & bit);
        if (!hit) {
            if (!w2) w2 = &l2.allocate(line);
            w2->valid |= bit;
        }
        l2.touch(*w2);
        if (h != near_ && p_.l2_copy_ways > 0) {
            SectorCache& near = l2_[near_];
            SectorCache::Way* copy = near.find(line);
            if (!copy) copy = &near.allocate(line, true, p_.l2_copy_ways);
            copy->valid |= bit;
            near.touch(*copy);
        }
        return hit;
    }

    const Groups& groups_;
    CacheParams p_;
    unsigned shift_;
    uint64_t sectors_per_line_;
    std::vector<SectorCache> l2_;  // one, or two halves (l2_halves)
    size_t near_ = 0;              // the half the issuing unit is wired to
    uint64_t group_end_;
    uint64_t next_group_ = 0;
    std::vector<SectorCache> l1_;
    CacheCounts totals_;
    std::vector<CacheCounts> by_buffer_;
    std::unordered_map<int32_t, size_t> line_index_;
    std::vector<std::pair<int32_t, CacheCounts>> by_line_;
    std::vector<uint64_t> scratch_;
    std::unordered_map<uint64_t, uint32_t> dram_reads_;
    double now_ = 0;        // the time (in rounds) of the requests being issued
    uint64_t cluster_ = 0;  // of the unit issuing
    std::vector<uint32_t> cluster_of_unit_;
    InFlightTable fetched_, fetched_before_;  // sector and cluster -> when its L2 request was issued
    double last_sweep_ = 0;
};

}  // namespace

void CacheRequestStream::begin_group() {
    groups.push_back({static_cast<uint32_t>(requests.size()), 0});
}

void CacheRequestStream::add(const uint64_t* begin, const uint64_t* end, bool store, uint16_t buffer, int32_t line) {
    if (groups.empty()) begin_group();
    Request r;
    r.sector_begin = static_cast<uint32_t>(sectors.size());
    std::vector<uint64_t> sorted(begin, end);
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    sectors.insert(sectors.end(), sorted.begin(), sorted.end());
    r.sector_count = static_cast<uint32_t>(sorted.size());
    r.line = line;
    r.buffer = buffer;
    r.load = !store;
    r.store = store;
    requests.push_back(r);
    ++groups.back().request_count;
    if (buffers.size() <= buffer) buffers.resize(buffer + 1u, "buffer" + std::to_string(buffer));
}

void CacheRequestStream::add(std::initializer_list<uint64_t> request_sectors, bool store, uint16_t buffer,
                             int32_t line) {
    add(request_sectors.begin(), request_sectors.end(), store, buffer, line);
}

uint64_t CacheRequestStream::bytes() const {
    return groups.capacity() * sizeof(Group) + requests.capacity() * sizeof(Request) + sectors.capacity() * 8;
}

CacheCounts& CacheCounts::operator+=(const CacheCounts& o) {
    l1_requests += o.l1_requests;
    l1_sectors += o.l1_sectors;
    l1_hit_sectors += o.l1_hit_sectors;
    l2_sectors += o.l2_sectors;
    l2_load_sectors += o.l2_load_sectors;
    l2_hit_sectors += o.l2_hit_sectors;
    l2_merged_sectors += o.l2_merged_sectors;
    dram_read_bytes += o.dram_read_bytes;
    dram_write_bytes += o.dram_write_bytes;
    return *this;
}

void check_cache_params(const CacheParams& p, uint32_t stream_sector_bytes) {
    if (!std::has_single_bit(p.sector_bytes) || p.sector_bytes < stream_sector_bytes)
        throw InputError("--sector " + std::to_string(stream_sector_bytes) + ": the cache profile's sectors are " +
                         std::to_string(p.sector_bytes) + " bytes; accepted: a --sector that is a power of two no "
                         "larger than the profile's sector");
    if (p.line_bytes == 0 || p.line_bytes % p.sector_bytes != 0 || p.line_bytes / p.sector_bytes > 64)
        throw InputError("--line " + std::to_string(p.line_bytes) + ": accepted: a multiple of the " +
                         std::to_string(p.sector_bytes) + "-byte sector, at most 64 sectors");
    if (p.ways == 0 || p.ways > 1024) throw InputError("--ways " + std::to_string(p.ways) + ": accepted: 1 to 1024");
    if (p.l1_rrip_bits > 8) throw InputError("l1_rrip_bits " + std::to_string(p.l1_rrip_bits) + ": accepted: 0 (LRU) to 8");
    if (!(p.l1_rrip_long >= 0 && p.l1_rrip_long <= 1))
        throw InputError("l1_rrip_long " + std::to_string(p.l1_rrip_long) + ": accepted: 0 to 1 (the share of fills one step nearer)");
    if (p.l1_ways > 1024) throw InputError("l1_ways " + std::to_string(p.l1_ways) + ": accepted: 0 (as --ways) to 1024");
    if (p.cus == 0 || p.cus > 100000) throw InputError("--cus " + std::to_string(p.cus) + ": accepted: 1 to 100000");
    if (p.merge_clusters == 0 || p.merge_clusters > p.cus)
        throw InputError("--clusters " + std::to_string(p.merge_clusters) + ": accepted: 1 to the number of units");
    if (p.inflight_rounds > 1000000)
        throw InputError("--inflight " + std::to_string(p.inflight_rounds) + ": accepted: 0 (no merging) to 1000000 rounds");
    if (!(p.drift >= 0 && p.drift <= 0.9))
        throw InputError("drift " + std::to_string(p.drift) + ": accepted: 0 (lockstep) to 0.9");
    if (!(p.age_pace >= 0 && p.age_pace <= 10))
        throw InputError("age_pace " + std::to_string(p.age_pace) + ": accepted: 0 (no age priority) to 10");
    if (!(p.l1_hit_rounds > 0 && p.l1_hit_rounds <= 10))
        throw InputError("l1_hit_rounds " + std::to_string(p.l1_hit_rounds) + ": accepted: above 0 to 10 (1: a hit takes a round)");
    if (!(p.dram_rounds > 0 && p.dram_rounds <= 1000))
        throw InputError("dram_rounds " + std::to_string(p.dram_rounds) + ": accepted: above 0 to 1000 (1: a DRAM read takes a round)");
    if (!(p.l1_random >= 0 && p.l1_random <= 1))
        throw InputError("l1_random " + std::to_string(p.l1_random) + ": accepted: 0 (LRU) to 1 (random replacement)");
    if (p.l2_halves != 1 && p.l2_halves != 2)
        throw InputError("l2_halves " + std::to_string(p.l2_halves) + ": accepted: 1 (one L2) or 2 (two halves)");
    if (p.l2_copy_ways > 1024)
        throw InputError("l2_copy_ways " + std::to_string(p.l2_copy_ways) +
                         ": accepted: 0 (no copies) to 1024 (as many as the ways: no limit)");
    if (p.resident == 0 || p.resident > 1024)
        throw InputError("--resident " + std::to_string(p.resident) + ": accepted: 1 to 1024");
    const uint64_t smallest = uint64_t(p.line_bytes) * p.ways;
    const uint32_t l1_ways = p.l1_ways_or_ways();
    const uint64_t smallest_l1 = uint64_t(p.line_bytes) * l1_ways;
    if (p.l1_bytes != 0 && (p.l1_bytes < smallest_l1 || p.l1_bytes > (1ull << 30)))
        throw InputError("--l1 " + kb_text(p.l1_bytes) + ": accepted: 0 (no L1) or " + kb_text(smallest_l1) +
                         " (one set of " + std::to_string(l1_ways) + " lines of " + std::to_string(p.line_bytes) +
                         " bytes) to 1048576 KB");
    if (p.l2_bytes < smallest || p.l2_bytes > (1ull << 30))
        throw InputError("--l2 " + kb_text(p.l2_bytes) + ": accepted: " + kb_text(smallest) + " (one set of " +
                         std::to_string(p.ways) + " lines of " + std::to_string(p.line_bytes) +
                         " bytes) to 1048576 KB");
    // Two halves: each needs a set of its own (issue 31, cache8).
    if (p.l2_halves == 2 && p.l2_bytes < 2 * smallest)
        throw InputError("--l2 " + kb_text(p.l2_bytes) + ": the profile's L2 is two halves; accepted: " +
                         kb_text(2 * smallest) + " (a set of " + std::to_string(p.ways) + " lines of " +
                         std::to_string(p.line_bytes) + " bytes in each half) to 1048576 KB");
    if (uint64_t(p.cus) * (p.l1_bytes / p.line_bytes) > (1ull << 28))
        throw InputError("--cus " + std::to_string(p.cus) + ": with --l1 " + kb_text(p.l1_bytes) +
                         " the L1s would hold more than 2^28 lines; accepted: fewer compute units or a smaller L1");
}

CacheReport run_cache_model(const CacheRequestStream& stream, const CacheParams& params, const std::string& profile) {
    check_cache_params(params, stream.sector_bytes);
    RecordedGroups groups(stream);
    Replay<RecordedGroups> replay(groups, params, groups.group_count());
    replay.run({});
    CacheReport report = replay.report(profile);
    report.bounds = cache_bounds(stream, params.sector_bytes);
    return report;
}

double group_pace(const CacheParams& p, uint64_t g) {
    if (p.drift == 0) return 1.0;
    uint64_t z = g + 0x9E3779B97F4A7C15ull;  // splitmix64's finaliser: a fixed, well-spread hash
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    const double u = double(z >> 11) * 0x1.0p-53 * 2.0 - 1.0;
    return 1.0 + p.drift * u;
}

uint32_t l2_home_half(const CacheParams& p, uint64_t line) {
    if (p.l2_halves <= 1) return 0;
    return uint32_t(((line * 0xD6E8FEB86659FD93ull) >> 32) % p.l2_halves);
}

uint32_t l2_near_half(const CacheParams& p, uint32_t cu) {
    if (p.l2_halves <= 1 || p.cus == 0) return 0;
    return uint32_t(uint64_t(cu) * p.l2_halves / p.cus);
}

CacheBounds cache_bounds(const CacheRequestStream& stream, uint32_t model_sector_bytes) {
    const unsigned shift = coarsening_shift(stream.sector_bytes, model_sector_bytes);
    CacheBounds b;
    std::vector<uint64_t> all, group, one;
    for (const auto& g : stream.groups) {
        group.clear();
        for (uint32_t i = 0; i < g.request_count; ++i) {
            const auto& r = stream.requests[g.request_begin + i];
            if (r.store) continue;
            model_sectors(stream, r, shift, one);
            group.insert(group.end(), one.begin(), one.end());
        }
        std::sort(group.begin(), group.end());
        group.erase(std::unique(group.begin(), group.end()), group.end());
        b.group_distinct_sectors += group.size();
        all.insert(all.end(), group.begin(), group.end());
    }
    std::sort(all.begin(), all.end());
    b.distinct_sectors = static_cast<uint64_t>(std::unique(all.begin(), all.end()) - all.begin());
    return b;
}

}  // namespace tilescope

namespace tilescope {
namespace {

std::string id_text(const std::array<uint64_t, 3>& g) {
    return "(" + std::to_string(g[0]) + "," + std::to_string(g[1]) + "," + std::to_string(g[2]) + ")";
}

}  // namespace

TranslatedGroups fit_translated_groups(const CacheRequestStream& sample, std::array<uint32_t, 3> dims,
                                       std::array<uint64_t, 3> grid) {
    const uint64_t traced = uint64_t(dims[0]) * dims[1] * dims[2];
    if (sample.groups.size() != traced)
        throw InputError("the traced sample holds " + std::to_string(sample.groups.size()) + " work-groups, not the " +
                         std::to_string(traced) + " asked for");
    for (int d = 0; d < 3; ++d) {
        if (dims[d] == 0 || dims[d] > grid[d])
            throw InputError("--sample: the traced block must lie inside the launch's work-groups");
        if (grid[d] > 1 && dims[d] < 2)
            throw InputError("--sample: the launch has " + std::to_string(grid[d]) + " work-groups along dimension " +
                             std::to_string(d) + "; accepted: a sample of at least 2 groups along it");
    }
    auto index = [&](uint64_t x, uint64_t y, uint64_t z) { return x + dims[0] * (y + dims[1] * z); };
    TranslatedGroups t;
    t.grid = grid;
    t.sample = dims;
    // Group (0,0,0) alone, re-based to start at request 0 and sector 0.
    const auto& g0 = sample.groups[0];
    t.base.sector_bytes = sample.sector_bytes;
    t.base.buffers = sample.buffers;
    t.base.buffer_first_sector = sample.buffer_first_sector;
    t.base.begin_group();
    for (uint32_t j = 0; j < g0.request_count; ++j) {
        const auto& r = sample.requests[g0.request_begin + j];
        const uint64_t* first = sample.sectors.data() + r.sector_begin;
        t.base.add(first, first + r.sector_count, r.store, r.buffer, r.line);
        t.base.requests.back().load = r.load;
    }
    const size_t sectors = t.base.sectors.size();
    auto broken = [&](const std::array<uint64_t, 3>& g, uint32_t j, const std::string& why) {
        return InputError("the traced work-groups are not moved copies of group (0,0,0): group " + id_text(g) +
                          ", request " + std::to_string(j) + " (source line " +
                          std::to_string(j < t.base.requests.size() ? t.base.requests[j].line : 0) + ") " + why +
                          "; a launch this kernel makes cannot be stood in for by a sample");
    };
    // Requests of group g must match group 0's in number, line, buffer and kind.
    auto same_shape = [&](const std::array<uint64_t, 3>& g) -> const CacheRequestStream::Group& {
        const auto& gg = sample.groups[index(g[0], g[1], g[2])];
        if (gg.request_count != g0.request_count)
            throw broken(g, std::min(gg.request_count, g0.request_count), "is missing or extra (" +
                         std::to_string(gg.request_count) + " requests against " + std::to_string(g0.request_count) + ")");
        for (uint32_t j = 0; j < gg.request_count; ++j) {
            const auto& a = sample.requests[g0.request_begin + j];
            const auto& b = sample.requests[gg.request_begin + j];
            if (a.sector_count != b.sector_count || a.line != b.line || a.buffer != b.buffer || a.store != b.store)
                throw broken(g, j, "differs in its sectors, line, buffer or kind");
        }
        return gg;
    };
    for (int d = 0; d < 3; ++d) {
        t.step[d].assign(sectors, 0);
        if (dims[d] < 2) continue;
        std::array<uint64_t, 3> g{0, 0, 0};
        g[d] = 1;
        const auto& gg = same_shape(g);
        for (uint32_t j = 0; j < gg.request_count; ++j) {
            const auto& a = sample.requests[g0.request_begin + j];
            const auto& b = sample.requests[gg.request_begin + j];
            const auto& base = t.base.requests[j];
            for (uint32_t i = 0; i < a.sector_count; ++i)
                t.step[d][base.sector_begin + i] =
                    int64_t(sample.sectors[b.sector_begin + i]) - int64_t(sample.sectors[a.sector_begin + i]);
        }
    }
    std::vector<uint64_t> moved;
    for (uint64_t z = 0; z < dims[2]; ++z)
        for (uint64_t y = 0; y < dims[1]; ++y)
            for (uint64_t x = 0; x < dims[0]; ++x) {
                if (x + y + z <= 1) continue;  // group 0 and the ones the steps came from
                const std::array<uint64_t, 3> g{x, y, z};
                const auto& gg = same_shape(g);
                for (uint32_t j = 0; j < gg.request_count; ++j) {
                    const auto& base = t.base.requests[j];
                    const auto& b = sample.requests[gg.request_begin + j];
                    for (uint32_t i = 0; i < base.sector_count; ++i) {
                        const size_t k = base.sector_begin + i;
                        const int64_t want = int64_t(t.base.sectors[k]) + int64_t(x) * t.step[0][k] +
                                             int64_t(y) * t.step[1][k] + int64_t(z) * t.step[2][k];
                        if (want != int64_t(sample.sectors[b.sector_begin + i]))
                            throw broken(g, j, "touches sector " + std::to_string(sample.sectors[b.sector_begin + i]) +
                                                   " where the steps put " + std::to_string(want));
                    }
                }
                ++t.groups_checked;
            }
    // The last group of the launch must stay at or above sector 0.
    for (size_t k = 0; k < sectors; ++k) {
        const int64_t last = int64_t(t.base.sectors[k]) + int64_t(grid[0] - 1) * t.step[0][k] +
                             int64_t(grid[1] - 1) * t.step[1][k] + int64_t(grid[2] - 1) * t.step[2][k];
        if (last < 0)
            throw broken({grid[0] - 1, grid[1] - 1, grid[2] - 1}, 0, "would touch a sector below the first");
    }
    return t;
}

CacheReport run_cache_model(const TranslatedGroups& groups, const CacheParams& params, const std::string& profile,
                            uint64_t first_groups, const std::function<bool(uint64_t, uint64_t)>& progress) {
    check_cache_params(params, groups.base.sector_bytes);
    MovedGroups moved(groups);
    Replay<MovedGroups> replay(moved, params, first_groups);
    replay.run(progress);
    return replay.report(profile);
}

}  // namespace tilescope
