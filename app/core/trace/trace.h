#pragma once
// The trace of one kernel run on the emulator: for every work-group, totals; for the
// work-groups of interest, every barrier interval with the elements of each buffer that
// were loaded and stored (as rectangles in the matrix's own row/column coordinates) and
// by which work-items, plus local-memory traffic; Oclgrind's checks as diagnostics a
// student can read. Built once from what the plugin recorded, then read only: share it
// as a TraceSnapshot.
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/caches/cache_model.h"
#include "core/kernel/kernel_spec.h"
#include "core/kernel/launch_config.h"
#include "core/device/matrix.h"

namespace tilescope {

using GroupId = std::array<uint32_t, 3>;
using WorkItemId = std::array<uint32_t, 3>;

// Sizes that define coalescing and bank conflicts (docs/architecture.md, "Output contracts").
struct TraceGeometry {
    uint32_t warp = 32;        // lanes of a synthetic sub-group (--warp)
    uint32_t sector_bytes = 32;  // coalescing granule (--sector)
    uint32_t banks = 32;       // local-memory banks of 4 bytes (--banks)
    uint32_t bank_bytes = 4;
    bool operator==(const TraceGeometry&) const = default;
};

struct AccessTotals {
    uint64_t load_bytes = 0, store_bytes = 0;
    uint64_t loads = 0, stores = 0;  // instructions executed
    bool operator==(const AccessTotals&) const = default;
};

struct CoalescingCounts {
    uint64_t requests = 0, sectors = 0;
    // Summed over requests: the sectors a full sub-group would touch reading consecutive
    // elements of that request's access width (4 for floats, 16 for float4; trace_abi.h).
    uint64_t ideal_sectors = 0;
    double sectors_per_request() const { return requests ? double(sectors) / double(requests) : 0.0; }
    double ideal_sectors_per_request() const { return requests ? double(ideal_sectors) / double(requests) : 0.0; }
    bool operator==(const CoalescingCounts&) const = default;
};

struct BankConflictCounts {
    uint64_t requests = 0, degree_sum = 0, conflicted_requests = 0;
    uint32_t max_degree = 0;
    double mean_degree() const { return requests ? double(degree_sum) / double(requests) : 0.0; }
    bool operator==(const BankConflictCounts&) const = default;
};

// Inclusive rectangle of elements in a matrix's (row, col) coordinates.
struct Rect {
    int64_t r0 = 0, c0 = 0, r1 = 0, c1 = 0;
    int64_t rows() const { return r1 - r0 + 1; }
    int64_t cols() const { return c1 - c0 + 1; }
    int64_t area() const { return rows() * cols(); }
    bool operator==(const Rect&) const = default;
};

// A global/constant buffer as the kernel saw it. Matrices carry their shape and layout;
// other buffers are one row of `elements`.
struct TracedBuffer {
    std::string name;
    bool constant = false;
    bool is_matrix = false;
    int64_t rows = 1, cols = 0;
    Layout layout = Layout::RowMajor;
    uint32_t element_size = 4;
    uint64_t elements = 0;
    AccessTotals traffic;
    uint64_t distinct_elements_loaded = 0, distinct_elements_stored = 0;
    uint64_t out_of_range = 0;
    std::vector<uint32_t> load_counts;   // per element in storage order: the heatmap
    std::vector<uint32_t> store_counts;

    // (row, col) of an element index, and back, honouring the layout.
    std::array<int64_t, 2> coords(uint64_t element) const;
    uint64_t element(int64_t row, int64_t col) const;
    uint32_t loads_at(int64_t row, int64_t col) const;  // heatmap in matrix coordinates
    bool operator==(const TracedBuffer&) const = default;
};

// A __local array or argument with its declared shape in 4-byte words: `T a[R][C]` is
// R rows of C*sizeof(T)/4 words (float4 t[64][4] is 64 x 16); a 1D array or a
// `__local float*` argument is one row.
struct LocalBuffer {
    std::string name;
    uint64_t bytes = 0;
    uint64_t rows = 1, cols = 0;
    bool operator==(const LocalBuffer&) const = default;
};

// One element touched by one work-item (or by the whole group at once), as traced.
struct ElementTouch {
    static constexpr uint32_t kWholeGroup = 0xffffffffu;  // e.g. an async copy
    uint32_t element = 0;    // element index in the buffer (or 4-byte word of a local array)
    uint32_t work_item = 0;  // linear local id (dimension 0 fastest), or kWholeGroup
    bool operator<(const ElementTouch& o) const {
        return element != o.element ? element < o.element : work_item < o.work_item;
    }
    bool operator==(const ElementTouch& o) const = default;
};

// Which elements of one buffer an interval touched, and by whom.
struct BufferIntervalAccess {
    std::string buffer;
    bool local = false;                 // a __local buffer (elements are 4-byte words)
    std::vector<Rect> loaded, stored;   // rectangles covering exactly the touched elements
    uint64_t elements_loaded = 0, elements_stored = 0;
    std::vector<ElementTouch> loads, stores;  // (element, linear local id), sorted
    bool operator==(const BufferIntervalAccess&) const = default;
};

struct WorkItemTraffic {
    uint32_t work_item = 0;  // linear local id (dimension 0 fastest)
    AccessTotals global, local;
    bool operator==(const WorkItemTraffic&) const = default;
};

// One access of one work-item, in the order it made them (detail groups only). Global/
// constant and local memory; private is left out. Kept as 16 plain bytes: a trace holds
// one per access of each detail group.
struct MemoryAccess {
    static constexpr uint8_t kLocal = 1;  // local memory; else global/constant
    static constexpr uint8_t kStore = 2;  // a store; else a load
    static constexpr uint8_t kValue = 4;  // the words it stored are in WorkItemAccesses::stored_words
    uint32_t element = 0;      // global: first element covered; local: 4-byte word
    uint32_t line = 0;         // source line
    uint32_t value_begin = 0;  // with kValue: its first stored word
    uint16_t buffer = 0;       // index into Trace::buffers, or Trace::local_buffers when local
    uint8_t size = 0;          // bytes accessed
    uint8_t flags = 0;

    bool local() const { return flags & kLocal; }
    bool store() const { return flags & kStore; }
    bool has_value() const { return flags & kValue; }
    uint32_t value_count() const { return has_value() ? (uint32_t(size) + 3) / 4 : 0; }
    bool operator==(const MemoryAccess&) const = default;
};
static_assert(sizeof(MemoryAccess) == 16, "MemoryAccess is saved as raw 16-byte records");

// A work-item's accesses within one barrier interval, and the words its local stores
// wrote (4 to a word from the store's address), from which the host tells which global
// element a local cell holds (core/trace/frame.h).
struct WorkItemAccesses {
    uint32_t work_item = 0;  // linear local id (dimension 0 fastest)
    std::vector<MemoryAccess> accesses;
    std::vector<uint32_t> stored_words;
    bool operator==(const WorkItemAccesses&) const = default;
};

// The span between two barriers of one work-group.
struct BarrierInterval {
    int index = 0;
    int end_line = 0;  // source line of the barrier that closes it; 0: the work-group ended
    AccessTotals global, local;
    CoalescingCounts coalescing;
    BankConflictCounts bank_conflicts;
    std::vector<BufferIntervalAccess> buffers;        // global buffers touched
    std::vector<BufferIntervalAccess> local_buffers;  // local buffers touched
    std::vector<WorkItemTraffic> work_items;
    std::vector<WorkItemAccesses> access_log;  // work-items in linear order; empty for traces without it

    const BufferIntervalAccess* find(std::string_view buffer) const;  // global or local
    bool operator==(const BarrierInterval&) const = default;
};

struct GroupTrace {
    GroupId group{};
    std::array<uint32_t, 3> size{};
    std::vector<BarrierInterval> intervals;

    // Linear local id -> local id, dimension 0 fastest.
    WorkItemId local_id(uint32_t linear) const;
    bool operator==(const GroupTrace&) const = default;
};

struct GroupTotals {
    GroupId group{};
    uint32_t barriers = 0;
    AccessTotals global, local;
    bool operator==(const GroupTotals&) const = default;
};

struct LineTraffic {
    int line = 0;
    bool local = false;
    AccessTotals traffic;
    CoalescingCounts coalescing;
    BankConflictCounts bank_conflicts;
    bool operator==(const LineTraffic&) const = default;
};

enum class DiagnosticKind { Race, Divergence, OutOfBounds, Uninitialized, Other };
std::string_view to_string(DiagnosticKind kind);  // "race", "divergence", "out_of_bounds", ...

struct Diagnostic {
    DiagnosticKind kind = DiagnosticKind::Other;
    std::string message;                // one sentence a student can read
    int line = 0;                       // source line; 0 when unknown
    std::vector<WorkItemId> work_items; // global ids involved (the first few)
    uint64_t count = 1;                 // how many times Oclgrind reported it
    std::string oclgrind_text;          // Oclgrind's own words, first occurrence
    bool operator==(const Diagnostic&) const = default;
};

struct TraceTotals {
    uint64_t global_load_bytes = 0, global_store_bytes = 0;
    uint64_t local_load_bytes = 0, local_store_bytes = 0;
    uint64_t private_load_bytes = 0, private_store_bytes = 0;  // compiler noise, kept apart
    uint64_t global_loads = 0, global_stores = 0, local_loads = 0, local_stores = 0;
    uint64_t barriers = 0;  // barrier releases summed over work-groups
    double flops = 0;       // 2*M*N*K
    bool operator==(const TraceTotals&) const = default;
};

struct Trace {
    std::string kernel;       // catalog name or custom kernel name
    std::string entry;
    bool custom = false;      // from --source: no closed forms to compare with
    std::string device = "emulator";
    ProblemSize size;
    int tile = 0;
    std::map<std::string, int64_t> params;  // every tunable parameter's value in effect (TSK, WPTM, ...)
    int dims = 1;
    std::array<uint64_t, 3> global{1, 1, 1}, local{1, 1, 1}, groups{1, 1, 1};
    TraceGeometry geometry;
    bool checks = true;       // Oclgrind's race/uninitialised checks were on
    std::string checks_off_because;  // why they were off, when the GUI turned them off itself (not saved)
    bool complete = true;     // every work-group ran
    // A snapshot taken while the launch still ran (issue 12, the first picture at once):
    // group_totals, totals' global/local counts and barriers cover the work-groups done so
    // far, and `detail` holds the groups asked for early that completed; heatmaps, lines,
    // coalescing, bank conflicts, diagnostics and verification come with the final trace.
    bool partial = false;
    bool detail_truncated = false;

    TraceTotals totals;
    CoalescingCounts coalescing;
    BankConflictCounts bank_conflicts;
    std::vector<TracedBuffer> buffers;      // global/constant parameters, in parameter order
    std::vector<LocalBuffer> local_buffers;
    std::vector<LineTraffic> lines;
    std::vector<int> barrier_lines;
    std::vector<GroupTotals> group_totals;  // every work-group
    std::vector<GroupTrace> detail;         // the work-groups of interest
    std::vector<Diagnostic> diagnostics;
    uint64_t messages_dropped = 0;
    double seconds = 0;                     // the emulated launch, as the host timed it
    std::optional<Verification> verification;  // the emulator's C against the CPU reference
    // Every cell of C whose value is wrong against the CPU reference, (row, col) in row
    // order, beyond verification_tolerance; empty when there is no reference (no check).
    std::vector<std::array<int64_t, 2>> wrong_cells;
    std::optional<HostMatrix> result;          // the emulator's C, kept when the kernel has a check
    std::vector<int> dropped_barriers;         // source lines whose barrier was removed (--drop-barrier)
    // The cache model's input, when traced with TraceOptions::cache_requests, and its
    // report when a profile was applied (modelled figures, issue 11).
    std::shared_ptr<const CacheRequestStream> cache_requests;
    bool cache_requests_truncated = false;
    std::optional<CacheReport> caches;

    uint64_t total_groups() const { return groups[0] * groups[1] * groups[2]; }
    const TracedBuffer* find_buffer(std::string_view name) const;
    const GroupTrace* find_group(const GroupId& group) const;
    bool operator==(const Trace&) const = default;
};

using TraceSnapshot = std::shared_ptr<const Trace>;

// Smallest set of rectangles covering exactly `elements` (sorted element indices, may
// repeat) of a buffer: runs along rows, merged down columns when they line up.
std::vector<Rect> cover_rectangles(const TracedBuffer& buffer, const std::vector<uint64_t>& elements);

}  // namespace tilescope
