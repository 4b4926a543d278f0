// Partial and final results of a Run. Depends on result_merging.h (run.h) and
// access_tallies.h.
#include "result_merging.h"

#include <algorithm>
#include <map>
#include <set>

#include "access_tallies.h"

namespace tilescope::trace_plugin {
namespace {

// What every result starts with: the launch's shape and its buffers without counts.
abi::Result launch_header(const Run& run) {
    abi::Result out;
    out.kernel = run.kernel;
    out.work_dim = run.work_dim;
    out.global_size = run.global_size;
    for (int d = 0; d < 3; ++d) {
        out.local_size[d] = run.local_size[d];
        out.num_groups[d] = run.num_groups[d];
    }
    out.warp = run.config.warp;
    out.sector_bytes = run.config.sector_bytes;
    out.banks = run.config.banks;
    out.bank_bytes = run.config.bank_bytes;
    out.address_offset_bits = run.offset_bits;
    for (const Slot& s : run.slots) {
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
    out.local_buffers = run.local_buffers;
    return out;
}

// The summaries of the groups done, in linear group order (Result::groups).
std::vector<abi::GroupSummary> in_linear_order(std::vector<std::pair<uint64_t, abi::GroupSummary>> summaries) {
    std::sort(summaries.begin(), summaries.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<abi::GroupSummary> groups;
    for (auto& [linear, summary] : summaries) groups.push_back(summary);
    return groups;
}

// A thread's totals.
void add_thread_totals(abi::Result& out, const ThreadState& ts) {
    out.global += ts.global;
    out.local += ts.local;
    out.private_mem += ts.private_mem;
    out.barriers += ts.barriers;
    add(out.coalescing, ts.coalescing);
    add(out.bank_conflicts, ts.bank_conflicts);
}

// A thread's counts and heatmaps per buffer (moved from the thread where it is the first).
void add_thread_buffers(abi::Result& out, ThreadState& ts) {
    for (size_t s = 0; s < out.buffers.size(); ++s) {
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
}

using LinesByKey = std::map<std::pair<uint32_t, bool>, abi::LineStats>;  // (line, local)

// A thread's instructions, added up by source line and address space.
void add_thread_lines(LinesByKey& lines, const ThreadState& ts) {
    for (const InstructionStats& i : ts.instructions) {
        abi::LineStats& l = lines[{i.line, i.local}];
        l.line = i.line;
        l.local = i.local;
        l.counts += i.counts;
        add(l.coalescing, i.coalescing);
        add(l.bank_conflicts, i.bank_conflicts);
    }
}

// A buffer no access touched still gets its (zero) heatmaps, except the unbound one.
void give_untouched_buffers_heatmaps(abi::Result& out) {
    for (abi::BufferStats& b : out.buffers) {
        if (b.elements == 0 || b.name == "(unbound)") continue;
        if (b.load_counts.empty()) b.load_counts.assign(b.elements, 0);
        if (b.store_counts.empty()) b.store_counts.assign(b.elements, 0);
    }
}

}  // namespace

void send_partial_if_due(Run& run, bool early_done) {
    if (!run.config.partial) return;
    std::unique_lock<std::mutex> one_at_a_time(run.partial_mutex, std::try_to_lock);
    if (!one_at_a_time.owns_lock()) return;  // the pending detail goes with a later call
    abi::Result so_far;
    {
        std::lock_guard<std::mutex> lock(run.mutex);
        const auto now = std::chrono::steady_clock::now();
        const bool due = early_done || !run.pending_early.empty() ||
                         now - run.last_partial >= std::chrono::milliseconds(run.config.partial_interval_ms);
        if (!due || run.cancelled) return;
        run.last_partial = now;
        so_far = launch_header(run);
        for (const auto& [linear, summary] : run.summaries) {
            so_far.global += summary.global;
            so_far.local += summary.local;
            so_far.barriers += summary.barriers;
        }
        so_far.groups_run = run.summaries.size();
        so_far.groups = in_linear_order(run.summaries);
        so_far.details = std::move(run.pending_early);
        run.pending_early.clear();
        so_far.seconds = std::chrono::duration<double>(now - run.started).count();
    }
    run.config.partial(run.config.partial_user, so_far);
}

abi::Result merge_result(Run& run) {
    abi::Result out = launch_header(run);
    out.groups_run = run.groups_done.load();
    out.cancelled = run.cancelled;
    out.complete = !run.cancelled && out.groups_run == run.total_groups;
    out.detail_truncated = run.detail_truncated.load();

    LinesByKey lines;
    std::set<uint32_t> barrier_lines;
    for (auto& ts : run.threads) {
        add_thread_totals(out, *ts);
        barrier_lines.insert(ts->barrier_lines.begin(), ts->barrier_lines.end());
        add_thread_buffers(out, *ts);
        add_thread_lines(lines, *ts);
    }
    give_untouched_buffers_heatmaps(out);
    for (auto& [key, l] : lines) out.lines.push_back(l);
    out.barrier_lines.assign(barrier_lines.begin(), barrier_lines.end());
    out.groups = in_linear_order(std::move(run.summaries));
    for (size_t i = 0; i < run.details.size(); ++i)
        if (run.detail_done[i]) out.details.push_back(std::move(run.details[i]));
    out.local_buffers = run.local_buffers;  // numbered by now
    out.messages = std::move(run.messages);
    out.messages_dropped = run.messages_dropped;
    out.cache_truncated = run.cache_truncated.load();
    if (!out.cache_truncated) {
        std::sort(run.cache_groups.begin(), run.cache_groups.end(),
                  [](const auto& a, const auto& b) { return a.group < b.group; });
        out.cache_groups = std::move(run.cache_groups);
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - run.started).count();
    return out;
}

}  // namespace tilescope::trace_plugin
