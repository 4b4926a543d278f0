// A work-group's life on a worker thread. Depends on work_groups.h (run.h),
// access_tallies.h, subgroup_requests.h, oclgrind_lookups.h and result_merging.h.
#include "work_groups.h"

#include <oclgrind/WorkGroup.h>

#include "access_tallies.h"
#include "oclgrind_lookups.h"
#include "result_merging.h"
#include "subgroup_requests.h"

namespace tilescope::trace_plugin {
namespace {

// Every work-group numbers its local buffers alike; the numbers name local addresses in
// Oclgrind's messages. The first group to begin writes them down.
void number_local_buffers_once(Run& run, const oclgrind::WorkGroup* work_group) {
    if (run.local_buffers_numbered.load(std::memory_order_acquire)) return;
    std::lock_guard<std::mutex> lock(run.mutex);
    for (const auto& [value, index] : run.local_index)
        run.local_buffers[index].memory_buffer = local_buffer_number(work_group, value);
    run.local_buffers_numbered.store(true, std::memory_order_release);
}

// Judges each request the open interval used and folds the interval's totals into the
// thread's and the group's.
void judge_open_requests(Run& run, ThreadState& ts) {
    GroupState& g = ts.group;
    for (auto [ii, ri] : g.touched) {
        InstructionStats& s = ts.instructions[ii];
        Request& r = s.requests[ri];
        if (s.local) {
            const abi::BankConflicts one = judge_bank_conflicts(r, s.bank, run.offset_mask, ts.bank_histogram);
            add(s.bank_conflicts, one);
            add(g.open.bank_conflicts, one);
        } else {
            const abi::Coalescing one = judge_coalescing(r, s.width, run.config);
            add(s.coalescing, one);
            add(g.open.coalescing, one);
            if (g.cache.on)
                g.cache.emit(s.cache_tags[ri], r, s.line, g.interval, static_cast<uint32_t>(ri % run.subgroups));
        }
        r.clear();
    }
    g.touched.clear();
    std::fill(g.executions.begin(), g.executions.end(), 0);
    if (g.cache.on) g.cache.end_interval();
    ts.global += g.open.global;
    ts.local += g.open.local;
    g.summary.global += g.open.global;
    g.summary.local += g.open.local;
    add(ts.coalescing, g.open.coalescing);
    add(ts.bank_conflicts, g.open.bank_conflicts);
}

// Hands the closed interval's detail to the group's recorder, and stops all detail once
// the run holds more records than Config::max_detail_touches.
void keep_interval_detail(Run& run, GroupState& g, uint32_t end_line) {
    abi::IntervalDetail d;
    d.index = g.interval;
    d.end_line = end_line;
    d.global = g.open.global;
    d.local = g.open.local;
    d.coalescing = g.open.coalescing;
    d.bank_conflicts = g.open.bank_conflicts;
    const uint64_t records = g.detail_recorder.close_interval(std::move(d));
    const uint64_t total = run.detail_touches.fetch_add(records) + records;
    if (total > run.config.max_detail_touches) run.detail_truncated = true;
    // Past the bound a group under way drops its detail too (issue 32): it would otherwise go
    // on keeping one interval per barrier to its end, 200,000 of them in a loop of barriers,
    // while every other worker does the same (1.28 GB under a 1 GiB cap). A group's detail is
    // whole or absent: the host keeps only those that completed (Run::detail_done).
    if (run.detail_truncated.load(std::memory_order_relaxed)) {
        g.detail = -1;
        g.detail_recorder.out = abi::GroupDetail{};
    }
}

// Closes the open interval of the thread's work-group (`end_line`: the barrier's line,
// 0 when the group ends) and opens the next.
void close_interval(Run& run, ThreadState& ts, uint32_t end_line) {
    GroupState& g = ts.group;
    judge_open_requests(run, ts);
    if (g.detail >= 0) keep_interval_detail(run, g, end_line);
    g.open = IntervalTotals{};
    ++g.interval;
}

// Hands a completed work-group's requests over, sorted, unless the bound is reached.
void keep_cache_requests(Run& run, CacheRecorder& c) {
    c.sort();
    const uint64_t bytes = 16 * c.out.sectors.size() + 44 * c.out.requests.size();
    const uint64_t total = run.cache_bytes.fetch_add(bytes) + bytes;
    if (total > run.config.caches.max_bytes) run.cache_truncated = true;
    if (run.cache_truncated.load()) return;
    std::lock_guard<std::mutex> lock(run.mutex);
    run.cache_groups.push_back(std::move(c.out));
}

}  // namespace

void begin_work_group(Run& run, const oclgrind::WorkGroup* work_group) {
    number_local_buffers_once(run, work_group);
    ThreadState& ts = run.thread_state();
    GroupState& g = ts.group;
    g.work_group = work_group;
    g.last_item = nullptr;
    g.id = id3(work_group->getGroupID());
    g.size = id3(work_group->getGroupSize());
    g.lanes = g.size[0] * g.size[1] * g.size[2];
    g.linear = linear_group_index(g.id, run.num_groups);
    g.detail = g.linear < run.detail_of_group.size() ? run.detail_of_group[g.linear] : -1;
    if (run.detail_truncated.load(std::memory_order_relaxed)) g.detail = -1;
    g.interval = 0;
    g.summary = abi::GroupSummary{};
    g.summary.group = g.id;
    g.touched.clear();
    g.executions.assign(ts.instructions.size() * run.max_lanes, 0);
    g.open = IntervalTotals{};
    g.cache.on = run.config.caches.enabled && !run.cache_truncated.load(std::memory_order_relaxed);
    if (g.cache.on) g.cache.begin(g.linear, g.lanes);
    if (g.detail >= 0)
        g.detail_recorder.begin(work_group, g.id, g.size, g.lanes, run.slots.size(), run.local_buffers, run.local_index,
                                run.config.max_detail_touches);
}

void pass_barrier(Run& run, const oclgrind::WorkGroup* work_group) {
    ThreadState& ts = run.thread_state();
    if (ts.group.work_group != work_group) return;
    const uint32_t line = line_of(work_group->getCurrentBarrier());
    close_interval(run, ts, line);
    ++ts.group.summary.barriers;
    ++ts.barriers;
    ts.barrier_lines.insert(line);
}

void complete_work_group(Run& run, const oclgrind::WorkGroup* work_group) {
    ThreadState& ts = run.thread_state();
    GroupState& g = ts.group;
    if (g.work_group != work_group) return;
    close_interval(run, ts, 0);
    if (g.cache.on) keep_cache_requests(run, g.cache);
    uint64_t done = 0;
    bool early = false;
    {
        std::lock_guard<std::mutex> lock(run.mutex);
        run.summaries.emplace_back(g.linear, g.summary);
        if (g.detail >= 0) {
            early = run.config.partial && g.linear < run.early.size() && run.early[g.linear];
            if (early) run.pending_early.push_back(g.detail_recorder.out);
            run.details[g.detail] = std::move(g.detail_recorder.out);
            run.detail_done[g.detail] = true;
        }
        done = ++run.groups_done;
    }
    g.work_group = nullptr;
    if (run.config.progress) run.config.progress(run.config.progress_user, done, run.total_groups);
    send_partial_if_due(run, early);
}

}  // namespace tilescope::trace_plugin
