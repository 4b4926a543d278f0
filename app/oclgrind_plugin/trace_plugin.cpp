#include "trace_plugin.h"

#include <oclgrind/Kernel.h>
#include <oclgrind/KernelInvocation.h>
#include <oclgrind/Memory.h>
#include <oclgrind/WorkGroup.h>
#include <oclgrind/WorkItem.h>

#include <llvm/IR/Argument.h>
#include <llvm/IR/DebugLoc.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instruction.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Value.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <set>

#include "trace_session.h"

namespace tilescope::trace_plugin {
namespace abi = tilescope::trace_abi;
using oclgrind::AddrSpaceConstant;
using oclgrind::AddrSpaceGlobal;
using oclgrind::AddrSpaceLocal;
using oclgrind::AddrSpacePrivate;

namespace {

std::atomic<uint64_t> g_next_epoch{1};

constexpr uint32_t kFullCopiesPerKind = 3;

// What makes two of Oclgrind's messages the same finding: the first line without its
// hex addresses, and every "At line N" (the source lines involved).
std::string message_key(const char* message) {
    std::string key;
    const char* p = message;
    for (; *p && *p != '\n'; ++p) {
        if (p[0] == '0' && p[1] == 'x') {
            p += 2;
            while (std::isxdigit(static_cast<unsigned char>(*p))) ++p;
            --p;
            key += '#';
            continue;
        }
        key += *p;
    }
    for (const char* at = std::strstr(p, "At line "); at; at = std::strstr(at + 8, "At line ")) {
        key += '|';
        for (const char* d = at + 8; std::isdigit(static_cast<unsigned char>(*d)); ++d) key += *d;
    }
    return key;
}

void add(abi::AccessCounts& c, size_t bytes, bool store) {
    if (store) {
        c.store_bytes += bytes;
        ++c.stores;
    } else {
        c.load_bytes += bytes;
        ++c.loads;
    }
}

void add(abi::BankConflicts& into, const abi::BankConflicts& from) {
    into.requests += from.requests;
    into.degree_sum += from.degree_sum;
    into.conflicted_requests += from.conflicted_requests;
    into.max_degree = std::max(into.max_degree, from.max_degree);
}

void add(abi::Coalescing& into, const abi::Coalescing& from) {
    into.requests += from.requests;
    into.sectors += from.sectors;
    into.ideal_sectors += from.ideal_sectors;
}

uint32_t line_of(const llvm::Instruction* instruction) {
    if (!instruction) return 0;
    const llvm::DebugLoc& loc = instruction->getDebugLoc();
    return loc ? loc.getLine() : 0;
}

abi::Id3 id3(const oclgrind::Size3& s) {
    return {static_cast<uint32_t>(s.x), static_cast<uint32_t>(s.y), static_cast<uint32_t>(s.z)};
}

// Size of one element of an OpenCL pointer parameter from its type name ("float*",
// "float4*", "const int*"); 4 when the name says nothing useful.
uint32_t element_size_of(std::string type) {
    if (auto star = type.find('*'); star != std::string::npos) type.resize(star);
    while (!type.empty() && type.back() == ' ') type.pop_back();
    if (auto sp = type.rfind(' '); sp != std::string::npos) type = type.substr(sp + 1);
    size_t digits = type.size();
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(type[digits - 1]))) --digits;
    uint32_t lanes = 1;
    if (digits < type.size()) {
        lanes = static_cast<uint32_t>(std::stoul(type.substr(digits)));
        if (lanes == 3) lanes = 4;  // 3-vectors are stored as 4
        type.resize(digits);
    }
    static const std::map<std::string, uint32_t> scalar = {
        {"char", 1}, {"uchar", 1}, {"bool", 1}, {"short", 2}, {"ushort", 2}, {"half", 2}, {"int", 4},
        {"uint", 4}, {"float", 4}, {"long", 8}, {"ulong", 8}, {"double", 8}, {"size_t", 8}};
    auto it = scalar.find(type);
    return it == scalar.end() ? 4 : it->second * std::max(1u, lanes);
}

// Distinct keys (sectors or words) one request touched. Most requests touch a handful,
// so the first few live inline.
struct Request {
    static constexpr uint32_t kInline = 6;
    uint32_t n = 0;
    uint64_t inline_keys[kInline];
    std::vector<uint64_t> spill;

    void add(uint64_t key) {
        const uint32_t in = std::min(n, kInline);
        for (uint32_t i = 0; i < in; ++i)
            if (inline_keys[i] == key) return;
        for (uint64_t k : spill)
            if (k == key) return;
        if (n < kInline) inline_keys[n] = key;
        else spill.push_back(key);
        ++n;
    }
    template <class F> void for_each(F&& f) const {
        const uint32_t in = std::min(n, kInline);
        for (uint32_t i = 0; i < in; ++i) f(inline_keys[i]);
        for (uint64_t k : spill) f(k);
    }
    void clear() {
        n = 0;
        spill.clear();
    }
};

// What the cache model needs of one open global request beyond its sectors.
struct CacheTag {
    uint32_t access_index = UINT32_MAX;
    uint16_t buffer = 0;
    bool load = false, store = false;
};

// One memory instruction as seen by one worker thread.
struct InstructionStats {
    const llvm::Instruction* instruction = nullptr;
    uint32_t line = 0;
    bool local = false;
    uint32_t width = 0;  // bytes per access (16 for a float4); set by the first access
    // Local accesses: log2 of the unit judged for bank conflicts (max(width, bank_bytes),
    // a power of two), the passes a sub-group is served in, and lanes per pass.
    uint32_t unit_shift = 2, passes = 1, lanes_per_pass = 32;
    abi::AccessCounts counts;
    abi::Coalescing coalescing;
    abi::BankConflicts bank_conflicts;
    std::vector<Request> requests;  // this interval's, by k * subgroups + subgroup
    std::vector<CacheTag> cache_tags;  // parallel to requests when the cache model records
};

// The cache model's requests of the work-group a worker runs (Config::caches).
struct CacheRecorder {
    bool on = false;
    std::vector<uint32_t> lane_accesses;  // global accesses each lane made in the open interval
    abi::CacheGroupRequests out;
    std::vector<uint64_t> scratch;

    void begin(uint64_t linear, uint32_t lanes) {
        out = abi::CacheGroupRequests{};
        out.group = linear;
        lane_accesses.assign(lanes, 0);
    }
    void note(InstructionStats& s, size_t ri, uint32_t lane, int32_t slot, bool store) {
        if (s.cache_tags.size() < s.requests.size()) s.cache_tags.resize(s.requests.size());
        CacheTag& t = s.cache_tags[ri];
        t.access_index = std::min(t.access_index, lane_accesses[lane]++);
        t.buffer = static_cast<uint16_t>(slot);
        (store ? t.store : t.load) = true;
    }
    // Moves one closed request (its sectors sorted) into `out`; resets its tag.
    void emit(InstructionStats& s, size_t ri, const Request& r, uint32_t interval, uint32_t subgroups) {
        CacheTag& t = s.cache_tags[ri];
        abi::CacheRequest q;
        q.interval = interval;
        q.access_index = t.access_index;
        q.subgroup = static_cast<uint32_t>(ri % subgroups);
        q.line = s.line;
        q.buffer = t.buffer;
        q.load = t.load;
        q.store = t.store;
        scratch.clear();
        r.for_each([&](uint64_t sector) { scratch.push_back(sector); });
        std::sort(scratch.begin(), scratch.end());
        q.sector_begin = static_cast<uint32_t>(out.sectors.size());
        q.sector_count = static_cast<uint32_t>(scratch.size());
        out.sectors.insert(out.sectors.end(), scratch.begin(), scratch.end());
        out.requests.push_back(q);
        t = CacheTag{};
    }
    void end_interval() { std::fill(lane_accesses.begin(), lane_accesses.end(), 0); }
    // Lockstep issue order within the work-group.
    void sort() {
        const auto& sec = out.sectors;
        std::sort(out.requests.begin(), out.requests.end(), [&](const abi::CacheRequest& a, const abi::CacheRequest& b) {
            if (a.interval != b.interval) return a.interval < b.interval;
            if (a.access_index != b.access_index) return a.access_index < b.access_index;
            if (a.subgroup != b.subgroup) return a.subgroup < b.subgroup;
            if (a.line != b.line) return a.line < b.line;
            if (a.store != b.store) return b.store;
            return sec[a.sector_begin] < sec[b.sector_begin];
        });
    }
};

struct Slot {  // a global/constant buffer a kernel parameter points at
    std::string name;
    int32_t arg_index = -1;
    uint64_t memory_buffer = 0;
    uint64_t base = 0;  // offset of the parameter's address inside Oclgrind's buffer
    uint32_t element_size = 4;
    uint64_t elements = 0;
    bool constant = false;
};

// Distinct (element, work-item) pairs of one buffer within one interval. Small buffers
// (local tiles) use a bitmap over element x lane, which needs neither sorting nor
// allocation per access; the rest collect keys and sort them once per interval.
class TouchSet {
public:
    void reset(uint64_t elements, uint32_t lanes, bool allow_bitmap) {
        elements_ = elements;
        lanes_ = lanes;
        bitmap_ = allow_bitmap && elements * lanes <= (uint64_t(1) << 20);
        bits_.assign(bitmap_ ? (elements * lanes + 63) / 64 : 0, 0);
        keys_.clear();
        any_ = false;
    }
    void add(uint64_t element, uint32_t lane) {
        any_ = true;
        if (bitmap_) {
            if (element >= elements_ || lane >= lanes_) return;
            const uint64_t i = element * lanes_ + lane;
            bits_[i >> 6] |= uint64_t(1) << (i & 63);
            return;
        }
        const uint64_t key = element << 32 | lane;
        if (keys_.empty() || keys_.back() != key) keys_.push_back(key);
    }
    bool empty() const { return !any_; }
    // The pairs sorted by element, then work-item; leaves the set empty.
    std::vector<abi::ElementTouch> take() {
        std::vector<abi::ElementTouch> out;
        if (bitmap_) {
            size_t n = 0;
            for (uint64_t x : bits_) n += static_cast<size_t>(std::popcount(x));
            out.reserve(n);
            for (size_t w = 0; w < bits_.size(); ++w) {
                for (uint64_t x = bits_[w]; x; x &= x - 1) {
                    const uint64_t i = w * 64 + static_cast<uint64_t>(std::countr_zero(x));
                    out.push_back({static_cast<uint32_t>(i / lanes_), static_cast<uint32_t>(i % lanes_)});
                }
                bits_[w] = 0;
            }
        } else {
            std::sort(keys_.begin(), keys_.end());
            keys_.erase(std::unique(keys_.begin(), keys_.end()), keys_.end());
            out.reserve(keys_.size());
            for (uint64_t k : keys_) out.push_back({static_cast<uint32_t>(k >> 32), static_cast<uint32_t>(k)});
            keys_.clear();
        }
        any_ = false;
        return out;
    }

private:
    uint64_t elements_ = 0;
    uint32_t lanes_ = 1;
    bool bitmap_ = false, any_ = false;
    std::vector<uint64_t> bits_, keys_;
};

// Loads and stores of one buffer.
struct BufferTouchSets {
    TouchSet loads, stores;
};

struct ThreadState;

// The work-group a worker thread is running, with its open interval.
struct GroupState {
    const oclgrind::WorkGroup* work_group = nullptr;
    abi::Id3 id{}, size{};
    uint32_t lanes = 1;
    uint64_t linear = 0;
    int detail = -1;  // position in Config::detail_groups, or -1
    const oclgrind::WorkItem* last_item = nullptr;  // the work-item of the last access, and its lane
    uint32_t last_lane = 0;
    uint32_t interval = 0;
    abi::GroupSummary summary;
    std::vector<int32_t> local_slot;  // local buffer id in this group's Memory -> Run::local_buffers

    // The open interval.
    abi::AccessCounts iv_global, iv_local;
    abi::Coalescing iv_coalescing;
    abi::BankConflicts iv_bank;
    std::vector<std::pair<uint32_t, uint32_t>> touched;  // (instruction, request) used this interval
    std::vector<uint32_t> executions;                     // by instruction * lanes + lane: k so far

    // Detail (only when detail >= 0).
    abi::GroupDetail detail_out;
    std::vector<BufferTouchSets> g_touches;  // by slot
    std::vector<BufferTouchSets> l_touches;  // by local buffer
    std::vector<abi::WorkItemTraffic> by_lane;
    std::vector<uint8_t> lane_seen;

    CacheRecorder cache;
};

struct ThreadState {
    uint64_t epoch = 0;
    // Open-addressing map from instruction to its index in `instructions`.
    std::vector<std::pair<const llvm::Instruction*, uint32_t>> table;
    std::vector<InstructionStats> instructions;
    abi::AccessCounts global, local, private_mem;
    abi::Coalescing coalescing;
    abi::BankConflicts bank_conflicts;
    uint64_t barriers = 0;
    std::set<uint32_t> barrier_lines;
    std::vector<abi::AccessCounts> slot_counts;
    std::vector<uint64_t> slot_out_of_range;
    std::vector<std::vector<uint32_t>> load_counts, store_counts;  // by slot, then element
    std::vector<uint32_t> bank_histogram;
    GroupState group;
};

// initial-exec: two words of static TLS spare a __tls_get_addr call on every access.
__attribute__((tls_model("initial-exec"))) thread_local ThreadState* t_state = nullptr;
__attribute__((tls_model("initial-exec"))) thread_local uint64_t t_epoch = 0;

}  // namespace

struct Run {
    abi::Config config;
    const oclgrind::KernelInvocation* invocation = nullptr;
    const oclgrind::Memory* global_memory = nullptr;
    uint64_t epoch = 0;
    std::string kernel;
    uint32_t work_dim = 1;
    abi::Id3 num_groups{1, 1, 1}, local_size{1, 1, 1};
    std::array<uint64_t, 3> global_size{1, 1, 1};
    uint64_t total_groups = 1;
    uint32_t max_lanes = 1;
    uint32_t subgroups = 1;  // of the largest work-group
    unsigned offset_bits = 48;
    uint64_t offset_mask = 0;
    uint32_t sector_shift = 5;
    std::vector<int32_t> slot_of_buffer;  // Oclgrind global buffer id -> slot
    std::vector<Slot> slots;              // the last one gathers memory no parameter points at
    int32_t unbound_slot = 0;
    std::vector<int32_t> detail_of_group;  // linear group index -> position in detail_groups, -1
    std::vector<abi::LocalBufferInfo> local_buffers;
    std::map<const llvm::Value*, int32_t> local_index;  // local value -> local_buffers
    std::chrono::steady_clock::time_point started;

    std::mutex mutex;  // guards everything below
    std::vector<std::unique_ptr<ThreadState>> threads;
    std::vector<std::pair<uint64_t, abi::GroupSummary>> summaries;
    std::vector<abi::GroupDetail> details;
    std::vector<bool> detail_done;
    std::vector<abi::Message> messages;
    std::map<std::string, std::pair<size_t, uint32_t>> message_index;  // key -> (first kept, copies kept)
    uint64_t messages_dropped = 0;
    bool cancelled = false;
    std::atomic<uint64_t> groups_done{0};
    std::atomic<uint64_t> detail_touches{0};
    std::atomic<bool> detail_truncated{false};
    std::atomic<bool> local_buffers_numbered{false};
    std::vector<abi::CacheGroupRequests> cache_groups;  // guarded by mutex
    std::atomic<uint64_t> cache_sectors{0};
    std::atomic<bool> cache_truncated{false};

    // Streaming: early groups completed whose detail waits for the next partial call,
    // and when the last call was made (guarded by `mutex`); one call at a time.
    std::vector<bool> early;                 // linear group index -> wanted early
    std::vector<abi::GroupDetail> pending_early;
    std::chrono::steady_clock::time_point last_partial{};
    std::mutex partial_mutex;

    // What every result starts with: the launch's shape and its buffers without counts.
    abi::Result header() const {
        abi::Result out;
        out.kernel = kernel;
        out.work_dim = work_dim;
        out.global_size = global_size;
        for (int d = 0; d < 3; ++d) {
            out.local_size[d] = local_size[d];
            out.num_groups[d] = num_groups[d];
        }
        out.warp = config.warp;
        out.sector_bytes = config.sector_bytes;
        out.banks = config.banks;
        out.bank_bytes = config.bank_bytes;
        out.address_offset_bits = offset_bits;
        for (const Slot& s : slots) {
            abi::BufferStats b;
            b.name = s.name;
            b.arg_index = s.arg_index;
            b.element_size = s.element_size;
            b.elements = s.elements;
            b.constant = s.constant;
            b.memory_buffer = s.memory_buffer;
            b.base_offset = s.base;
            out.buffers.push_back(std::move(b));
        }
        out.local_buffers = local_buffers;
        return out;
    }

    // After a work-group completed (`early_done`: one of the early groups): hands what is
    // known so far to Config::partial when one is due and no other call is under way.
    void maybe_partial(bool early_done) {
        if (!config.partial) return;
        std::unique_lock<std::mutex> one_at_a_time(partial_mutex, std::try_to_lock);
        if (!one_at_a_time.owns_lock()) return;  // the pending detail goes with a later call
        abi::Result so_far;
        {
            std::lock_guard<std::mutex> lock(mutex);
            const auto now = std::chrono::steady_clock::now();
            const bool due = early_done || !pending_early.empty() ||
                             now - last_partial >= std::chrono::milliseconds(config.partial_interval_ms);
            if (!due || cancelled) return;
            last_partial = now;
            so_far = header();
            for (const auto& [linear, summary] : summaries) {
                so_far.global += summary.global;
                so_far.local += summary.local;
                so_far.barriers += summary.barriers;
            }
            so_far.groups_run = summaries.size();
            std::vector<std::pair<uint64_t, abi::GroupSummary>> sorted = summaries;
            std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
            for (auto& [linear, summary] : sorted) so_far.groups.push_back(summary);
            so_far.details = std::move(pending_early);
            pending_early.clear();
            so_far.seconds = std::chrono::duration<double>(now - started).count();
        }
        config.partial(config.partial_user, so_far);
    }

    ThreadState& thread_state() {
        if (t_epoch == epoch) return *t_state;
        auto ts = std::make_unique<ThreadState>();
        ts->epoch = epoch;
        ts->table.assign(64, {nullptr, 0});
        ts->slot_counts.resize(slots.size());
        ts->slot_out_of_range.resize(slots.size());
        ts->load_counts.resize(slots.size());
        ts->store_counts.resize(slots.size());
        ts->bank_histogram.assign(config.banks, 0);
        t_state = ts.get();
        t_epoch = epoch;
        std::lock_guard<std::mutex> lock(mutex);
        threads.push_back(std::move(ts));
        return *t_state;
    }

    uint32_t instruction_index(ThreadState& ts, const llvm::Instruction* instruction, bool local) {
        const size_t mask = ts.table.size() - 1;
        size_t h = (reinterpret_cast<uintptr_t>(instruction) >> 4) * 0x9E3779B97F4A7C15ull >> 20;
        for (;; ++h) {
            auto& e = ts.table[h & mask];
            if (e.first == instruction) return e.second;
            if (!e.first) break;
        }
        // New instruction: grow the table at half load, extend per-lane counters.
        const uint32_t index = static_cast<uint32_t>(ts.instructions.size());
        InstructionStats s;
        s.instruction = instruction;
        s.line = line_of(instruction);
        s.local = local;
        ts.instructions.push_back(std::move(s));
        ts.group.executions.resize(ts.instructions.size() * max_lanes, 0);
        if (ts.instructions.size() * 2 > ts.table.size()) {
            std::vector<std::pair<const llvm::Instruction*, uint32_t>> bigger(ts.table.size() * 2, {nullptr, 0});
            const size_t bmask = bigger.size() - 1;
            for (const auto& i : ts.instructions) {
                size_t g = (reinterpret_cast<uintptr_t>(i.instruction) >> 4) * 0x9E3779B97F4A7C15ull >> 20;
                while (bigger[g & bmask].first) ++g;
                bigger[g & bmask] = {i.instruction, static_cast<uint32_t>(&i - ts.instructions.data())};
            }
            ts.table.swap(bigger);
        } else {
            size_t g = h;
            while (ts.table[g & mask].first) ++g;
            ts.table[g & mask] = {instruction, index};
        }
        return index;
    }

    // Hands a completed work-group's requests over, sorted, unless the bound is reached.
    void keep_cache_requests(CacheRecorder& c) {
        c.sort();
        const uint64_t total = cache_sectors.fetch_add(c.out.sectors.size()) + c.out.sectors.size();
        if (total > config.caches.max_sectors) cache_truncated = true;
        if (cache_truncated.load()) return;
        std::lock_guard<std::mutex> lock(mutex);
        cache_groups.push_back(std::move(c.out));
    }

    // Closes the open interval of the thread's work-group.
    void close_interval(ThreadState& ts, uint32_t end_line) {
        GroupState& g = ts.group;
        for (auto [ii, ri] : g.touched) {
            InstructionStats& s = ts.instructions[ii];
            Request& r = s.requests[ri];
            if (s.local) {
                // Keys are unit * passes + pass; a unit falls in one of `groups` bank groups.
                const uint64_t groups = std::max<uint64_t>(1, uint64_t(config.banks) * config.bank_bytes >> s.unit_shift);
                auto slot = [&](uint64_t key) {
                    const uint64_t unit = key / s.passes;
                    return (key % s.passes) * groups + (unit & (offset_mask >> s.unit_shift)) % groups;
                };
                uint32_t degree = 0;
                r.for_each([&](uint64_t key) { degree = std::max(degree, ++ts.bank_histogram[slot(key)]); });
                r.for_each([&](uint64_t key) { ts.bank_histogram[slot(key)] = 0; });
                abi::BankConflicts one{1, degree, degree, degree > 1 ? 1u : 0u};
                add(s.bank_conflicts, one);
                add(g.iv_bank, one);
            } else {
                const uint64_t ideal = (uint64_t(config.warp) * s.width + config.sector_bytes - 1) / config.sector_bytes;
                abi::Coalescing one{1, r.n, std::max<uint64_t>(1, ideal)};
                add(s.coalescing, one);
                add(g.iv_coalescing, one);
                if (g.cache.on) g.cache.emit(s, ri, r, g.interval, subgroups);
            }
            r.clear();
        }
        g.touched.clear();
        std::fill(g.executions.begin(), g.executions.end(), 0);
        if (g.cache.on) g.cache.end_interval();
        ts.global += g.iv_global;
        ts.local += g.iv_local;
        g.summary.global += g.iv_global;
        g.summary.local += g.iv_local;
        add(ts.coalescing, g.iv_coalescing);
        add(ts.bank_conflicts, g.iv_bank);

        if (g.detail >= 0) {
            abi::IntervalDetail d;
            d.index = g.interval;
            d.end_line = end_line;
            d.global = g.iv_global;
            d.local = g.iv_local;
            d.coalescing = g.iv_coalescing;
            d.bank_conflicts = g.iv_bank;
            uint64_t records = 0;
            auto collect = [&](std::vector<BufferTouchSets>& sets, std::vector<abi::BufferTouches>& out) {
                for (size_t b = 0; b < sets.size(); ++b) {
                    if (sets[b].loads.empty() && sets[b].stores.empty()) continue;
                    abi::BufferTouches t;
                    t.buffer = static_cast<uint32_t>(b);
                    t.loads = sets[b].loads.take();
                    t.stores = sets[b].stores.take();
                    records += t.loads.size() + t.stores.size();
                    out.push_back(std::move(t));
                }
            };
            collect(g.g_touches, d.global_touches);
            collect(g.l_touches, d.local_touches);
            for (uint32_t lane = 0; lane < g.lanes; ++lane)
                if (g.lane_seen[lane]) {
                    d.work_items.push_back(g.by_lane[lane]);
                    g.by_lane[lane] = abi::WorkItemTraffic{};
                    g.lane_seen[lane] = 0;
                }
            g.detail_out.intervals.push_back(std::move(d));
            const uint64_t total = detail_touches.fetch_add(records) + records;
            if (total > config.max_detail_touches) detail_truncated = true;
        }
        g.iv_global = g.iv_local = abi::AccessCounts{};
        g.iv_coalescing = abi::Coalescing{};
        g.iv_bank = abi::BankConflicts{};
        ++g.interval;
    }
};

namespace {

// Shared by loads, stores and atomics of one work-item.
inline void record(Run& run, const oclgrind::Memory* memory, const oclgrind::WorkItem* work_item, size_t address,
                   size_t size, bool store) {
    const unsigned space = memory == run.global_memory ? unsigned(AddrSpaceGlobal) : memory->getAddressSpace();
    ThreadState& ts = run.thread_state();
    if (space == AddrSpacePrivate) {
        add(ts.private_mem, size, store);
        return;
    }
    GroupState& g = ts.group;
    if (!g.work_group || size == 0) return;
    const bool local = space == AddrSpaceLocal;
    // A work-item makes all its accesses of an interval in a row: remember its lane.
    if (work_item != g.last_item) {
        const oclgrind::Size3 lid = work_item->getLocalID();
        g.last_item = work_item;
        g.last_lane = static_cast<uint32_t>(lid.x + g.size[0] * (lid.y + g.size[1] * lid.z));
    }
    const uint32_t lane = g.last_lane;
    const uint32_t ii = run.instruction_index(ts, work_item->getCurrentInstruction(), local);
    InstructionStats& s = ts.instructions[ii];
    add(s.counts, size, store);
    if (s.width == 0) {
        s.width = static_cast<uint32_t>(size);
        const uint32_t unit = std::bit_ceil(std::max<uint32_t>(s.width, run.config.bank_bytes));
        s.unit_shift = static_cast<uint32_t>(std::countr_zero(unit));
        s.passes = unit / run.config.bank_bytes;
        s.lanes_per_pass = std::max<uint32_t>(1, run.config.warp / s.passes);
        const uint64_t groups = std::max<uint64_t>(1, uint64_t(run.config.banks) * run.config.bank_bytes >> s.unit_shift);
        if (s.passes * groups > ts.bank_histogram.size()) ts.bank_histogram.resize(s.passes * groups, 0);
    }

    // The k-th execution of this instruction by this lane joins request (k, subgroup).
    const uint32_t k = g.executions[static_cast<size_t>(ii) * run.max_lanes + lane]++;
    const size_t ri = static_cast<size_t>(k) * run.subgroups + lane / run.config.warp;
    if (ri >= s.requests.size()) s.requests.resize(std::max(ri + 1, s.requests.size() * 2));
    Request& r = s.requests[ri];
    if (r.n == 0) g.touched.emplace_back(ii, static_cast<uint32_t>(ri));
    const uint64_t offset = address & run.offset_mask;
    const uint64_t buffer = address >> run.offset_bits;

    if (local) {
        add(g.iv_local, size, store);  // folded into the group's and thread's totals at the interval's end
        // Wide accesses are judged per pass: key = unit * passes + pass (see trace_abi.h).
        const uint64_t pass = std::min<uint32_t>(s.passes - 1, lane % run.config.warp / s.lanes_per_pass);
        const uint64_t first = address >> s.unit_shift, last = (address + size - 1) >> s.unit_shift;
        for (uint64_t u = first; u <= last; ++u) r.add(u * s.passes + pass);
        if (g.detail >= 0 && !run.detail_truncated.load(std::memory_order_relaxed)) {
            add(g.by_lane[lane].local, size, store);
            g.by_lane[lane].work_item = lane;
            g.lane_seen[lane] = 1;
            const int32_t lb = buffer < g.local_slot.size() ? g.local_slot[buffer] : -1;
            if (lb >= 0) {
                TouchSet& set = store ? g.l_touches[lb].stores : g.l_touches[lb].loads;
                for (uint64_t w = offset >> 2; w <= (offset + size - 1) >> 2; ++w) set.add(w, lane);
            }
        }
        return;
    }

    add(g.iv_global, size, store);
    const uint64_t first = address >> run.sector_shift, last = (address + size - 1) >> run.sector_shift;
    for (uint64_t sec = first; sec <= last; ++sec) r.add(sec);

    const int32_t slot = buffer < run.slot_of_buffer.size() ? run.slot_of_buffer[buffer] : run.unbound_slot;
    add(ts.slot_counts[slot], size, store);
    if (g.cache.on) g.cache.note(s, ri, lane, slot, store);
    const bool detail = g.detail >= 0 && !run.detail_truncated.load(std::memory_order_relaxed);
    if (detail) {
        add(g.by_lane[lane].global, size, store);
        g.by_lane[lane].work_item = lane;
        g.lane_seen[lane] = 1;
    }
    const Slot& sl = run.slots[slot];
    if (offset < sl.base || sl.elements == 0) {
        ++ts.slot_out_of_range[slot];
        return;
    }
    const uint64_t e0 = (offset - sl.base) / sl.element_size;
    uint64_t e1 = (offset - sl.base + size - 1) / sl.element_size;
    if (e1 >= sl.elements) {
        ++ts.slot_out_of_range[slot];
        if (e0 >= sl.elements) return;
        e1 = sl.elements - 1;
    }
    auto& counts = store ? ts.store_counts[slot] : ts.load_counts[slot];
    if (counts.empty()) counts.assign(sl.elements, 0);
    for (uint64_t e = e0; e <= e1; ++e) ++counts[e];
    if (detail) {
        TouchSet& set = store ? g.g_touches[slot].stores : g.g_touches[slot].loads;
        for (uint64_t e = e0; e <= e1; ++e) set.add(e, lane);
    }
}

// Accesses made by a whole work-group (async copies): traffic and detail, no requests.
void record_group(Run& run, const oclgrind::Memory* memory, size_t address, size_t size, bool store) {
    const unsigned space = memory->getAddressSpace();
    ThreadState& ts = run.thread_state();
    GroupState& g = ts.group;
    if (space == AddrSpacePrivate || !g.work_group || size == 0) return;
    const uint64_t offset = address & run.offset_mask;
    if (space == AddrSpaceLocal) {
        add(g.iv_local, size, store);
        return;
    }
    add(g.iv_global, size, store);
    const uint64_t buffer = address >> run.offset_bits;
    const int32_t slot = buffer < run.slot_of_buffer.size() ? run.slot_of_buffer[buffer] : run.unbound_slot;
    add(ts.slot_counts[slot], size, store);
    const Slot& sl = run.slots[slot];
    if (offset < sl.base || sl.elements == 0) return;
    const uint64_t e0 = (offset - sl.base) / sl.element_size;
    const uint64_t e1 = std::min(sl.elements - 1, (offset - sl.base + size - 1) / sl.element_size);
    if (e0 >= sl.elements) return;
    auto& counts = store ? ts.store_counts[slot] : ts.load_counts[slot];
    if (counts.empty()) counts.assign(sl.elements, 0);
    for (uint64_t e = e0; e <= e1; ++e) ++counts[e];
    if (g.detail >= 0 && !run.detail_truncated.load(std::memory_order_relaxed)) {
        TouchSet& set = store ? g.g_touches[slot].stores : g.g_touches[slot].loads;
        for (uint64_t e = e0; e <= e1; ++e) set.add(e, abi::kWholeGroup);
    }
}

}  // namespace

TracePlugin::TracePlugin(const oclgrind::Context* context) : Plugin(context) {}
TracePlugin::~TracePlugin() = default;

void TracePlugin::kernelBegin(const oclgrind::KernelInvocation* invocation) {
    const oclgrind::Kernel* kernel = invocation->getKernel();
    abi::Config config;
    if (!session().claim(kernel->getName(), config)) return;

    auto run = std::make_unique<Run>();
    Run& r = *run;
    r.config = std::move(config);
    r.invocation = invocation;
    r.global_memory = m_context->getGlobalMemory();
    r.epoch = g_next_epoch.fetch_add(1);
    r.kernel = kernel->getName();
    r.work_dim = static_cast<uint32_t>(invocation->getWorkDim());
    const oclgrind::Size3 gs = invocation->getGlobalSize(), ls = invocation->getLocalSize(),
                          ng = invocation->getNumGroups();
    r.global_size = {gs.x, gs.y, gs.z};
    r.local_size = id3(ls);
    r.num_groups = id3(ng);
    r.total_groups = static_cast<uint64_t>(ng.x) * ng.y * ng.z;
    r.max_lanes = static_cast<uint32_t>(ls.x * ls.y * ls.z);
    if (r.config.warp == 0) r.config.warp = 32;
    if (r.config.banks == 0) r.config.banks = 32;
    if (!std::has_single_bit(r.config.sector_bytes)) r.config.sector_bytes = 32;
    if (!std::has_single_bit(r.config.bank_bytes)) r.config.bank_bytes = 4;
    r.subgroups = (r.max_lanes + r.config.warp - 1) / r.config.warp;
    r.offset_mask = r.global_memory->extractOffset(~size_t(0));
    r.offset_bits = static_cast<unsigned>(std::popcount(r.offset_mask));
    r.sector_shift = static_cast<uint32_t>(std::countr_zero(r.config.sector_bytes));

    // Global and constant pointer parameters, by name, with their element sizes.
    const llvm::Function* function = kernel->getFunction();
    for (unsigned i = 0; i < kernel->getNumArguments(); ++i) {
        const llvm::Argument* arg = function->getArg(i);
        const llvm::Type* type = arg->getType();
        if (!type->isPointerTy()) continue;
        const unsigned space = type->getPointerAddressSpace();
        if (space != AddrSpaceGlobal && space != AddrSpaceConstant) continue;
        size_t pointer = 0;
        for (auto it = kernel->values_begin(); it != kernel->values_end(); ++it)
            if (it->first == arg) pointer = it->second.getPointer();
        const oclgrind::Memory::Buffer* buffer = pointer ? r.global_memory->getBuffer(pointer) : nullptr;
        if (!buffer) continue;
        Slot s;
        s.name = kernel->getArgumentName(i).str();
        s.arg_index = static_cast<int32_t>(i);
        s.constant = space == AddrSpaceConstant;
        s.base = r.global_memory->extractOffset(pointer);
        s.element_size = element_size_of(kernel->getArgumentTypeName(i).str());
        for (const abi::BufferHint& h : r.config.buffers)
            if (h.name == s.name && h.element_size > 0) s.element_size = h.element_size;
        s.elements = buffer->size > s.base ? (buffer->size - s.base) / s.element_size : 0;
        const size_t id = r.global_memory->extractBuffer(pointer);
        s.memory_buffer = id;
        if (r.slot_of_buffer.size() <= id) r.slot_of_buffer.resize(id + 1, -1);
        if (r.slot_of_buffer[id] < 0) r.slot_of_buffer[id] = static_cast<int32_t>(r.slots.size());
        r.slots.push_back(std::move(s));
    }
    r.unbound_slot = static_cast<int32_t>(r.slots.size());
    Slot unbound;
    unbound.name = "(unbound)";
    r.slots.push_back(unbound);
    for (auto& s : r.slot_of_buffer)
        if (s < 0) s = r.unbound_slot;

    r.detail_of_group.assign(r.total_groups, -1);
    r.details.resize(r.config.detail_groups.size());
    r.detail_done.assign(r.config.detail_groups.size(), false);
    for (size_t i = 0; i < r.config.detail_groups.size(); ++i) {
        const abi::Id3& d = r.config.detail_groups[i];
        if (d[0] >= ng.x || d[1] >= ng.y || d[2] >= ng.z) continue;
        const uint64_t linear = d[0] + ng.x * (d[1] + ng.y * static_cast<uint64_t>(d[2]));
        if (r.detail_of_group[linear] < 0) r.detail_of_group[linear] = static_cast<int32_t>(i);
    }
    r.early.assign(r.config.partial ? r.total_groups : 0, false);
    for (const abi::Id3& e : r.config.partial ? r.config.early_groups : std::vector<abi::Id3>{}) {
        if (e[0] >= ng.x || e[1] >= ng.y || e[2] >= ng.z) continue;
        r.early[e[0] + ng.x * (e[1] + ng.y * static_cast<uint64_t>(e[2]))] = true;
    }

    // __local parameters and arrays, named for people.
    for (auto it = kernel->values_begin(); it != kernel->values_end(); ++it) {
        const llvm::Type* type = it->first->getType();
        if (!type->isPointerTy() || type->getPointerAddressSpace() != AddrSpaceLocal) continue;
        std::string name = it->first->getName().str();
        const std::string prefix = r.kernel + ".";
        if (name.rfind(prefix, 0) == 0) name = name.substr(prefix.size());
        r.local_index[it->first] = static_cast<int32_t>(r.local_buffers.size());
        abi::LocalBufferInfo info{name, it->second.size, 1, (it->second.size + 3) / 4};
        // An array declared [R][C] (or [D0][D1]..[C]) is R (the product of the outer
        // extents) rows of words; the last extent times its element's width in words
        // is a row, so float4 t[64][4] is 64 x 16. Parameters and 1D arrays are one row.
        if (const auto* var = llvm::dyn_cast<llvm::GlobalVariable>(it->first)) {
            const llvm::Type* t = var->getValueType();
            uint64_t rows = 1;
            while (const auto* outer = llvm::dyn_cast<llvm::ArrayType>(t)) {
                if (!llvm::isa<llvm::ArrayType>(outer->getElementType())) break;
                rows *= outer->getNumElements();
                t = outer->getElementType();
            }
            if (rows > 1 && info.bytes % (rows * 4) == 0) {
                info.rows = rows;
                info.cols = info.bytes / (rows * 4);
            }
        }
        r.local_buffers.push_back(info);
    }
    // Oclgrind keeps the kernel's values keyed by address, so the loop above meets them in
    // an order that changes from run to run: sort by name (then size) for one fixed order.
    std::vector<size_t> order(r.local_buffers.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const abi::LocalBufferInfo &x = r.local_buffers[a], &y = r.local_buffers[b];
        return x.name != y.name ? x.name < y.name : x.bytes < y.bytes;
    });
    std::vector<int32_t> new_index(order.size());
    std::vector<abi::LocalBufferInfo> sorted;
    for (size_t i = 0; i < order.size(); ++i) {
        new_index[order[i]] = static_cast<int32_t>(i);
        sorted.push_back(r.local_buffers[order[i]]);
    }
    r.local_buffers = std::move(sorted);
    for (auto& [value, index] : r.local_index) index = new_index[static_cast<size_t>(index)];
    r.started = std::chrono::steady_clock::now();
    r.last_partial = r.started;  // the first snapshot without an early group comes an interval in
    run_ = std::move(run);
}

void TracePlugin::kernelEnd(const oclgrind::KernelInvocation* invocation) {
    if (!run_ || run_->invocation != invocation) return;
    std::unique_ptr<Run> run = std::move(run_);
    Run& r = *run;
    std::lock_guard<std::mutex> no_partial_in_flight(r.partial_mutex);
    abi::Result out = r.header();
    out.groups_run = r.groups_done.load();
    out.cancelled = r.cancelled;
    out.complete = !r.cancelled && out.groups_run == r.total_groups;
    out.detail_truncated = r.detail_truncated.load();

    std::map<std::pair<uint32_t, bool>, abi::LineStats> lines;
    std::set<uint32_t> barrier_lines;
    for (auto& tsp : r.threads) {
        ThreadState& ts = *tsp;
        out.global += ts.global;
        out.local += ts.local;
        out.private_mem += ts.private_mem;
        out.barriers += ts.barriers;
        add(out.coalescing, ts.coalescing);
        add(out.bank_conflicts, ts.bank_conflicts);
        barrier_lines.insert(ts.barrier_lines.begin(), ts.barrier_lines.end());
        for (size_t s = 0; s < r.slots.size(); ++s) {
            abi::BufferStats& b = out.buffers[s];
            b.counts += ts.slot_counts[s];
            b.out_of_range += ts.slot_out_of_range[s];
            for (auto [from, to] : {std::pair{&ts.load_counts[s], &b.load_counts},
                                    std::pair{&ts.store_counts[s], &b.store_counts}}) {
                if (from->empty()) continue;
                if (to->empty()) {
                    to->swap(*from);
                    continue;
                }
                for (size_t e = 0; e < from->size(); ++e) (*to)[e] += (*from)[e];
            }
        }
        for (const InstructionStats& i : ts.instructions) {
            abi::LineStats& l = lines[{i.line, i.local}];
            l.line = i.line;
            l.local = i.local;
            l.counts += i.counts;
            add(l.coalescing, i.coalescing);
            add(l.bank_conflicts, i.bank_conflicts);
        }
    }
    for (abi::BufferStats& b : out.buffers) {
        if (b.load_counts.empty() && b.elements > 0 && b.name != "(unbound)") b.load_counts.assign(b.elements, 0);
        if (b.store_counts.empty() && b.elements > 0 && b.name != "(unbound)") b.store_counts.assign(b.elements, 0);
    }
    for (auto& [key, l] : lines) out.lines.push_back(l);
    out.barrier_lines.assign(barrier_lines.begin(), barrier_lines.end());
    std::sort(r.summaries.begin(), r.summaries.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [linear, s] : r.summaries) out.groups.push_back(s);
    for (size_t i = 0; i < r.details.size(); ++i)
        if (r.detail_done[i]) out.details.push_back(std::move(r.details[i]));
    out.local_buffers = r.local_buffers;  // numbered by now
    out.messages = std::move(r.messages);
    out.messages_dropped = r.messages_dropped;
    out.cache_truncated = r.cache_truncated.load();
    if (!out.cache_truncated) {
        std::sort(r.cache_groups.begin(), r.cache_groups.end(),
                  [](const auto& a, const auto& b) { return a.group < b.group; });
        out.cache_groups = std::move(r.cache_groups);
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - r.started).count();
    session().publish(std::move(out));
}

void TracePlugin::log(oclgrind::MessageType type, const char* message) {
    Run* run = run_.get();
    if (!run) return;
    abi::Message m;
    m.type = static_cast<uint32_t>(type);
    if (const oclgrind::WorkItem* wi = run->invocation->getCurrentWorkItem()) {
        m.has_work_item = true;
        m.work_item_global = id3(wi->getGlobalID());
        m.work_item_local = id3(wi->getLocalID());
        m.line = line_of(wi->getCurrentInstruction());
    }
    if (const oclgrind::WorkGroup* wg = run->invocation->getCurrentWorkGroup()) {
        m.has_group = true;
        m.group = id3(wg->getGroupID());
        if (!m.line) m.line = line_of(wg->getCurrentBarrier());
    }
    // A kernel with one bug can make Oclgrind report it thousands of times (once per
    // address, per work-group). Reports that differ only in addresses and ids are kept
    // a few times word for word, then counted on the first.
    const std::string key = message_key(message);
    std::lock_guard<std::mutex> lock(run->mutex);
    auto& seen = run->message_index[key];
    if (seen.second >= kFullCopiesPerKind) {
        ++run->messages[seen.first].repeats;
        return;
    }
    if (run->messages.size() >= run->config.max_messages) {
        ++run->messages_dropped;
        return;
    }
    if (seen.second++ == 0) seen.first = run->messages.size();
    m.text = message;
    run->messages.push_back(std::move(m));
}

namespace {

// A cancelled run stops where this is called: at the start of a work-group, and at every
// memory access of a work-item, so that a work-item that never ends (a loop whose exit is
// never reached, e.g. a student's k-- for k++) stops too. Oclgrind's worker catches the
// error, drops its group and stops; the others follow at their next check.
void stop_if_cancelled(Run& run) {
    if (!run.config.cancel || !run.config.cancel->load(std::memory_order_relaxed)) return;
    {
        std::lock_guard<std::mutex> lock(run.mutex);
        run.cancelled = true;
    }
    throw oclgrind::FatalError("cancelled by the user", __FILE__, __LINE__);
}

}  // namespace

void TracePlugin::memoryLoad(const oclgrind::Memory* memory, const oclgrind::WorkItem* workItem, size_t address,
                             size_t size) {
    Run* run = run_.get();
    if (!run) return;
    stop_if_cancelled(*run);
    record(*run, memory, workItem, address, size, false);
}

void TracePlugin::memoryStore(const oclgrind::Memory* memory, const oclgrind::WorkItem* workItem, size_t address,
                              size_t size, const uint8_t*) {
    Run* run = run_.get();
    if (!run) return;
    stop_if_cancelled(*run);
    // LLVM's optimiser turns `*(float4*)p = (float4)(a, b, c, d)` into a store of an
    // undefined vector followed by four scalar stores. The first writes nothing a kernel
    // can rely on and no real compiler keeps it: it is not traffic.
    if (const auto* st = llvm::dyn_cast_or_null<llvm::StoreInst>(workItem ? workItem->getCurrentInstruction() : nullptr);
        st && llvm::isa<llvm::UndefValue>(st->getValueOperand()))
        return;
    record(*run, memory, workItem, address, size, true);
}

void TracePlugin::memoryLoad(const oclgrind::Memory* memory, const oclgrind::WorkGroup*, size_t address,
                             size_t size) {
    if (Run* run = run_.get()) record_group(*run, memory, address, size, false);
}

void TracePlugin::memoryStore(const oclgrind::Memory* memory, const oclgrind::WorkGroup*, size_t address,
                              size_t size, const uint8_t*) {
    if (Run* run = run_.get()) record_group(*run, memory, address, size, true);
}

// An atomic reads and writes: it counts as one load and one store.
void TracePlugin::memoryAtomicLoad(const oclgrind::Memory* memory, const oclgrind::WorkItem* workItem,
                                   oclgrind::AtomicOp, size_t address, size_t size) {
    Run* run = run_.get();
    if (!run) return;
    stop_if_cancelled(*run);
    record(*run, memory, workItem, address, size, false);
}

void TracePlugin::memoryAtomicStore(const oclgrind::Memory* memory, const oclgrind::WorkItem* workItem,
                                    oclgrind::AtomicOp, size_t address, size_t size) {
    if (Run* run = run_.get()) record(*run, memory, workItem, address, size, true);
}

void TracePlugin::workGroupBegin(const oclgrind::WorkGroup* workGroup) {
    Run* run = run_.get();
    if (!run) return;
    stop_if_cancelled(*run);
    if (!run->local_buffers_numbered.load(std::memory_order_acquire)) {
        // Every work-group numbers its local buffers alike; the numbers name local
        // addresses in Oclgrind's messages.
        std::lock_guard<std::mutex> lock(run->mutex);
        const oclgrind::Memory* lm = workGroup->getLocalMemory();
        for (const auto& [value, index] : run->local_index)
            run->local_buffers[index].memory_buffer = lm->extractBuffer(workGroup->getLocalMemoryAddress(value));
        run->local_buffers_numbered.store(true, std::memory_order_release);
    }
    ThreadState& ts = run->thread_state();
    GroupState& g = ts.group;
    g.work_group = workGroup;
    g.last_item = nullptr;
    g.id = id3(workGroup->getGroupID());
    g.size = id3(workGroup->getGroupSize());
    g.lanes = g.size[0] * g.size[1] * g.size[2];
    g.linear = g.id[0] + static_cast<uint64_t>(run->num_groups[0]) * (g.id[1] + run->num_groups[1] * static_cast<uint64_t>(g.id[2]));
    g.detail = g.linear < run->detail_of_group.size() ? run->detail_of_group[g.linear] : -1;
    if (run->detail_truncated.load(std::memory_order_relaxed)) g.detail = -1;
    g.interval = 0;
    g.summary = abi::GroupSummary{};
    g.summary.group = g.id;
    g.touched.clear();
    g.executions.assign(ts.instructions.size() * run->max_lanes, 0);
    g.iv_global = g.iv_local = abi::AccessCounts{};
    g.iv_coalescing = abi::Coalescing{};
    g.iv_bank = abi::BankConflicts{};
    g.cache.on = run->config.caches.enabled && !run->cache_truncated.load(std::memory_order_relaxed);
    if (g.cache.on) g.cache.begin(g.linear, g.lanes);
    if (g.detail >= 0) {
        g.detail_out = abi::GroupDetail{};
        g.detail_out.group = g.id;
        g.detail_out.size = g.size;
        g.g_touches.resize(run->slots.size());
        for (BufferTouchSets& t : g.g_touches) {
            t.loads.reset(0, g.lanes, false);
            t.stores.reset(0, g.lanes, false);
        }
        g.l_touches.resize(run->local_buffers.size());
        for (size_t i = 0; i < run->local_buffers.size(); ++i) {
            const uint64_t words = (run->local_buffers[i].bytes + 3) / 4;
            g.l_touches[i].loads.reset(words, g.lanes, true);
            g.l_touches[i].stores.reset(words, g.lanes, true);
        }
        g.by_lane.assign(g.lanes, abi::WorkItemTraffic{});
        g.lane_seen.assign(g.lanes, 0);
        // Local buffer ids of this group's memory, for naming local touches.
        g.local_slot.clear();
        const oclgrind::Memory* lm = workGroup->getLocalMemory();
        for (const auto& [value, index] : run->local_index) {
            const size_t id = lm->extractBuffer(workGroup->getLocalMemoryAddress(value));
            if (g.local_slot.size() <= id) g.local_slot.resize(id + 1, -1);
            g.local_slot[id] = index;
        }
    }
}

void TracePlugin::workGroupBarrier(const oclgrind::WorkGroup* workGroup, uint32_t) {
    Run* run = run_.get();
    if (!run) return;
    ThreadState& ts = run->thread_state();
    if (ts.group.work_group != workGroup) return;
    const uint32_t line = line_of(workGroup->getCurrentBarrier());
    run->close_interval(ts, line);
    ++ts.group.summary.barriers;
    ++ts.barriers;
    ts.barrier_lines.insert(line);
}

void TracePlugin::workGroupComplete(const oclgrind::WorkGroup* workGroup) {
    Run* run = run_.get();
    if (!run) return;
    ThreadState& ts = run->thread_state();
    GroupState& g = ts.group;
    if (g.work_group != workGroup) return;
    run->close_interval(ts, 0);
    if (g.cache.on) run->keep_cache_requests(g.cache);
    uint64_t done = 0;
    bool early = false;
    {
        std::lock_guard<std::mutex> lock(run->mutex);
        run->summaries.emplace_back(g.linear, g.summary);
        if (g.detail >= 0) {
            early = run->config.partial && g.linear < run->early.size() && run->early[g.linear];
            if (early) run->pending_early.push_back(g.detail_out);
            run->details[g.detail] = std::move(g.detail_out);
            run->detail_done[g.detail] = true;
        }
        done = ++run->groups_done;
    }
    g.work_group = nullptr;
    if (run->config.progress) run->config.progress(run->config.progress_user, done, run->total_groups);
    run->maybe_partial(early);
}

}  // namespace tilescope::trace_plugin
