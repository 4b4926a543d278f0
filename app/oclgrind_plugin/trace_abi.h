#pragma once
// What crosses between the app and the trace plugin. Oclgrind dlopen()s the plugin, so
// the app reaches the same loaded library with dlopen() of the same path plus dlsym()
// of the two entry points below. Both sides are built by the same compiler against the
// same C++ library, so plain structs and std containers can cross; no Oclgrind or LLVM
// type appears here, and nothing here needs RTTI (the plugin is built -fno-rtti).
//
// Protocol: configure() arms the plugin; the next launch of the named kernel in any
// Oclgrind context of the process is traced; after it ends, take() hands the result
// over once. A second configure() before take() discards what was not taken.
#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace tilescope::trace_abi {

// 3: IntervalDetail::access_log (each detail work-item's accesses in order, with the
// words it stored into local memory). 4: CacheRecording::max_bytes, a bound in bytes where
// max_sectors counted sectors.
inline constexpr uint32_t kVersion = 4;

// Work-item of an access made by a work-group as a whole (async_work_group_copy).
inline constexpr uint32_t kWholeGroup = 0xffffffffu;

using Id3 = std::array<uint32_t, 3>;

// Element size of a buffer argument, by parameter name. Pointer arguments not listed
// get the size of their OpenCL element type (float* -> 4, float4* -> 16).
struct BufferHint {
    std::string name;
    uint32_t element_size = 4;
};

// The cache model's input (issue 11): every traced global request, kept per work-group
// in the order a lockstep GPU issues it. Off by default: only a trace that will be
// modelled pays for it (about 40 bytes a request plus 8 a sector).
struct CacheRecording {
    bool enabled = false;
    // Recording stops (and says so) once the completed groups' requests would take more than
    // this: 8 bytes a sector and 28 a request here, 8 and 16 again in the model's stream.
    uint64_t max_bytes = 4'000'000'000;
};

struct Result;

struct Config {
    uint32_t version = kVersion;
    std::string kernel;               // entry point to trace; empty: the next launch of any kernel
    std::vector<BufferHint> buffers;
    std::vector<Id3> detail_groups;   // element-level detail only for these work-groups
    uint32_t warp = 32;               // lanes of a synthetic sub-group
    uint32_t sector_bytes = 32;       // coalescing granule (a power of two)
    uint32_t banks = 32;              // local-memory banks
    uint32_t bank_bytes = 4;          // width of one bank (a power of two)
    uint32_t max_messages = 200;      // distinct Oclgrind messages kept word for word; the rest are counted
    uint64_t max_detail_touches = 50'000'000;  // detail stops (and says so) beyond this many records
                                               // (touches and access-log records together)
    const std::atomic<bool>* cancel = nullptr;  // when set, the run stops at the next work-group
    // Called from Oclgrind's worker threads after each work-group (must be thread safe).
    void (*progress)(void* user, uint64_t groups_done, uint64_t groups_total) = nullptr;
    void* progress_user = nullptr;
    CacheRecording caches;            // the cache model's input (off unless asked for)
    // Streaming (issue 12: the first picture at once). When `partial` is set, it is called
    // from a worker thread, one call at a time, with what is known so far: the launch's
    // shape, the buffers (no heatmaps), the local buffers, the summaries of the work-groups
    // done (in linear order), their summed global and local counts and barriers, and the
    // detail of the `early_groups` (which must be detail groups) that completed since the
    // previous call. It is called at once when an early group completes, and otherwise at
    // most every `partial_interval_ms` while groups complete. Never after kernelEnd.
    std::vector<Id3> early_groups;
    uint32_t partial_interval_ms = 250;
    void (*partial)(void* user, const Result& so_far) = nullptr;
    void* partial_user = nullptr;
};

struct AccessCounts {
    uint64_t load_bytes = 0, store_bytes = 0;
    uint64_t loads = 0, stores = 0;  // accesses (one per load/store instruction executed)

    AccessCounts& operator+=(const AccessCounts& o) {
        load_bytes += o.load_bytes;
        store_bytes += o.store_bytes;
        loads += o.loads;
        stores += o.stores;
        return *this;
    }
};

// Coalescing on global memory: a request is one memory instruction executed by one
// synthetic sub-group within one barrier interval; sectors are the distinct aligned
// sector_bytes segments it touches. Its ideal is what warp lanes reading consecutive
// elements of its access width touch: ceil(warp * width / sector_bytes) (4 for floats,
// 16 for float4 with 32 lanes and 32-byte sectors).
struct Coalescing {
    uint64_t requests = 0, sectors = 0;
    uint64_t ideal_sectors = 0;  // summed over requests
};

// Bank conflicts on local memory: same requests; the degree of one is the largest
// number of distinct bank_bytes words falling into one bank (1 = none). An access W
// bytes wide (W > bank_bytes) is served in W / bank_bytes passes of warp * bank_bytes / W
// lanes each, and its W-byte words are judged against banks * bank_bytes / W groups of
// banks: 32 lanes reading consecutive float4 take 4 passes of 8 lanes in 8 groups,
// degree 1.
struct BankConflicts {
    uint64_t requests = 0, degree_sum = 0;
    uint32_t max_degree = 0;
    uint64_t conflicted_requests = 0;  // degree > 1
};

struct BufferStats {
    std::string name;           // kernel parameter name; "(unbound)" for memory no parameter points at
    int32_t arg_index = -1;
    uint32_t element_size = 4;
    uint64_t elements = 0;      // elements from the parameter's address to the buffer's end
    bool constant = false;      // __constant rather than __global
    uint64_t memory_buffer = 0; // Oclgrind's buffer number (the top bits of its addresses)
    uint64_t base_offset = 0;   // byte offset of the parameter's address inside that buffer
    AccessCounts counts;
    uint64_t out_of_range = 0;  // accesses outside the buffer (also reported by Oclgrind)
    std::vector<uint32_t> load_counts;   // per element: loads that touched it (the heatmap)
    std::vector<uint32_t> store_counts;  // per element: stores that touched it
};

struct LocalBufferInfo {
    std::string name;  // parameter name, or the __local array's name
    uint64_t bytes = 0;
    uint64_t rows = 1, cols = 0;  // a 2D __local array's shape in 4-byte words; else 1 x bytes/4
    uint64_t memory_buffer = 0;   // its buffer number in every work-group's local memory (0: unknown)
};

// Traffic of one source line (one entry per line and address space).
struct LineStats {
    uint32_t line = 0;
    bool local = false;  // local memory; else global/constant
    AccessCounts counts;
    Coalescing coalescing;         // global lines
    BankConflicts bank_conflicts;  // local lines
};

struct GroupSummary {
    Id3 group{};
    uint32_t barriers = 0;  // intervals = barriers + 1
    AccessCounts global, local;
};

struct ElementTouch {
    uint32_t element = 0;    // element index from the parameter's address (bytes / element size)
    uint32_t work_item = 0;  // linear local id (dimension 0 fastest), or kWholeGroup
    bool operator<(const ElementTouch& o) const {
        return element != o.element ? element < o.element : work_item < o.work_item;
    }
    bool operator==(const ElementTouch& o) const { return element == o.element && work_item == o.work_item; }
};

// Distinct (element, work-item) pairs of one buffer within one interval, sorted.
struct BufferTouches {
    uint32_t buffer = 0;  // index into Result::buffers, or Result::local_buffers for local
    std::vector<ElementTouch> loads, stores;
};

struct WorkItemTraffic {
    uint32_t work_item = 0;
    AccessCounts global, local;
};

// One access of one work-item of a detail group, in the order the work-item made them
// (ABI 3). Global/constant and local memory only (private is compiler noise). With the
// words a local store wrote, the host can tell which global element a local cell holds:
// it knows the input matrices' values (random_matrix) and matches them.
struct AccessRecord {
    static constexpr uint8_t kLocal = 1;  // local memory; else global/constant
    static constexpr uint8_t kStore = 2;  // a store; else a load (an atomic is one of each)
    static constexpr uint8_t kValue = 4;  // its stored words are in WorkItemAccessLog::stored_words
    uint32_t element = 0;      // global: first element covered (from the parameter's address);
                               // local: 4-byte word (byte offset / 4)
    uint32_t line = 0;         // source line of the instruction
    uint32_t value_begin = 0;  // kValue: index of its first stored word; it has (size + 3) / 4
    uint16_t buffer = 0;       // index into Result::buffers, or Result::local_buffers when kLocal
    uint8_t size = 0;          // bytes accessed (255 at most; OpenCL C's widest type is 128)
    uint8_t flags = 0;
};

// A work-item's accesses within one barrier interval.
struct WorkItemAccessLog {
    uint32_t work_item = 0;               // linear local id (dimension 0 fastest)
    std::vector<AccessRecord> accesses;   // in program order
    std::vector<uint32_t> stored_words;   // local stores' bytes, 4 to a word from the store's
                                          // address (a last partial word zero-padded)
};

struct IntervalDetail {
    uint32_t index = 0;
    uint32_t end_line = 0;  // source line of the barrier that closes it; 0: the work-group ended
    AccessCounts global, local;
    Coalescing coalescing;
    BankConflicts bank_conflicts;
    std::vector<BufferTouches> global_touches;  // elements of global/constant buffers
    std::vector<BufferTouches> local_touches;   // 4-byte words of local buffers
    std::vector<WorkItemTraffic> work_items;    // every work-item that accessed memory
    // Every access of every work-item, in order (work-items in linear order). Counts
    // towards Config::max_detail_touches, one record per access.
    std::vector<WorkItemAccessLog> access_log;
};

struct GroupDetail {
    Id3 group{};
    Id3 size{};  // work-items per dimension
    std::vector<IntervalDetail> intervals;
};

// One message Oclgrind emitted while the traced kernel ran (races, divergence,
// invalid accesses, uninitialised values), with where it came from.
struct Message {
    uint32_t type = 0;  // Oclgrind's MessageType: 0 debug, 1 info, 2 warning, 3 error
    std::string text;
    bool has_group = false, has_work_item = false;
    Id3 group{}, work_item_global{}, work_item_local{};
    uint32_t line = 0;  // line of the instruction being executed when it was sent, if any
    uint64_t repeats = 0;  // later messages that differed only in addresses and ids
};

// One synthetic sub-group request on global memory (the same requests as coalescing).
struct CacheRequest {
    uint32_t interval = 0;      // barrier interval of its work-group
    uint32_t access_index = 0;  // its lanes' dynamic global-access index within the interval (the smallest)
    uint32_t subgroup = 0;      // linear local id / warp
    uint32_t line = 0;          // source line
    uint32_t sector_begin = 0;  // its sectors: CacheGroupRequests::sectors[begin, begin + count)
    uint32_t sector_count = 0;
    uint16_t buffer = 0;        // index into Result::buffers
    bool load = false, store = false;  // an atomic is both
};

// A work-group's requests, sorted by (interval, access_index, subgroup, line, store, first sector).
struct CacheGroupRequests {
    uint64_t group = 0;             // linear work-group index (dimension 0 fastest)
    std::vector<CacheRequest> requests;
    std::vector<uint64_t> sectors;  // Oclgrind address >> log2(sector_bytes), sorted within a request
};

struct Result {
    uint32_t version = kVersion;
    bool complete = false;   // every work-group ran
    bool cancelled = false;
    bool detail_truncated = false;  // max_detail_touches was reached
    std::string kernel;
    uint32_t work_dim = 1;
    std::array<uint64_t, 3> global_size{1, 1, 1}, local_size{1, 1, 1}, num_groups{1, 1, 1};
    uint32_t warp = 32, sector_bytes = 32, banks = 32, bank_bytes = 4;
    uint32_t address_offset_bits = 48;  // Oclgrind address = buffer << bits | offset
    uint64_t groups_run = 0;
    AccessCounts global, local, private_mem;  // private is compiler noise, kept apart
    uint64_t barriers = 0;                    // barrier releases summed over work-groups
    Coalescing coalescing;
    BankConflicts bank_conflicts;
    std::vector<BufferStats> buffers;
    std::vector<LocalBufferInfo> local_buffers;
    std::vector<LineStats> lines;          // sorted by line
    std::vector<uint32_t> barrier_lines;   // distinct, sorted
    std::vector<GroupSummary> groups;      // every work-group run, in linear group order
    std::vector<GroupDetail> details;      // the detail groups that ran, in the order asked
    std::vector<Message> messages;
    uint64_t messages_dropped = 0;
    double seconds = 0;                    // kernelBegin to kernelEnd
    std::vector<CacheGroupRequests> cache_groups;  // when Config::caches.enabled, in linear group order
    bool cache_truncated = false;                   // CacheRecording::max_bytes was reached
};

// Entry points exported by libtilescope_trace.so (extern "C", found with dlsym).
// configure: copies the config and arms the plugin; false when versions differ.
// take: moves the last finished trace into *out; false when none is waiting.
using ConfigureFn = bool (*)(const Config* config);
using TakeFn = bool (*)(Result* out);
inline constexpr const char* kConfigureSymbol = "tilescope_trace_configure";
inline constexpr const char* kTakeSymbol = "tilescope_trace_take";

}  // namespace tilescope::trace_abi
