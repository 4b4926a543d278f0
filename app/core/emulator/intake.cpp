#include "core/emulator/intake.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "core/emulator/cache_intake.h"
#include "core/emulator/oclgrind_messages.h"

namespace tilescope {
namespace abi = trace_abi;

TraceContext trace_context(const LaunchConfig& config, const ResolvedLaunch& launch, bool checks) {
    TraceContext c;
    c.kernel = config.kernel.name;
    c.entry = config.kernel.entry;
    c.custom = config.kernel.custom;
    c.size = config.size;
    c.tile = config.tile;
    c.params = launch.params;
    c.dims = launch.dims;
    c.flops = launch.flops;
    c.checks = checks;
    c.args = launch.args;
    return c;
}

namespace {

AccessTotals totals_of(const abi::AccessCounts& c) { return {c.load_bytes, c.store_bytes, c.loads, c.stores}; }
CoalescingCounts coalescing_of(const abi::Coalescing& c) { return {c.requests, c.sectors, c.ideal_sectors}; }
BankConflictCounts bank_of(const abi::BankConflicts& b) {
    return {b.requests, b.degree_sum, b.conflicted_requests, b.max_degree};
}

std::vector<ElementTouch> touches_of(const std::vector<abi::ElementTouch>& raw) {
    std::vector<ElementTouch> out;
    out.reserve(raw.size());
    for (const abi::ElementTouch& t : raw)
        out.push_back({t.element, t.work_item == abi::kWholeGroup ? ElementTouch::kWholeGroup : t.work_item});
    return out;
}

std::vector<uint64_t> elements_of(const std::vector<ElementTouch>& touches) {
    std::vector<uint64_t> e;
    e.reserve(touches.size());
    for (const auto& t : touches)
        if (e.empty() || e.back() != t.element) e.push_back(t.element);  // touches are sorted by element
    return e;
}

BufferIntervalAccess interval_access(const TracedBuffer& shape, const abi::BufferTouches& t, bool local) {
    BufferIntervalAccess a;
    a.buffer = shape.name;
    a.local = local;
    a.loads = touches_of(t.loads);
    a.stores = touches_of(t.stores);
    const std::vector<uint64_t> loaded = elements_of(a.loads), stored = elements_of(a.stores);
    a.elements_loaded = loaded.size();
    a.elements_stored = stored.size();
    a.loaded = cover_rectangles(shape, loaded);
    a.stored = cover_rectangles(shape, stored);
    return a;
}

// --- The steps of build_trace, in order ---

void take_launch(Trace& t, const abi::Result& raw, const TraceContext& context) {
    t.kernel = context.kernel;
    t.entry = context.entry.empty() ? raw.kernel : context.entry;
    t.custom = context.custom;
    t.size = context.size;
    t.tile = context.tile;
    t.params = context.params;
    t.dims = static_cast<int>(raw.work_dim ? raw.work_dim : context.dims);
    t.global = raw.global_size;
    t.local = raw.local_size;
    t.groups = raw.num_groups;
    t.geometry = {raw.warp, raw.sector_bytes, raw.banks, raw.bank_bytes};
    t.checks = context.checks;
    t.complete = raw.complete;
    t.detail_truncated = raw.detail_truncated;
    t.seconds = raw.seconds;
}

void take_cache_requests(Trace& t, const abi::Result& raw) {
    t.cache_requests_truncated = raw.cache_truncated;
    if (!raw.cache_groups.empty()) t.cache_requests = std::make_shared<const CacheRequestStream>(cache_stream(raw));
}

void take_totals(Trace& t, const abi::Result& raw, const TraceContext& context) {
    t.totals.global_load_bytes = raw.global.load_bytes;
    t.totals.global_store_bytes = raw.global.store_bytes;
    t.totals.global_loads = raw.global.loads;
    t.totals.global_stores = raw.global.stores;
    t.totals.local_load_bytes = raw.local.load_bytes;
    t.totals.local_store_bytes = raw.local.store_bytes;
    t.totals.local_loads = raw.local.loads;
    t.totals.local_stores = raw.local.stores;
    t.totals.private_load_bytes = raw.private_mem.load_bytes;
    t.totals.private_store_bytes = raw.private_mem.store_bytes;
    t.totals.barriers = raw.barriers;
    t.totals.flops = context.flops;
    t.coalescing = coalescing_of(raw.coalescing);
    t.bank_conflicts = bank_of(raw.bank_conflicts);
}

// Buffers in parameter order; memory no parameter points at only when touched. Returns,
// for each of the plugin's buffers, its index in t.buffers (-1: left out).
std::vector<int> take_buffers(Trace& t, abi::Result& raw, const TraceContext& context) {
    std::vector<int> buffer_index(raw.buffers.size(), -1);
    for (size_t i = 0; i < raw.buffers.size(); ++i) {
        abi::BufferStats& b = raw.buffers[i];
        if (b.arg_index < 0 && b.counts.loads + b.counts.stores == 0) continue;
        TracedBuffer tb;
        tb.name = b.name;
        tb.constant = b.constant;
        tb.element_size = b.element_size;
        tb.elements = b.elements;
        tb.cols = static_cast<int64_t>(b.elements);
        for (const ResolvedArg& a : context.args)
            if (a.spec.kind == ArgSpec::Kind::Matrix && a.spec.name == b.name && a.rows > 0 && a.cols > 0) {
                tb.is_matrix = true;
                tb.rows = a.rows;
                tb.cols = a.cols;
                tb.layout = a.spec.layout;
            }
        tb.traffic = totals_of(b.counts);
        tb.out_of_range = b.out_of_range;
        tb.distinct_elements_loaded = static_cast<uint64_t>(
            std::count_if(b.load_counts.begin(), b.load_counts.end(), [](uint32_t c) { return c != 0; }));
        tb.distinct_elements_stored = static_cast<uint64_t>(
            std::count_if(b.store_counts.begin(), b.store_counts.end(), [](uint32_t c) { return c != 0; }));
        tb.load_counts = std::move(b.load_counts);
        tb.store_counts = std::move(b.store_counts);
        buffer_index[i] = static_cast<int>(t.buffers.size());
        t.buffers.push_back(std::move(tb));
    }
    return buffer_index;
}

// The local arrays as declared (rows x cols of 4-byte words); returns their shapes for
// placing touched words in rows and columns.
std::vector<TracedBuffer> take_local_arrays(Trace& t, const abi::Result& raw) {
    std::vector<TracedBuffer> shapes;
    for (const abi::LocalBufferInfo& l : raw.local_buffers) {
        t.local_buffers.push_back({l.name, l.bytes, std::max<uint64_t>(1, l.rows), l.cols});
        TracedBuffer shape;
        shape.name = l.name;
        shape.is_matrix = l.rows > 1;
        shape.rows = static_cast<int64_t>(std::max<uint64_t>(1, l.rows));
        shape.cols = static_cast<int64_t>(l.cols);
        shape.elements = l.rows * l.cols;
        shapes.push_back(shape);
    }
    return shapes;
}

void take_lines_and_groups(Trace& t, const abi::Result& raw) {
    for (const abi::LineStats& l : raw.lines)
        t.lines.push_back({static_cast<int>(l.line), l.local, totals_of(l.counts), coalescing_of(l.coalescing),
                           bank_of(l.bank_conflicts)});
    for (uint32_t l : raw.barrier_lines) t.barrier_lines.push_back(static_cast<int>(l));
    for (const abi::GroupSummary& g : raw.groups)
        t.group_totals.push_back({g.group, g.barriers, totals_of(g.global), totals_of(g.local)});
}

// The access log with global buffers renumbered as Trace::buffers (records of a buffer
// the trace left out, or of an unknown local buffer, are dropped).
std::vector<WorkItemAccesses> access_log_of(const abi::IntervalDetail& iv, const std::vector<int>& buffer_index,
                                            size_t local_buffers) {
    static_assert(MemoryAccess::kLocal == abi::AccessRecord::kLocal && MemoryAccess::kStore == abi::AccessRecord::kStore &&
                  MemoryAccess::kValue == abi::AccessRecord::kValue);
    std::vector<WorkItemAccesses> out;
    out.reserve(iv.access_log.size());
    for (const abi::WorkItemAccessLog& log : iv.access_log) {
        WorkItemAccesses w;
        w.work_item = log.work_item;
        w.stored_words = log.stored_words;
        w.accesses.reserve(log.accesses.size());
        for (const abi::AccessRecord& r : log.accesses) {
            MemoryAccess m{r.element, r.line, r.value_begin, r.buffer, r.size, r.flags};
            if (m.local()) {
                if (r.buffer >= local_buffers) continue;
            } else {
                if (r.buffer >= buffer_index.size() || buffer_index[r.buffer] < 0) continue;
                m.buffer = static_cast<uint16_t>(buffer_index[r.buffer]);
            }
            if (m.has_value() && size_t(m.value_begin) + m.value_count() > w.stored_words.size()) m.flags &= ~MemoryAccess::kValue;
            w.accesses.push_back(m);
        }
        out.push_back(std::move(w));
    }
    return out;
}

BarrierInterval interval_of(const abi::IntervalDetail& iv, const Trace& t, const std::vector<int>& buffer_index,
                            const std::vector<TracedBuffer>& local_shapes) {
    BarrierInterval bi;
    bi.index = static_cast<int>(iv.index);
    bi.end_line = static_cast<int>(iv.end_line);
    bi.global = totals_of(iv.global);
    bi.local = totals_of(iv.local);
    bi.coalescing = coalescing_of(iv.coalescing);
    bi.bank_conflicts = bank_of(iv.bank_conflicts);
    for (const abi::BufferTouches& bt : iv.global_touches) {
        if (bt.buffer >= buffer_index.size() || buffer_index[bt.buffer] < 0) continue;
        bi.buffers.push_back(interval_access(t.buffers[buffer_index[bt.buffer]], bt, false));
    }
    std::sort(bi.buffers.begin(), bi.buffers.end(),
              [&](const auto& a, const auto& b) { return t.find_buffer(a.buffer) < t.find_buffer(b.buffer); });
    for (const abi::BufferTouches& bt : iv.local_touches) {
        if (bt.buffer >= local_shapes.size()) continue;
        bi.local_buffers.push_back(interval_access(local_shapes[bt.buffer], bt, true));
    }
    for (const abi::WorkItemTraffic& w : iv.work_items)
        bi.work_items.push_back({w.work_item, totals_of(w.global), totals_of(w.local)});
    bi.access_log = access_log_of(iv, buffer_index, local_shapes.size());
    return bi;
}

// Element-level detail of the groups the plugin kept it for, interval by interval.
void take_group_detail(Trace& t, const abi::Result& raw, const std::vector<int>& buffer_index,
                       const std::vector<TracedBuffer>& local_shapes) {
    for (const abi::GroupDetail& g : raw.details) {
        GroupTrace gt;
        gt.group = g.group;
        gt.size = g.size;
        for (const abi::IntervalDetail& iv : g.intervals)
            gt.intervals.push_back(interval_of(iv, t, buffer_index, local_shapes));
        t.detail.push_back(std::move(gt));
    }
}

}  // namespace

Trace build_trace(abi::Result&& raw, const TraceContext& context) {
    Trace t;
    take_launch(t, raw, context);
    take_cache_requests(t, raw);
    take_totals(t, raw, context);
    t.diagnostics = diagnose(raw);
    t.messages_dropped = raw.messages_dropped;
    const std::vector<int> buffer_index = take_buffers(t, raw, context);
    const std::vector<TracedBuffer> local_shapes = take_local_arrays(t, raw);
    take_lines_and_groups(t, raw);
    take_group_detail(t, raw, buffer_index, local_shapes);
    return t;
}

}  // namespace tilescope
