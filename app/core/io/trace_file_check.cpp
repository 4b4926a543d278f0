#include "core/io/trace_file_check.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <string>

#include "core/base/errors.h"
#include "core/base/input_budget.h"
#include "core/caches/cache_model.h"
#include "core/emulator/trace_runner.h"
#include "core/base/untrusted_file.h"
#include "core/io/trace_file.h"

namespace tilescope {
namespace {

[[noreturn]] void bad(const std::string& field, const std::string& what) { throw InputError(field + ": " + what); }

std::string num(uint64_t v) { return std::to_string(v); }

void in_range(const std::string& field, int64_t v, int64_t lo, int64_t hi) {
    if (v < lo || v > hi)
        bad(field, std::to_string(v) + "; accepted: " + std::to_string(lo) + " to " + std::to_string(hi));
}

// a * b, refused when it passes `limit` (no wrap-around: both are at most 2^63).
uint64_t product(const std::string& field, uint64_t a, uint64_t b, uint64_t limit) {
    if (a != 0 && b > limit / a) bad(field, num(a) + " x " + num(b) + "; accepted: at most " + num(limit) + " in all");
    return a * b;
}

void finite(const std::string& field, double v, bool non_negative = true) {
    if (!std::isfinite(v) || (non_negative && v < 0)) bad(field, std::to_string(v) + "; accepted: a finite number >= 0");
}

void text(const std::string& field, const std::string& s, size_t max_chars = 1 << 20) {
    if (!valid_utf8(s)) bad(field, "not valid UTF-8 text");
    if (s.size() > max_chars) bad(field, num(s.size()) + " characters; accepted: at most " + num(max_chars));
}

// A region elements are indexed into: `rows` x `cols`, `elements` in all.
struct Extent {
    uint64_t rows = 0, cols = 0, elements = 0;
};

void check_rects(const std::string& field, const std::vector<Rect>& rects, const Extent& e) {
    for (const Rect& r : rects)
        if (r.r0 < 0 || r.c0 < 0 || r.r0 > r.r1 || r.c0 > r.c1 || uint64_t(r.r1) >= e.rows || uint64_t(r.c1) >= e.cols)
            bad(field, "rectangle [" + std::to_string(r.r0) + "," + std::to_string(r.c0) + "," + std::to_string(r.r1) + "," +
                           std::to_string(r.c1) + "] outside the " + num(e.rows) + " x " + num(e.cols) + " it belongs to");
}

void check_touches(const std::string& field, const std::vector<ElementTouch>& touches, const Extent& e, uint64_t items) {
    for (const ElementTouch& t : touches) {
        if (t.element >= e.elements) bad(field, "element " + num(t.element) + " of a buffer of " + num(e.elements));
        if (t.work_item != ElementTouch::kWholeGroup && t.work_item >= items)
            bad(field, "work-item " + num(t.work_item) + " of a work-group of " + num(items));
    }
}

void check_totals_fit(const std::string& field, const std::array<uint32_t, 3>& id, const std::array<uint64_t, 3>& bound) {
    for (int d = 0; d < 3; ++d)
        if (id[size_t(d)] >= bound[size_t(d)])
            bad(field, "[" + num(id[0]) + "," + num(id[1]) + "," + num(id[2]) + "] outside the " + num(bound[0]) + " x " +
                           num(bound[1]) + " x " + num(bound[2]) + " of the launch");
}

void check_trace(const Trace& t) {
    text("trace.kernel", t.kernel, 256);
    text("trace.entry", t.entry, 256);
    text("trace.device", t.device, 1024);
    in_range("trace.size M", t.size.M, 1, int64_t(kMaxTraceSide));
    in_range("trace.size N", t.size.N, 1, int64_t(kMaxTraceSide));
    in_range("trace.size K", t.size.K, 1, int64_t(kMaxTraceSide));
    product("trace.size M x N", uint64_t(t.size.M), uint64_t(t.size.N), kMaxTraceMatrixCells);
    product("trace.size M x K", uint64_t(t.size.M), uint64_t(t.size.K), kMaxTraceMatrixCells);
    product("trace.size K x N", uint64_t(t.size.K), uint64_t(t.size.N), kMaxTraceMatrixCells);
    in_range("trace.tile", t.tile, t.custom ? 0 : 1, kMaxTraceTile);
    for (const auto& [name, value] : t.params) {
        text("trace.params", name, 64);
        in_range("trace.params " + shown(name, 40), value, -(int64_t(1) << 40), int64_t(1) << 40);
    }
    // The NDRange: each dimension's groups are global / local rounded up; 1 beyond dims.
    uint64_t group_items = 1, groups = 1;
    for (int d = 0; d < 3; ++d) {
        const std::string D = "[" + std::to_string(d) + "]";
        const uint64_t g = t.global[size_t(d)], l = t.local[size_t(d)], n = t.groups[size_t(d)];
        if (l < 1 || l > kMaxTraceGroupItems) bad("trace.local" + D, num(l) + "; accepted: 1 to " + num(kMaxTraceGroupItems));
        if (g < 1 || g > (uint64_t(1) << 40)) bad("trace.global" + D, num(g) + "; accepted: 1 to 2^40");
        if (n != (g + l - 1) / l) bad("trace.groups" + D, num(n) + ", but global " + num(g) + " / local " + num(l) + " gives " + num((g + l - 1) / l));
        if (d >= t.dims && (g != 1 || l != 1)) bad("trace.global" + D, "set beyond the launch's " + std::to_string(t.dims) + " dimensions");
        group_items = product("trace.local", group_items, l, kMaxTraceGroupItems);
        groups = product("trace.groups", groups, n, kMaxTraceGroups);
    }
    const TraceGeometry& geo = t.geometry;
    if (geo.warp < 1 || geo.warp > 1024) bad("trace.geometry warp", num(geo.warp) + "; accepted: 1 to 1024");
    if (geo.sector_bytes < 1 || geo.sector_bytes > 4096) bad("trace.geometry sector", num(geo.sector_bytes) + "; accepted: 1 to 4096");
    if (geo.banks < 1 || geo.banks > 1024) bad("trace.geometry banks", num(geo.banks) + "; accepted: 1 to 1024");
    if (geo.bank_bytes < 1 || geo.bank_bytes > 64) bad("trace.geometry bank bytes", num(geo.bank_bytes) + "; accepted: 1 to 64");
    finite("trace.flops", t.totals.flops);
    finite("trace.seconds", t.seconds);

    std::set<std::string> names;
    std::map<std::string, Extent> global_extent;
    for (const TracedBuffer& b : t.buffers) {
        const std::string f = "trace.buffers '" + shown(b.name, 40) + "'";
        text("trace.buffers name", b.name, 256);
        if (!names.insert(b.name).second) bad(f, "named twice");
        if (b.rows < 0 || b.cols < 0 || uint64_t(b.rows) > kMaxTraceSide || uint64_t(b.cols) > kMaxTraceSide)
            bad(f + " shape", std::to_string(b.rows) + " x " + std::to_string(b.cols) + "; accepted: 0 to " + num(kMaxTraceSide) + " each");
        const uint64_t cells = product(f + " shape", uint64_t(b.rows), uint64_t(b.cols), kMaxTraceMatrixCells);
        if (b.elements > kMaxTraceMatrixCells) bad(f + " elements", num(b.elements) + "; accepted: at most " + num(kMaxTraceMatrixCells));
        if (b.is_matrix ? cells != b.elements : (b.rows != 1 || uint64_t(b.cols) != b.elements))
            bad(f + " shape", std::to_string(b.rows) + " x " + std::to_string(b.cols) + " does not match its " + num(b.elements) + " elements");
        if (b.element_size < 1 || b.element_size > 128) bad(f + " element_size", num(b.element_size) + "; accepted: 1 to 128");
        if (!b.load_counts.empty() && b.load_counts.size() != b.elements) bad(f + " load_counts", num(b.load_counts.size()) + " counters for " + num(b.elements) + " elements");
        if (!b.store_counts.empty() && b.store_counts.size() != b.elements) bad(f + " store_counts", num(b.store_counts.size()) + " counters for " + num(b.elements) + " elements");
        if (b.distinct_elements_loaded > b.elements || b.distinct_elements_stored > b.elements)
            bad(f + " distinct", "more distinct elements than the buffer holds");
        global_extent[b.name] = {uint64_t(b.rows), uint64_t(b.cols), b.elements};
    }
    std::map<std::string, Extent> local_extent;
    uint64_t local_bytes = 0;
    for (const LocalBuffer& l : t.local_buffers) {
        const std::string f = "trace.local_buffers '" + shown(l.name, 40) + "'";
        text("trace.local_buffers name", l.name, 256);
        if (l.bytes > kMaxTraceLocalBytes) bad(f + " bytes", num(l.bytes) + "; accepted: at most " + num(kMaxTraceLocalBytes) + " (the emulator's local memory)");
        local_bytes += l.bytes;
        if (local_bytes > kMaxTraceLocalBytes) bad("trace.local_buffers", "more than " + num(kMaxTraceLocalBytes) + " bytes of local memory in all");
        const uint64_t words = product(f + " shape", l.rows, l.cols, kMaxTraceLocalBytes / 4);
        if (words * 4 > l.bytes + 3 || l.rows < 1) bad(f + " shape", num(l.rows) + " x " + num(l.cols) + " words do not fit its " + num(l.bytes) + " bytes");
        local_extent[l.name] = {l.rows, l.cols, std::max<uint64_t>(words, (l.bytes + 3) / 4)};
    }
    for (const LineTraffic& l : t.lines) in_range("trace.lines line", l.line, 0, kMaxTraceLine);
    for (int line : t.barrier_lines) in_range("trace.barrier_lines", line, 0, kMaxTraceLine);
    for (int line : t.dropped_barriers) in_range("trace.dropped_barriers", line, 0, kMaxTraceLine);
    if (t.group_totals.size() > groups) bad("trace.group_totals", num(t.group_totals.size()) + " entries for " + num(groups) + " work-groups");
    for (const GroupTotals& g : t.group_totals) check_totals_fit("trace.group_totals group", g.group, t.groups);
    if (t.detail.size() > groups) bad("trace.detail", num(t.detail.size()) + " groups for " + num(groups) + " work-groups");
    for (const GroupTrace& g : t.detail) {
        const std::string f = "trace.detail group [" + num(g.group[0]) + "," + num(g.group[1]) + "," + num(g.group[2]) + "]";
        check_totals_fit("trace.detail group", g.group, t.groups);
        for (int d = 0; d < 3; ++d)
            if (g.size[size_t(d)] < 1 || g.size[size_t(d)] > t.local[size_t(d)])
                bad(f + " size", "[" + num(g.size[0]) + "," + num(g.size[1]) + "," + num(g.size[2]) + "]; accepted: 1 to the local size " +
                                     num(t.local[0]) + "," + num(t.local[1]) + "," + num(t.local[2]));
        const uint64_t items = uint64_t(g.size[0]) * g.size[1] * g.size[2];  // at most 1024^3: no wrap
        // A group that ran has at least the interval from its start to its end.
        if (g.intervals.empty()) bad(f + " intervals", "none; accepted: one or more (a group's run up to its first barrier is one)");
        for (const BarrierInterval& in : g.intervals) {
            const std::string fi = f + " interval " + std::to_string(in.index);
            in_range(fi + " end_line", in.end_line, 0, kMaxTraceLine);
            for (const bool local : {false, true})
                for (const BufferIntervalAccess& a : local ? in.local_buffers : in.buffers) {
                    const auto& extents = a.local ? local_extent : global_extent;
                    const auto it = extents.find(a.buffer);
                    const std::string fa = fi + " buffer '" + shown(a.buffer, 40) + "'";
                    if (a.local != local || it == extents.end()) bad(fa, "names no " + std::string(local ? "local" : "global") + " buffer of the trace");
                    check_rects(fa + " loaded", a.loaded, it->second);
                    check_rects(fa + " stored", a.stored, it->second);
                    check_touches(fa + " loads", a.loads, it->second, items);
                    check_touches(fa + " stores", a.stores, it->second, items);
                }
            for (const WorkItemTraffic& w : in.work_items)
                if (w.work_item >= items) bad(fi + " work_items", "work-item " + num(w.work_item) + " of a work-group of " + num(items));
            // the access log (ABI 3): every access names a buffer the trace has, an element
            // inside it, and stored words the log carries
            for (const WorkItemAccesses& w : in.access_log) {
                if (w.work_item >= items) bad(fi + " access_log", "work-item " + num(w.work_item) + " of a work-group of " + num(items));
                for (const MemoryAccess& a : w.accesses) {
                    const size_t buffers = a.local() ? t.local_buffers.size() : t.buffers.size();
                    if (a.buffer >= buffers) bad(fi + " access_log", "an access names buffer " + num(a.buffer) + " of " + num(buffers));
                    // An element past its buffer is kept, not refused: an exercise that indexes a local
                    // array with the global id, or runs one past it, makes such accesses, and Oclgrind's
                    // out-of-bounds report about them is the lesson.
                    if (a.line > uint64_t(kMaxTraceLine)) bad(fi + " access_log", "an access at line " + num(a.line) + "; accepted: 0 to " + num(kMaxTraceLine));
                    if (a.has_value() && (!a.store() || !a.local() || a.size == 0))
                        bad(fi + " access_log", std::string("an access carries stored words but is ") +
                                                    (!a.store() ? "a load" : !a.local() ? "a global store" : "a store of 0 bytes") +
                                                    "; accepted: a local store of 1 byte or more");
                    if (size_t(a.value_begin) + a.value_count() > w.stored_words.size())
                        bad(fi + " access_log", "an access's stored words run past the " + num(w.stored_words.size()) + " kept");
                }
            }
        }
    }
    for (const Diagnostic& d : t.diagnostics) {
        text("trace.diagnostics message", d.message, 64 * 1024);
        text("trace.diagnostics oclgrind", d.oclgrind_text, 64 * 1024);
        in_range("trace.diagnostics line", d.line, 0, kMaxTraceLine);
        for (const WorkItemId& w : d.work_items)
            for (int k = 0; k < 3; ++k)
                if (w[size_t(k)] >= t.global[size_t(k)]) bad("trace.diagnostics work_items", "a work-item outside the NDRange");
    }
    if (t.verification) {
        const Verification& v = *t.verification;
        finite("trace.verification tolerance", v.tolerance);
        // Infinite where the kernel wrote a NaN or an infinity; never NaN or negative.
        if (std::isnan(v.max_rel_error) || v.max_rel_error < 0)
            bad("trace.verification max_rel_error", std::to_string(v.max_rel_error) + "; accepted: a number >= 0");
        if (v.verified != (v.max_rel_error <= v.tolerance))
            bad("trace.verification verified", std::string(v.verified ? "true" : "false") + ", but the error " +
                                                    std::to_string(v.max_rel_error) + " against the tolerance " +
                                                    std::to_string(v.tolerance) + " says otherwise");
        if (v.checked_elements < 0 || v.total_elements < 0 || v.checked_elements > v.total_elements)
            bad("trace.verification elements", std::to_string(v.checked_elements) + " of " + std::to_string(v.total_elements));
        if (v.first_bad_row < -1 || v.first_bad_col < -1 || v.first_bad_row >= t.size.M || v.first_bad_col >= t.size.N)
            bad("trace.verification first_bad", "a cell outside C");
    }
    for (const auto& cell : t.wrong_cells)
        if (cell[0] < 0 || cell[1] < 0 || cell[0] >= t.size.M || cell[1] >= t.size.N)
            bad("trace.wrong_cells", "(" + std::to_string(cell[0]) + "," + std::to_string(cell[1]) + ") outside C's " +
                                         std::to_string(t.size.M) + " x " + std::to_string(t.size.N));
    if (t.wrong_cells.size() > uint64_t(t.size.M) * uint64_t(t.size.N)) bad("trace.wrong_cells", "more cells than C has");
    if (t.result) {
        const HostMatrix& m = *t.result;
        if (m.rows < 0 || m.cols < 0 || uint64_t(m.rows) > kMaxTraceSide || uint64_t(m.cols) > kMaxTraceSide)
            bad("trace.result shape", std::to_string(m.rows) + " x " + std::to_string(m.cols));
        if (product("trace.result shape", uint64_t(m.rows), uint64_t(m.cols), kMaxTraceMatrixCells) != m.data.size())
            bad("trace.result data", num(m.data.size()) + " values for " + std::to_string(m.rows) + " x " + std::to_string(m.cols));
    }
    // Verified means every checked cell within the tolerance: no wrong cell, no NaN or infinity.
    if (t.verification && t.verification->verified) {
        if (!t.wrong_cells.empty())
            bad("trace.verification verified", "true, but the trace lists " + num(t.wrong_cells.size()) + " wrong cells");
        if (t.result)
            for (const float x : t.result->data)
                if (!std::isfinite(x)) bad("trace.verification verified", "true, but the result holds a NaN or an infinity");
    }
}

// The cache model's report (issue 24, item 4). Nothing re-runs the model from a file, but
// views divide by these counts and index by these names: every count is checked against
// the others the way the model produces them (hits within lookups, buffers and lines
// summing to the totals, DRAM reads matching their per-sector list).
void check_cache_counts(const std::string& f, const CacheCounts& c, uint32_t sector) {
    const uint64_t limit = uint64_t(1) << 56;  // far beyond any trace the emulator can make; sums of a few cannot wrap
    for (uint64_t v : {c.l1_requests, c.l1_sectors, c.l1_hit_sectors, c.l2_sectors, c.l2_load_sectors, c.l2_hit_sectors,
                       c.l2_merged_sectors, c.dram_read_bytes, c.dram_write_bytes})
        if (v > limit) bad(f, num(v) + "; accepted: at most " + num(limit));
    if (c.l1_hit_sectors > c.l1_sectors) bad(f, "more L1 hits (" + num(c.l1_hit_sectors) + ") than L1 sectors (" + num(c.l1_sectors) + ")");
    if (c.l2_hit_sectors > c.l2_sectors) bad(f, "more L2 hits (" + num(c.l2_hit_sectors) + ") than L2 sectors (" + num(c.l2_sectors) + ")");
    if (c.l2_load_sectors > c.l2_sectors) bad(f, "more L2 load sectors (" + num(c.l2_load_sectors) + ") than L2 sectors (" + num(c.l2_sectors) + ")");
    if (c.l2_merged_sectors > c.l1_sectors || c.l2_load_sectors + c.l2_merged_sectors != c.l1_sectors - c.l1_hit_sectors)
        bad(f, "L2 load sectors plus merged ones (" + num(c.l2_load_sectors) + " + " + num(c.l2_merged_sectors) +
                   ") are not the L1 misses (" + num(c.l1_sectors - c.l1_hit_sectors) + ")");
    if (c.dram_read_bytes % sector || c.dram_write_bytes % sector)
        bad(f, "DRAM bytes not a whole number of " + num(sector) + "-byte sectors");
}

void check_caches(const Trace& t) {
    const CacheReport& r = *t.caches;
    text("trace.caches profile", r.profile, 128);
    if (r.profile.empty()) bad("trace.caches profile", "empty; accepted: the profile's name");
    try {
        check_cache_params(r.params, t.geometry.sector_bytes);
    } catch (const InputError& e) {
        // The check words its lines for the command line ("--sector 32: ..."); nobody typed these:
        // the file's fields are named without the dashes ("sector 32: ...").
        std::string what = e.what();
        for (size_t at = what.find("--"); at != std::string::npos; at = what.find("--", at))
            if (at + 2 < what.size() && std::islower(static_cast<unsigned char>(what[at + 2]))) what.erase(at, 2);
            else at += 2;
        bad("trace.caches params", what);
    }
    if (r.params.cluster_of.size() > r.params.cus)
        bad("trace.caches cluster_of", num(r.params.cluster_of.size()) + " entries; accepted: at most one per unit (" + num(r.params.cus) + ")");
    for (uint32_t c : r.params.cluster_of)
        if (c >= r.params.cus) bad("trace.caches cluster_of", "cluster " + num(c) + "; accepted: 0 to " + num(r.params.cus - 1));
    if (r.params.deal_order.size() > uint64_t(r.params.cus) * r.params.resident * 64)
        bad("trace.caches deal_order", num(r.params.deal_order.size()) + " entries; accepted: at most 64 waves of units x resident (" +
                                           num(uint64_t(r.params.cus) * r.params.resident * 64) + ")");
    for (uint32_t u : r.params.deal_order)
        if (u >= r.params.cus) bad("trace.caches deal_order", "unit " + num(u) + "; accepted: 0 to " + num(r.params.cus - 1));
    const uint32_t sector = r.params.sector_bytes;
    check_cache_counts("trace.caches totals", r.totals, sector);
    if (r.bounds.distinct_sectors > r.bounds.group_distinct_sectors)
        bad("trace.caches bounds", "distinct sectors of the launch (" + num(r.bounds.distinct_sectors) +
                                       ") above the sum over work-groups (" + num(r.bounds.group_distinct_sectors) + ")");
    if (r.bounds.group_distinct_sectors > r.totals.l1_sectors)
        bad("trace.caches bounds", "more distinct sectors (" + num(r.bounds.group_distinct_sectors) + ") than L1 load sectors (" +
                                       num(r.totals.l1_sectors) + ")");
    // Per buffer: names the trace has, each once; per line: ascending lines. Both sum to the totals.
    const auto sum_to_totals = [&](const std::string& f, const CacheCounts& sum) {
        if (!(sum == r.totals)) bad(f, "do not add up to the totals");
    };
    CacheCounts sum;
    std::set<std::string> seen;
    for (const auto& [name, c] : r.buffers) {
        text("trace.caches buffers", name, 256);
        if (!t.find_buffer(name)) bad("trace.caches buffers", "'" + shown(name, 40) + "' is not a buffer of the trace");
        if (!seen.insert(name).second) bad("trace.caches buffers", "'" + shown(name, 40) + "' twice");
        check_cache_counts("trace.caches buffers " + shown(name, 40), c, sector);
        sum += c;
    }
    sum_to_totals("trace.caches buffers", sum);
    sum = {};
    for (size_t i = 0; i < r.lines.size(); ++i) {
        in_range("trace.caches lines line", r.lines[i].first, 0, kMaxTraceLine);
        if (i && r.lines[i].first <= r.lines[i - 1].first) bad("trace.caches lines", "not in ascending order of line");
        check_cache_counts("trace.caches lines " + std::to_string(r.lines[i].first), r.lines[i].second, sector);
        sum += r.lines[i].second;
    }
    sum_to_totals("trace.caches lines", sum);
    // (sector, times read from DRAM): ascending sectors, each read at least once, summing to the DRAM reads.
    uint64_t reads = 0;
    for (size_t i = 0; i < r.dram_reads.size(); ++i) {
        const auto& [s, n] = r.dram_reads[i];
        if (n == 0) bad("trace.caches dram_reads", "a sector read 0 times");
        if (i && s <= r.dram_reads[i - 1].first) bad("trace.caches dram_reads", "sectors not in ascending order");
        reads += n;
    }
    uint64_t read_bytes = 0;
    if (__builtin_mul_overflow(reads, uint64_t(sector), &read_bytes) || read_bytes != r.totals.dram_read_bytes)
        bad("trace.caches dram_reads", num(reads) + " sector reads, but the totals say " + num(r.totals.dram_read_bytes) + " bytes");
}

void check_launch(const LaunchConfig& c, const Trace& t) {
    const KernelSpec& k = c.kernel;
    text("launch.kernel name", k.name, 256);
    text("launch.kernel source", k.source, 1 << 20);
    text("launch.kernel prelude", k.prelude, 1 << 20);
    for (const std::string* s : {&k.title, &k.lesson, &k.tile_meaning, &k.source_name, &k.entry, &k.library, &k.prelude_name})
        text("launch.kernel text", *s, 64 * 1024);
    if (c.size != t.size) bad("launch.size", c.size.label() + ", but the trace's is " + t.size.label());
    in_range("launch.tile", c.tile, k.custom ? 0 : 1, kMaxTraceTile);
    if (!k.custom && c.tile != t.tile) bad("launch.tile", std::to_string(c.tile) + ", but the trace's is " + std::to_string(t.tile));
    // Where the tile and parameters came from, as core/tuning labels it (a table row prints it:
    // a 20 MB label was a 20 MB row).
    static const std::set<std::string> kSources = {"default", "tuned", "similar", "type-defaults", "given"};
    if (!kSources.count(c.params_source))
        bad("launch.params_source", "'" + shown(c.params_source, 40) + "'; accepted: default, tuned, similar, type-defaults or given");
    for (const auto& [name, value] : c.params) {
        text("launch.params", name, 64);
        in_range("launch.params " + shown(name, 40), value, -(int64_t(1) << 40), int64_t(1) << 40);
    }
    // Every field against the others (issue 32, item 3): the one validator of saved launches.
    validate_launch(c);
    // ...and against what was traced: the same NDRange.
    // The emulator never runs a library's GEMM: no trace of one was ever made.
    if (!k.library.empty())
        bad("launch.kernel.library", "'" + shown(k.library, 40) + "': a library call cannot be traced; accepted: none (a ladder rung or a kernel's source)");
    const ResolvedLaunch r = resolve(c);
    // ...the same kernel, at the same parameters, counting the same flops: the trace's own
    // copies are what the views and the closed forms read.
    if (t.kernel != k.name) bad("trace.kernel", "'" + shown(t.kernel, 40) + "', but the launch's kernel is '" + shown(k.name, 40) + "'");
    if (t.custom != k.custom) bad("trace.custom", std::string(t.custom ? "true" : "false") + ", but the launch's kernel is " + (k.custom ? "custom" : "a ladder rung"));
    if (!k.entry.empty() && t.entry != k.entry)
        bad("trace.entry", "'" + shown(t.entry, 40) + "', but the launch's entry is '" + shown(k.entry, 40) + "'");
    if (t.params != r.params) {
        const auto listed = [](const std::map<std::string, int64_t>& p) {
            std::string out;
            for (const auto& [name, value] : p) out += (out.empty() ? "" : " ") + shown(name, 40) + "=" + std::to_string(value);
            return out.empty() ? std::string("none") : out;
        };
        bad("trace.params", listed(t.params) + ", but the launch's in effect are " + listed(r.params));
    }
    if (t.totals.flops != r.flops)
        bad("trace.flops", std::to_string(t.totals.flops) + ", but the launch does " + std::to_string(r.flops) + " (2 M N K)");
    // ...the same matrices, of the shapes its arguments have at its size.
    for (const ResolvedArg& a : r.args) {
        if (a.spec.kind != ArgSpec::Kind::Matrix) continue;
        const auto b = std::find_if(t.buffers.begin(), t.buffers.end(), [&](const TracedBuffer& x) { return x.name == a.spec.name; });
        if (b == t.buffers.end()) bad("trace.buffers", "no buffer for the launch's matrix " + shown(a.spec.name, 40));
        if (b->rows != a.rows || b->cols != a.cols)
            bad("trace.buffers " + shown(a.spec.name, 40), num(b->rows) + " x " + num(b->cols) + ", but the launch's " +
                                                               shown(a.spec.name, 40) + " is " + num(a.rows) + " x " + num(a.cols));
    }
    if (r.dims != t.dims) bad("launch.kernel.global", std::to_string(r.dims) + " dimensions, but the trace's launch has " + std::to_string(t.dims));
    for (int d = 0; d < r.dims; ++d)
        if (r.global[size_t(d)] != t.global[size_t(d)] || r.local[size_t(d)] != t.local[size_t(d)])
            bad("launch.kernel.global", "global " + r.global_text() + " and local " + r.local_text() +
                                            " at the launch's sizes, but the trace's launch was global " +
                                            num(t.global[0]) + "x" + num(t.global[1]) + "x" + num(t.global[2]) + " and local " +
                                            num(t.local[0]) + "x" + num(t.local[1]) + "x" + num(t.local[2]));
    // ...and, last (its detail groups now known to lie inside its NDRange), a launch the
    // emulator could have traced: it refuses one past the 1 GiB budget even on one thread
    // without the cache model's requests (the least a trace of it needs), so a file declaring
    // more was never a trace (3.6 KB claiming tiled at 8192^3 made the GUI
    // paint grids of 2^26 cells for each matrix; every cell of C wrong at 4096^3: 4 GB).
    TraceOptions least;
    least.checks = t.checks;
    least.cache_requests = false;
    for (const GroupTrace& g : t.detail) least.groups.push_back(g.group);
    const TraceEstimate e = estimate_trace(c, least, 1);
    if (e.peak_bytes > kInputBudgetBytes)
        bad("launch.size", c.size.label() + ": a trace of '" + shown(k.name, 40) + "' there needs " + e.text() +
                               ", past the emulator's " + std::to_string(kInputBudgetBytes >> 30) +
                               " GiB; no trace of it could be made");
}

}  // namespace

void validate_trace_file(const TraceFile& file) {
    check_trace(file.trace);
    if (file.trace.caches) check_caches(file.trace);
    check_launch(file.launch, file.trace);
}

}  // namespace tilescope
