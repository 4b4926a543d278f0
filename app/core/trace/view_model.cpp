#include "core/trace/view_model.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "core/trace/analysis.h"
#include "core/trace/phases.h"

namespace tilescope {
namespace {

void bound(std::vector<Rect>& box, const std::vector<Rect>& rects) {
    for (const Rect& r : rects) {
        if (box.empty()) {
            box.push_back(r);
            continue;
        }
        Rect& b = box[0];
        b.r0 = std::min(b.r0, r.r0);
        b.c0 = std::min(b.c0, r.c0);
        b.r1 = std::max(b.r1, r.r1);
        b.c1 = std::max(b.c1, r.c1);
    }
}

const BufferIntervalAccess* find_global(const BarrierInterval& in, const std::string& name) {
    if (name.empty()) return nullptr;
    for (const auto& b : in.buffers)
        if (b.buffer == name) return &b;
    return nullptr;
}

}  // namespace

MatrixRoles matrix_roles(const Trace& trace, const std::optional<CheckSpec>& check) {
    MatrixRoles r;
    if (check) {
        r.a = check->a;
        r.b = check->b;
        r.c = check->c;
        return r;
    }
    for (const TracedBuffer& b : trace.buffers) {
        if (!b.is_matrix) continue;
        if (b.traffic.store_bytes > 0) {
            if (r.c.empty()) r.c = b.name;
        } else if (r.a.empty()) {
            r.a = b.name;
        } else if (r.b.empty()) {
            r.b = b.name;
        }
    }
    return r;
}

int interval_count(const Trace& trace, const GroupId& group) {
    const GroupTrace* g = trace.find_group(group);
    return g ? int(g->intervals.size()) : 0;
}

namespace {

// What every part of a group shares: its plan and the bounding boxes of all it touches.
struct GroupWhole {
    PhasePlan plan;
    std::vector<Rect> a_strip, b_strip, c_block;
};
GroupWhole group_whole(const GroupTrace& g, const MatrixRoles& roles) {
    GroupWhole w;
    w.plan = phase_plan(g);
    for (const BarrierInterval& in : g.intervals) {
        if (auto* a = find_global(in, roles.a)) bound(w.a_strip, a->loaded);
        if (auto* b = find_global(in, roles.b)) bound(w.b_strip, b->loaded);
        if (auto* c = find_global(in, roles.c)) bound(w.c_block, c->stored);
    }
    return w;
}

// The view of one interval without its local arrays.
GroupPhaseView phase_view_head(const GroupTrace& g, const GroupWhole& w, const MatrixRoles& roles, int interval) {
    GroupPhaseView v;
    v.group = g.group;
    v.has_detail = true;
    v.intervals = int(g.intervals.size());
    v.interval = interval;
    v.phases = w.plan.phases;
    if (interval < int(w.plan.parts.size()) && w.plan.parts[size_t(interval)].interval == interval) {
        v.phase = w.plan.parts[size_t(interval)].phase;
        v.part = w.plan.parts[size_t(interval)].name;
    } else if (const PhasePart* part = w.plan.part_at(interval)) {
        v.phase = part->phase, v.part = part->name;
    }
    v.title = part_title(w.plan, interval);
    v.a_strip = w.a_strip, v.b_strip = w.b_strip, v.c_block = w.c_block;
    const BarrierInterval& in = g.intervals[size_t(interval)];
    v.end_line = in.end_line;
    v.global = in.global;
    v.local = in.local;
    if (auto* a = find_global(in, roles.a)) v.a_loaded = a->loaded;
    if (auto* b = find_global(in, roles.b)) v.b_loaded = b->loaded;
    if (auto* c = find_global(in, roles.c)) v.c_stored = c->stored;
    return v;
}

}  // namespace

void for_each_phase_view(const Trace& trace, const MatrixRoles& roles, const GroupId& group,
                         const std::function<void(const GroupPhaseView&)>& visit) {
    const GroupTrace* g = trace.find_group(group);
    if (!g || g->intervals.empty()) return;
    const GroupWhole w = group_whole(*g, roles);
    // The local arrays as the walk goes: the last writer of every word so far.
    std::vector<const LocalBuffer*> arrays;
    for (const LocalBuffer& lb : trace.local_buffers)
        if (lb.rows && lb.cols) arrays.push_back(&lb);
    std::stable_sort(arrays.begin(), arrays.end(), [](const auto* x, const auto* y) { return x->name < y->name; });
    std::vector<std::vector<int32_t>> writers;
    for (const LocalBuffer* lb : arrays) writers.emplace_back(size_t(lb->rows) * lb->cols, -1);
    for (int i = 0; i < int(g->intervals.size()); ++i) {
        GroupPhaseView v = phase_view_head(*g, w, roles, i);
        for (size_t k = 0; k < arrays.size(); ++k) {
            LocalArrayView la;
            la.name = arrays[k]->name;
            la.rows = int(arrays[k]->rows);
            la.cols = int(arrays[k]->cols);
            la.read.assign(writers[k].size(), 0);
            la.fresh.assign(writers[k].size(), 0);
            for (const auto& acc : g->intervals[size_t(i)].local_buffers) {
                if (acc.buffer != la.name) continue;
                for (const auto& t2 : acc.stores) {
                    if (t2.element >= writers[k].size()) continue;
                    writers[k][t2.element] = t2.work_item == ElementTouch::kWholeGroup ? 0 : int32_t(t2.work_item);
                    la.fresh[t2.element] = 1;
                    ++la.stored;
                }
                for (const auto& t2 : acc.loads)
                    if (t2.element < la.read.size()) la.read[t2.element] = 1;
            }
            la.writer = writers[k];
            v.locals.push_back(std::move(la));
        }
        visit(v);
    }
}

GroupPhaseView group_phase_view(const Trace& trace, const MatrixRoles& roles, const GroupId& group, int interval,
                                double progress) {
    GroupPhaseView v;
    v.group = group;
    v.interval = interval;
    const GroupTrace* g = trace.find_group(group);
    if (!g || g->intervals.empty()) return v;
    interval = std::clamp(interval, 0, int(g->intervals.size()) - 1);
    v = phase_view_head(*g, group_whole(*g, roles), roles, interval);

    const uint32_t group_size = std::max<uint32_t>(1, g->size[0] * g->size[1] * g->size[2]);
    const double p = std::clamp(progress, 0.0, 1.0);
    const uint32_t ran = p >= 1.0 ? std::numeric_limits<uint32_t>::max() : uint32_t(std::floor(p * group_size));
    for (const LocalBuffer& lb : trace.local_buffers) {
        LocalArrayView la;
        la.name = lb.name;
        if (lb.rows == 0 || lb.cols == 0) continue;
        la.rows = int(lb.rows);  // as declared in the kernel (see LocalBuffer)
        la.cols = int(lb.cols);
        la.writer.assign(size_t(la.rows) * la.cols, -1);
        la.read.assign(size_t(la.rows) * la.cols, 0);
        la.fresh.assign(size_t(la.rows) * la.cols, 0);
        // What earlier intervals left in the array, then this interval's stores so far.
        for (int i = 0; i <= interval; ++i) {
            for (const auto& acc : g->intervals[i].local_buffers) {
                if (acc.buffer != lb.name) continue;
                for (const auto& t2 : acc.stores) {
                    if (t2.element >= la.writer.size()) continue;
                    const bool counts = i < interval || t2.work_item == ElementTouch::kWholeGroup || t2.work_item < ran;
                    if (!counts) continue;
                    la.writer[t2.element] = t2.work_item == ElementTouch::kWholeGroup ? 0 : int32_t(t2.work_item);
                    la.fresh[t2.element] = i == interval;
                    if (i == interval) ++la.stored;
                }
                if (i == interval)
                    for (const auto& t2 : acc.loads)
                        if (t2.element < la.read.size() && (t2.work_item == ElementTouch::kWholeGroup || t2.work_item < ran))
                            la.read[t2.element] = 1;
            }
        }
        v.locals.push_back(std::move(la));
    }
    std::sort(v.locals.begin(), v.locals.end(), [](const auto& x, const auto& y) { return x.name < y.name; });
    return v;
}

std::optional<CellOwner> cell_owner(const Trace& trace, const MatrixRoles& roles, int64_t row, int64_t col) {
    const TracedBuffer* c = trace.find_buffer(roles.c);
    if (!c || row < 0 || col < 0 || row >= c->rows || col >= c->cols) return std::nullopt;
    CellOwner o;
    const uint64_t element = c->element(row, col);
    for (const GroupTrace& g : trace.detail) {
        for (const BarrierInterval& in : g.intervals) {
            const auto* acc = find_global(in, roles.c);
            if (!acc) continue;
            auto it = std::lower_bound(acc->stores.begin(), acc->stores.end(), ElementTouch{uint32_t(element), 0});
            if (it != acc->stores.end() && it->element == element && it->work_item != ElementTouch::kWholeGroup) {
                o.group = g.group;
                o.linear = it->work_item;
                o.local = g.local_id(it->work_item);
                for (int d = 0; d < 3; ++d) o.global[d] = uint32_t(o.group[d] * trace.local[d] + o.local[d]);
                o.from_trace = true;
                return o;
            }
        }
    }
    // Not in the detail: the ladder's convention.
    if (trace.dims >= 2) {
        o.global = {uint32_t(col), uint32_t(row), 0};
    } else {
        o.global = {uint32_t(row), 0, 0};
    }
    for (int d = 0; d < 3; ++d) {
        const uint64_t l = std::max<uint64_t>(1, trace.local[d]);
        o.group[d] = uint32_t(o.global[d] / l);
        o.local[d] = uint32_t(o.global[d] % l);
        if (o.group[d] >= trace.groups[d]) return std::nullopt;
    }
    o.linear = uint32_t(o.local[0] + trace.local[0] * (o.local[1] + trace.local[1] * o.local[2]));
    return o;
}

std::optional<CellInfo> cell_info(const Trace& trace, const MatrixRoles& roles, int64_t row, int64_t col) {
    auto owner = cell_owner(trace, roles, row, col);
    if (!owner) return std::nullopt;
    CellInfo info;
    info.owner = *owner;
    info.operands = uint64_t(2 * trace.size.K);
    if (const GroupTrace* g = trace.find_group(owner->group)) {
        info.has_detail = true;
        for (const BarrierInterval& in : g->intervals)
            for (const WorkItemTraffic& w : in.work_items)
                if (w.work_item == owner->linear) {
                    info.global_loads += w.global.loads;
                    info.local_loads += w.local.loads;
                }
    }
    if (const TracedBuffer* a = trace.find_buffer(roles.a); a && !a->load_counts.empty() && row < a->rows) {
        double s = 0;
        for (int64_t k = 0; k < a->cols; ++k) s += a->loads_at(row, k);
        info.a_row_mean_loads = a->cols ? s / double(a->cols) : 0;
    }
    if (const TracedBuffer* b = trace.find_buffer(roles.b); b && !b->load_counts.empty() && col < b->cols) {
        double s = 0;
        for (int64_t k = 0; k < b->rows; ++k) s += b->loads_at(k, col);
        info.b_col_mean_loads = b->rows ? s / double(b->rows) : 0;
    }
    return info;
}

ReuseLine reuse_line(const Trace& trace, std::string_view buffer, std::string_view role) {
    ReuseLine r;
    r.buffer = std::string(buffer);
    const TracedBuffer* b = trace.find_buffer(buffer);
    if (!b || b->load_counts.empty()) return r;
    r.min_loads = *std::min_element(b->load_counts.begin(), b->load_counts.end());
    r.max_loads = *std::max_element(b->load_counts.begin(), b->load_counts.end());
    double s = 0;
    for (uint32_t c : b->load_counts) s += c;
    r.mean_loads = s / double(b->load_counts.size());
    // The rung's closed form (kernels/ladder.json), at the traced sizes and parameters.
    const std::optional<ExpectedTraffic> e = expected_traffic(trace);
    const std::optional<uint64_t> loads = !e ? std::nullopt : role == "A" ? e->a_element_loads : role == "B" ? e->b_element_loads : std::nullopt;
    const ClosedForm* form = loads ? e->form(role == "A" ? "A_element_loads" : "B_element_loads") : nullptr;
    int64_t expected = -1;
    if (form) {
        expected = int64_t(*loads);
        const std::string n = std::to_string(expected);
        r.formula = "each element of ";
        r.formula.append(role).append(" is loaded ").append(form->text);
        if (form->text != n) r.formula.append(" = ").append(n);
        r.formula.append(expected == 1 ? " time" : " times");
    }
    r.formula_matches = expected >= 0 && r.min_loads == uint32_t(expected) && r.max_loads == uint32_t(expected);
    return r;
}

float heat_position(uint32_t loads) {
    if (loads == 0) return -1.f;
    return float(std::min(1.0, std::log2(double(loads)) / std::log2(double(kHeatMaxLoads))));
}

std::vector<uint32_t> heat_ticks() {
    std::vector<uint32_t> t;
    for (uint32_t v = 1; v <= kHeatMaxLoads; v *= 4) t.push_back(v);
    return t;
}

}  // namespace tilescope
