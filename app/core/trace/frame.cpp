#include "core/trace/frame.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "core/base/errors.h"
#include "core/trace/frame_replay.h"
#include "core/trace/phases.h"

namespace tilescope {
namespace {
using frame_replay::GroupReplay;
using frame_replay::Held;

const char* kIterationRule =
    "iteration i is the i-th read of each local array by each work-item in this part "
    "(tiled: one read of each tile per iteration)";

char letter(char role, Naming naming) {
    if (naming == Naming::Abc) return role;
    return role == 'A' ? 'M' : role == 'B' ? 'N' : 'P';
}

std::string id_text(const std::array<uint32_t, 3>& id, int dims) {
    std::string s;
    for (int d = 0; d < std::max(1, dims); ++d) s += (d ? "," : "") + std::to_string(id[d]);
    return s;
}

// Everything the pieces below share: a group prepared once (GroupFrames::State) seen
// with one naming.
struct Context {
    const Trace& trace;
    const MatrixRoles& roles;
    Naming naming;
    const GroupTrace& group;
    const PhasePlan& plan;
    const GroupReplay& replay;

    std::string matrix_of(uint32_t buffer) const {
        const char r = frame_replay::role_of(trace, roles, buffer);
        return r ? std::string(1, r) : trace.buffers[buffer].name;
    }
    std::string global_label(uint32_t buffer, uint32_t element) const {
        const auto [r, c] = frame_replay::global_cell(trace, buffer, element);
        const char role = frame_replay::role_of(trace, roles, buffer);
        if (role) return element_name(role, r, c, naming);
        return trace.buffers[buffer].name + std::to_string(r) + "," + std::to_string(c);
    }
    ElementRef element_ref(uint32_t buffer, uint32_t element) const {
        const auto [r, c] = frame_replay::global_cell(trace, buffer, element);
        return {matrix_of(buffer), r, c, global_label(buffer, element)};
    }
    std::string held_label(const Held& h) const {
        switch (h.kind) {
        case Held::Element: {
            std::string s = global_label(h.buffer, h.element);
            if (trace.buffers[h.buffer].element_size > 4) s += "[" + std::to_string(h.word) + "]";
            return s;
        }
        case Held::Zero: return "0";
        case Held::Unknown: return "?";
        default: return "";
        }
    }
    using TileOffset = std::optional<std::tuple<uint16_t, int64_t, int64_t>>;
    // `offsets`: the tile offsets of the interval's local arrays, where the caller has them
    // (a frame names every zero of a part: one walk of each tile, not one per zero).
    LocalCellRef local_ref(const frame_replay::LocalAccess& a, int interval, const std::vector<TileOffset>* offsets = nullptr) const {
        const auto [r, c] = frame_replay::local_cell(trace, a.array, a.word);
        LocalCellRef ref{trace.local_buffers[a.array].name, r, c, held_label(a.held), a.iteration, false, std::nullopt, false};
        ref.written_zero = a.held.kind == Held::Zero;
        if (ref.written_zero && a.iteration < 0)
            infer_stand_in(ref, offsets && a.array < offsets->size() ? (*offsets)[a.array] : tile_offset(a.array, interval));
        return ref;
    }
    // The one offset at which every cell of local array `array` holding an element holds
    // one of one matrix (buffer, row offset, column offset) once `interval` ends; none
    // when cells disagree (a transposed tile) or none holds an element.
    TileOffset tile_offset(uint32_t array, int interval) const {
        const std::vector<Held>& cells = replay.after[interval][array];
        std::optional<std::tuple<uint16_t, int64_t, int64_t>> offset;
        for (uint32_t w = 0; w < cells.size(); ++w) {
            if (cells[w].kind != Held::Element || !trace.buffers[cells[w].buffer].is_matrix) continue;
            const auto [lr, lc] = frame_replay::local_cell(trace, array, w);
            const auto [gr, gc] = frame_replay::global_cell(trace, cells[w].buffer, cells[w].element);
            const std::tuple<uint16_t, int64_t, int64_t> o{cells[w].buffer, gr - lr, gc - lc};
            if (offset && *offset != o) return std::nullopt;
            offset = o;
        }
        return offset;
    }
    // Where local array `array`'s tile lies in its matrix once `interval` ends.
    std::optional<TileInMatrix> tile_in_matrix(uint32_t array, const TileOffset& offset) const {
        if (!offset) return std::nullopt;
        const auto [buffer, dr, dc] = *offset;
        const LocalBuffer& l = trace.local_buffers[array];
        const TracedBuffer& b = trace.buffers[buffer];
        TileInMatrix t{l.name, matrix_of(buffer), Rect{dr, dc, dr + int64_t(l.rows) - 1, dc + int64_t(l.cols) - 1}, {}};
        for (int64_t r = t.rect.r0; r <= t.rect.r1; ++r)
            for (int64_t c = t.rect.c0; c <= t.rect.c1; ++c)
                if (r < 0 || c < 0 || r >= b.rows || c >= b.cols) t.outside.push_back({r, c});
        return t;
    }
    // A written zero stands for the element its tile would hold there when every other
    // cell of the tile holds an element of one matrix at one offset from its cell.
    void infer_stand_in(LocalCellRef& ref, const TileOffset& offset) const {
        if (!offset) return;
        const auto [buffer, dr, dc] = *offset;
        const TracedBuffer& b = trace.buffers[buffer];
        const int64_t row = ref.row + dr, col = ref.col + dc;
        const char role = frame_replay::role_of(trace, roles, buffer);
        ref.stands_for = ElementRef{matrix_of(buffer), row, col,
                                    role ? element_name(role, row, col, naming)
                                         : b.name + std::to_string(row) + "," + std::to_string(col)};
        ref.stands_outside = row < 0 || col < 0 || row >= b.rows || col >= b.cols;
    }
};

const GroupTrace& detail_group(const Trace& trace, const GroupId& group) {
    const GroupTrace* g = trace.find_group(group);
    if (!g) {
        std::string kept;
        for (const GroupTrace& d : trace.detail) kept += (kept.empty() ? "" : "; ") + id_text(d.group, trace.dims);
        throw InputError("--group " + id_text(group, trace.dims) + ": the trace kept no detail for this work-group; accepted: " +
                         (kept.empty() ? "none (trace again with --groups)" : kept));
    }
    return *g;
}

std::optional<ElementRef> computes_of(const Context& cx, uint32_t lane) {
    const int e = cx.replay.c_element[lane];
    if (e < 0) return std::nullopt;
    for (uint32_t b = 0; b < cx.trace.buffers.size(); ++b)
        if (frame_replay::role_of(cx.trace, cx.roles, b) == 'C') return cx.element_ref(b, uint32_t(e));
    return std::nullopt;
}

// The sum of `lane` up to interval `last` (and, in it, up to `iteration`; none: all).
CellSum sum_of(const Context& cx, uint32_t lane, int last, std::optional<int> iteration) {
    CellSum s;
    s.local = cx.group.local_id(lane);
    for (int i = 0; i <= last && i < int(cx.replay.parts.size()); ++i) {
        std::map<int, std::vector<std::pair<uint16_t, std::string>>> by_iteration;
        for (const auto& r : cx.replay.parts[i][lane].local_reads)
            if (i < last || !iteration || r.iteration <= *iteration)
                by_iteration[r.iteration].emplace_back(r.array, cx.held_label(r.held));
        for (auto& [it, reads] : by_iteration) {
            std::stable_sort(reads.begin(), reads.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
            std::string term;
            for (const auto& [array, label] : reads) term += (term.empty() ? "" : "\u00b7") + label;
            s.terms.push_back(term);
        }
    }
    for (const std::string& t : s.terms) s.text += (s.text.empty() ? "" : " + ") + t;
    if (s.text.empty()) s.text = "0";
    return s;
}

std::string matrix_size(const TracedBuffer& b) { return std::to_string(b.rows) + "x" + std::to_string(b.cols); }

// The slides' two cases, from what the work-item did.
std::vector<std::string> cases_of(const Context& cx, const WorkItemStory& s) {
    std::vector<std::string> out;
    const auto name = [&](const std::string& matrix) {
        return matrix.size() == 1 ? std::string(1, letter(matrix[0], cx.naming)) : matrix;
    };
    if (!s.computes) {
        std::string loads;
        for (const WorkItemStep& st : s.steps)
            for (const ElementRef& e : st.loads)
                if (e.matrix == "A" || e.matrix == "B")
                    loads += (loads.empty() ? "" : ", ") + e.label + " in phase " + std::to_string(st.phase);
        if (!loads.empty()) {
            std::string where = "computes no element of " + name("C");
            if (s.assigned && s.assigned_outside)
                where += " (its global id stands for " + s.assigned->label + ", outside " + name("C") + ")";
            out.push_back("a work-item that " + where + " but loads for its group: " + loads);
        }
    } else {
        std::string zeros;
        for (const WorkItemStep& st : s.steps)
            for (const LocalCellRef& c : st.local_stores)
                if (c.written_zero) {
                    zeros += (zeros.empty() ? "" : "; ") + std::string("0 into ") + c.array + "(" + std::to_string(c.row) +
                             "," + std::to_string(c.col) + ") in phase " + std::to_string(st.phase);
                    if (c.stands_for)
                        zeros += std::string(c.stands_outside ? " in place of " : " for ") + c.stands_for->label +
                                 (c.stands_outside ? ", which lies outside " + name(c.stands_for->matrix) : "");
                }
        if (!zeros.empty())
            out.push_back("a work-item that computes a valid element (" + s.computes->label +
                          ") but writes a zero instead of loading: " + zeros);
    }
    return out;
}

WorkItemStory story_of(const Context& cx, const WorkItemId& local) {
    const GroupTrace& g = cx.group;
    for (int d = 0; d < 3; ++d)
        if (local[d] >= g.size[d])
            // Every component is named: a Z outside once read "--item 0,0: accepted: X < 8 and Y < 8".
            throw InputError("--item " + id_text(local, local[2] ? 3 : cx.trace.dims) +
                             ": accepted: a local id X,Y with X < " + std::to_string(g.size[0]) + " and Y < " +
                             std::to_string(g.size[1]) + (g.size[2] > 1 ? " and Z < " + std::to_string(g.size[2]) : " (and Z 0)") +
                             " (the work-group is " + std::to_string(g.size[0]) + "x" + std::to_string(g.size[1]) +
                             (g.size[2] > 1 ? "x" + std::to_string(g.size[2]) : "") + ")");
    WorkItemStory s;
    s.group = g.group;
    s.local = local;
    s.linear = local[0] + g.size[0] * (local[1] + g.size[1] * local[2]);
    for (int d = 0; d < 3; ++d) s.global[d] = g.group[d] * g.size[d] + local[d];
    s.computes = computes_of(cx, s.linear);
    for (uint32_t b = 0; b < cx.trace.buffers.size() && cx.trace.dims == 2; ++b) {
        if (frame_replay::role_of(cx.trace, cx.roles, b) != 'C' || !cx.trace.buffers[b].is_matrix) continue;
        const int64_t row = s.global[1], col = s.global[0];
        s.assigned = ElementRef{"C", row, col, element_name('C', row, col, cx.naming)};
        s.assigned_outside = row >= cx.trace.buffers[b].rows || col >= cx.trace.buffers[b].cols;
    }
    for (const PhasePart& p : cx.plan.parts) {
        WorkItemStep st;
        st.phase = p.phase;
        st.interval = p.interval;
        st.part = p.name;
        const frame_replay::ItemPart& ip = cx.replay.parts[p.interval][s.linear];
        for (const auto& a : ip.loads) st.loads.push_back(cx.element_ref(a.buffer, a.element));
        for (const auto& a : ip.stores) st.stores.push_back(cx.element_ref(a.buffer, a.element));
        for (const auto& a : ip.local_stores) st.local_stores.push_back(cx.local_ref(a, p.interval));
        for (const auto& a : ip.local_reads) st.local_reads.push_back(cx.local_ref(a, p.interval));
        s.steps.push_back(std::move(st));
    }
    s.cases = cases_of(cx, s);
    return s;
}

std::string capitalised(std::string s) {
    if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = char(s[0] - 'a' + 'A');
    return s;
}

// The cells of one frame, array by array.
void fill_arrays(const Context& cx, Frame& f) {
    const int in = f.interval;
    const auto& lanes = cx.replay.parts[in];
    const auto at_iteration = [&](int it) { return !f.iteration || it == *f.iteration; };
    std::map<std::string, std::set<FrameCell>> cells;  // by key
    const auto add = [&](const std::string& key, int64_t r, int64_t c, CellRole role, std::string label) {
        cells[key].insert({r, c, role, std::move(label)});
    };
    const bool no_local = cx.trace.local_buffers.empty();
    for (uint32_t lane = 0; lane < lanes.size(); ++lane) {
        const frame_replay::ItemPart& ip = lanes[lane];
        for (const auto& a : ip.loads) {
            const auto [r, c] = frame_replay::global_cell(cx.trace, a.buffer, a.element);
            add(cx.matrix_of(a.buffer), r, c, CellRole::Loaded, cx.global_label(a.buffer, a.element));
        }
        for (const auto& a : ip.stores) {
            const auto [r, c] = frame_replay::global_cell(cx.trace, a.buffer, a.element);
            add(cx.matrix_of(a.buffer), r, c, CellRole::Stored, cx.global_label(a.buffer, a.element));
        }
        for (const auto& a : ip.local_stores) {
            const auto [r, c] = frame_replay::local_cell(cx.trace, a.array, a.word);
            add(cx.trace.local_buffers[a.array].name, r, c, CellRole::Stored,
                cx.held_label(cx.replay.after[in][a.array][a.word]));
        }
        bool grows = false;
        for (const auto& a : ip.local_reads) {
            if (!at_iteration(a.iteration)) continue;
            const auto [r, c] = frame_replay::local_cell(cx.trace, a.array, a.word);
            add(cx.trace.local_buffers[a.array].name, r, c, CellRole::Read, cx.held_label(a.held));
            grows = true;
        }
        // A kernel without local memory: a sum grows where its work-item loads A or B.
        if (no_local)
            for (const auto& a : ip.loads) grows = grows || std::string("AB").find(cx.matrix_of(a.buffer)) != std::string::npos;
        if (const auto c = computes_of(cx, lane); grows && c) add("C", c->row, c->col, CellRole::Accumulates, c->label);
    }
    // Local cells holding a value from an earlier part, untouched in this frame.
    for (uint32_t a = 0; a < cx.trace.local_buffers.size(); ++a) {
        const std::string& name = cx.trace.local_buffers[a].name;
        const std::vector<Held>& held = cx.replay.after[in][a];
        std::set<std::pair<int64_t, int64_t>> shown;
        for (const FrameCell& fc : cells[name]) shown.insert({fc.row, fc.col});
        for (uint32_t w = 0; w < held.size(); ++w) {
            if (held[w].kind == Held::Nothing) continue;
            const auto [r, c] = frame_replay::local_cell(cx.trace, a, w);
            if (!shown.count({r, c})) add(name, r, c, CellRole::Holds, cx.held_label(held[w]));
        }
    }
    const std::pair<char, const std::string*> matrices[] = {{'A', &cx.roles.a}, {'B', &cx.roles.b}, {'C', &cx.roles.c}};
    for (const auto& [role, name] : matrices) {
        const TracedBuffer* b = name->empty() ? nullptr : cx.trace.find_buffer(*name);
        if (!b) continue;
        FrameArray fa{std::string(1, role), b->name, false, b->rows, b->cols, {}};
        fa.cells.assign(cells[fa.key].begin(), cells[fa.key].end());
        f.arrays.push_back(std::move(fa));
    }
    for (const LocalBuffer& l : cx.trace.local_buffers) {
        FrameArray fa{l.name, l.name, true, int64_t(l.rows), int64_t(l.cols), {}};
        fa.cells.assign(cells[l.name].begin(), cells[l.name].end());
        f.arrays.push_back(std::move(fa));
    }
}

}  // namespace

std::string_view to_string(CellRole role) {
    switch (role) {
    case CellRole::Loaded: return "loaded";
    case CellRole::Stored: return "stored";
    case CellRole::Read: return "read";
    case CellRole::Accumulates: return "accumulates";
    case CellRole::Holds: return "holds";
    }
    return "";
}

std::optional<Naming> parse_naming(std::string_view text) {
    if (text == "slides") return Naming::Slides;
    if (text == "abc") return Naming::Abc;
    return std::nullopt;
}

std::string element_name(char role, int64_t row, int64_t col, Naming naming) {
    return std::string(1, letter(role, naming)) + std::to_string(row) + "," + std::to_string(col);
}

bool FrameCell::operator<(const FrameCell& o) const {
    return std::tie(row, col, role, label) < std::tie(o.row, o.col, o.role, o.label);
}

std::vector<WorkItemId> Frame::zero_writers(std::string_view array) const {
    std::vector<WorkItemId> out;
    for (const ZeroWrite& z : zero_writes)
        if (z.cell.array == array && std::find(out.begin(), out.end(), z.local) == out.end()) out.push_back(z.local);
    return out;
}

std::vector<ItemCell> item_cells(const Frame& f) {
    std::vector<ItemCell> out;
    if (!f.item) return out;
    auto add = [&](const std::string& array, int64_t row, int64_t col) {
        ItemCell c{array, row, col};
        if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(std::move(c));
    };
    for (const WorkItemStep& s : f.item->steps) {
        if (s.interval != f.interval) continue;
        for (const ElementRef& e : s.loads) add(e.matrix, e.row, e.col);
        for (const ElementRef& e : s.stores) add(e.matrix, e.row, e.col);
        for (const LocalCellRef& c : s.local_stores) add(c.array, c.row, c.col);
        for (const LocalCellRef& c : s.local_reads)
            if (!f.iteration || c.iteration == *f.iteration) add(c.array, c.row, c.col);
    }
    return out;
}

namespace {

// "a..b" or "a" alone.
std::string span(int64_t a, int64_t b) { return a == b ? std::to_string(a) : std::to_string(a) + ".." + std::to_string(b); }

// Points (two coordinates each) that fill the rectangle of their extremes, each once: that
// rectangle ({lo0, lo1, hi0, hi1}); else none.
std::optional<std::array<int64_t, 4>> filled_rectangle(const std::vector<std::array<int64_t, 2>>& pts) {
    if (pts.empty()) return std::nullopt;
    std::array<int64_t, 4> r{pts[0][0], pts[0][1], pts[0][0], pts[0][1]};
    for (const auto& p : pts) r = {std::min(r[0], p[0]), std::min(r[1], p[1]), std::max(r[2], p[0]), std::max(r[3], p[1])};
    std::set<std::array<int64_t, 2>> distinct(pts.begin(), pts.end());
    if (int64_t(distinct.size()) != (r[2] - r[0] + 1) * (r[3] - r[1] + 1)) return std::nullopt;
    return r;
}

std::vector<std::string> zero_lines(const Frame& f, bool brief) {
    std::vector<std::string> out;
    std::vector<std::string> arrays;  // in the order their zeros were written
    for (const ZeroWrite& z : f.zero_writes)
        if (std::find(arrays.begin(), arrays.end(), z.cell.array) == arrays.end()) arrays.push_back(z.cell.array);
    for (const std::string& array : arrays) {
        std::string who, what;
        std::set<std::string> matrices;
        bool all_outside = true, all_named = true;
        for (const WorkItemId& w : f.zero_writers(array)) who += (who.empty() ? "" : ", ") + ("(" + id_text(w, f.dims) + ")");
        for (const ZeroWrite& z : f.zero_writes) {
            if (z.cell.array != array) continue;
            if (!z.cell.stands_for) {
                all_named = false;
                continue;
            }
            what += (what.empty() ? "" : ", ") + z.cell.stands_for->label;
            all_outside = all_outside && z.cell.stands_outside;
            const std::string& m = z.cell.stands_for->matrix;
            matrices.insert(m.size() == 1 ? std::string(1, letter(m[0], f.naming)) : m);
        }
        const std::vector<WorkItemId> writers = f.zero_writers(array);
        const size_t n = writers.size();
        std::vector<std::array<int64_t, 2>> elements;  // row, column of each element stood for
        for (const ZeroWrite& z : f.zero_writes)
            if (z.cell.array == array && z.cell.stands_for) elements.push_back({z.cell.stands_for->row, z.cell.stands_for->col});
        if (brief && n > 4) {
            std::vector<std::array<int64_t, 2>> ids;
            for (const WorkItemId& w : writers) ids.push_back({int64_t(w[0]), int64_t(w[1])});
            const bool flat = std::all_of(writers.begin(), writers.end(), [&](const WorkItemId& w) { return w[2] == writers.front()[2]; });
            const auto r = f.dims >= 2 && flat ? filled_rectangle(ids) : std::nullopt;
            who = r ? "(" + span((*r)[0], (*r)[2]) + "," + span((*r)[1], (*r)[3]) + ")" : std::to_string(n) + " in all";
        }
        if (brief && elements.size() > 4 && matrices.size() == 1) {
            const auto r = filled_rectangle(elements);
            what = r ? *matrices.begin() + span((*r)[0], (*r)[2]) + "," + span((*r)[1], (*r)[3])
                     : std::to_string(elements.size()) + " elements of " + *matrices.begin();
        }
        std::string line = array + ": work-item" + (n == 1 ? " " : "s ") + who + " write" + (n == 1 ? "s" : "") + " 0";
        if (all_named && !what.empty()) {
            line += " in place of " + what;
            if (all_outside && matrices.size() == 1) line += " (outside " + *matrices.begin() + ")";
        }
        out.push_back(std::move(line));
    }
    return out;
}

}  // namespace

std::vector<std::string> zero_write_lines(const Frame& f) { return zero_lines(f, false); }
std::vector<std::string> zero_write_lines_brief(const Frame& f) { return zero_lines(f, true); }

const FrameArray* Frame::find(std::string_view key) const {
    for (const FrameArray& a : arrays)
        if (a.key == key) return &a;
    return nullptr;
}

// The frame of `request` from a prepared group; sums: every C cell's sum so far in words
// (the hand-out asks only how many terms each has, GroupFrames::term_counts).
static Frame frame_of(const Context& cx, const FrameRequest& request, bool sums) {
    const Trace& trace = cx.trace;
    Frame f;
    f.dims = trace.dims;
    f.naming = request.naming;
    f.group = request.group;
    f.phases = cx.plan.phases;
    const int accepted = std::max(1, cx.plan.phases);
    if (request.phase < 0 || request.phase >= accepted)
        throw InputError("--phase " + std::to_string(request.phase) + ": accepted: 0.." + std::to_string(accepted - 1) +
                         " (work-group " + id_text(request.group, trace.dims) + " has " + std::to_string(accepted) +
                         (accepted == 1 ? " phase)" : " phases)"));
    f.phase = request.phase;
    for (const PhasePart& p : cx.plan.parts_of(f.phase)) f.parts.push_back(p.name);
    f.interval = cx.plan.interval_of(f.phase, request.part);
    if (f.interval < 0) {
        std::string names;
        for (const std::string& n : f.parts) names += (names.empty() ? "" : ", ") + n;
        throw InputError("--part '" + shown(request.part, 40) + "': accepted: " + names + " (the parts of phase " +
                         std::to_string(f.phase) + ")");
    }
    f.part = cx.plan.part_at(f.interval)->name;
    f.has_log = cx.replay.has_log;
    for (const frame_replay::ItemPart& ip : cx.replay.parts[f.interval]) f.iterations = std::max(f.iterations, ip.iterations);
    f.iteration_rule = f.iterations ? kIterationRule : "this part reads no local memory: it has no iterations";
    if (request.iteration) {
        if (f.iterations == 0)
            throw InputError("--iteration " + std::to_string(*request.iteration) + ": the " + f.part + " part of phase " +
                             std::to_string(f.phase) + " reads no local memory, so it has no iterations; accepted: none (leave it out)");
        if (*request.iteration < 0 || *request.iteration >= f.iterations)
            throw InputError("--iteration " + std::to_string(*request.iteration) + ": accepted: 0.." +
                             std::to_string(f.iterations - 1) + " (the " + f.part + " part of phase " +
                             std::to_string(f.phase) + " has " + std::to_string(f.iterations) + " iterations)");
        f.iteration = request.iteration;
    }
    if (request.item) f.item = story_of(cx, *request.item);
    // Who wrote zeros in this part, and where each local array's tile lies in its matrix.
    std::vector<Context::TileOffset> offsets;
    for (uint32_t a = 0; a < trace.local_buffers.size(); ++a) offsets.push_back(cx.tile_offset(a, f.interval));
    const auto& lanes = cx.replay.parts[f.interval];
    for (uint32_t lane = 0; lane < lanes.size(); ++lane)
        for (const auto& a : lanes[lane].local_stores)
            if (a.held.kind == Held::Zero) f.zero_writes.push_back({cx.group.local_id(lane), cx.local_ref(a, f.interval, &offsets)});
    for (uint32_t a = 0; a < trace.local_buffers.size(); ++a)
        if (auto t = cx.tile_in_matrix(a, offsets[a])) f.tiles.push_back(std::move(*t));
    f.title = (cx.plan.phases ? "Phase " + std::to_string(f.phase) + " " : std::string()) + capitalised(f.part) +
              " for Block (" + id_text(f.group, trace.dims) + ")" +
              (f.iteration ? " (iteration " + std::to_string(*f.iteration) + ")" : "");
    fill_arrays(cx, f);
    if (!sums) return f;
    // Sums of work-items that compute one element of C (a work-item computing several
    // mixes their terms in its reads: no sum is claimed for it).
    for (uint32_t lane = 0; lane < cx.replay.c_element.size(); ++lane)
        if (const auto c = computes_of(cx, lane); c && cx.replay.c_stores[lane] == 1) {
            CellSum s = sum_of(cx, lane, f.interval, f.iteration);
            s.row = c->row, s.col = c->col, s.label = c->label;
            f.sums.push_back(std::move(s));
        }
    std::sort(f.sums.begin(), f.sums.end(), [](const CellSum& a, const CellSum& b) {
        return std::tie(a.row, a.col) < std::tie(b.row, b.col);
    });
    return f;
}

struct GroupFrames::State {
    const Trace& trace;
    MatrixRoles roles;
    const GroupTrace& group;
    PhasePlan plan;
    GroupReplay replay;
    // Per work-item: terms of its sum from the intervals before each interval, and the
    // iterations (distinct, sorted) that add a term in each interval (issue 32: the
    // hand-out counts a frame's terms without rebuilding every sum).
    std::vector<std::vector<uint32_t>> terms_before;             // [lane][interval + 1]
    std::vector<std::vector<std::vector<int>>> term_iterations;  // [lane][interval]
    std::vector<uint32_t> sum_lanes;                             // lanes with a claimed sum, in the order of final sums
    std::vector<CellSum> final_sums;
};

static Context context_of(const GroupFrames::State& st, Naming naming) {
    return Context{st.trace, st.roles, naming, st.group, st.plan, st.replay};
}

GroupFrames::GroupFrames(const Trace& trace, const MatrixRoles& roles, const GroupId& group) {
    const GroupTrace& g = detail_group(trace, group);
    auto state = std::shared_ptr<State>(new State{trace, roles, g, phase_plan(g), frame_replay::replay(trace, roles, g), {}, {}, {}, {}});
    State& st = *state;
    const size_t lanes = st.replay.c_element.size(), n = st.replay.parts.size();
    st.terms_before.assign(lanes, std::vector<uint32_t>(n + 1, 0));
    st.term_iterations.assign(lanes, std::vector<std::vector<int>>(n));
    for (size_t lane = 0; lane < lanes; ++lane)
        for (size_t i = 0; i < n; ++i) {
            std::vector<int>& its = st.term_iterations[lane][i];
            for (const auto& r : st.replay.parts[i][lane].local_reads) its.push_back(r.iteration);
            std::sort(its.begin(), its.end());
            its.erase(std::unique(its.begin(), its.end()), its.end());
            st.terms_before[lane][i + 1] = st.terms_before[lane][i] + uint32_t(its.size());
        }
    // The sums as the last part ends: what every frame's sums are a start of.
    if (n > 0) {
        const Context cx = context_of(st, Naming::Slides);
        std::vector<std::pair<CellSum, uint32_t>> sums;
        for (uint32_t lane = 0; lane < lanes; ++lane)
            if (const auto c = computes_of(cx, lane); c && st.replay.c_stores[lane] == 1) {
                CellSum s = sum_of(cx, lane, int(n) - 1, std::nullopt);
                s.row = c->row, s.col = c->col, s.label = c->label;
                sums.emplace_back(std::move(s), lane);
            }
        std::stable_sort(sums.begin(), sums.end(), [](const auto& a, const auto& b) {
            return std::tie(a.first.row, a.first.col) < std::tie(b.first.row, b.first.col);
        });
        for (auto& [s, lane] : sums) {
            st.final_sums.push_back(std::move(s));
            st.sum_lanes.push_back(lane);
        }
    }
    state_ = std::move(state);
}

Frame GroupFrames::frame(const FrameRequest& request, bool sums) const {
    return frame_of(context_of(*state_, request.naming), request, sums);
}

WorkItemStory GroupFrames::story(const WorkItemId& local, Naming naming) const { return story_of(context_of(*state_, naming), local); }

std::optional<CellSum> GroupFrames::sum(const FrameRequest& request, int64_t row, int64_t col) const {
    const Frame f = frame_of(context_of(*state_, request.naming), FrameRequest{request.group, request.phase, request.part,
                                                                   request.iteration, std::nullopt, request.naming}, false);
    const Context cx = context_of(*state_, request.naming);
    for (uint32_t lane = 0; lane < state_->replay.c_element.size(); ++lane)
        if (const auto c = computes_of(cx, lane); c && state_->replay.c_stores[lane] == 1 && c->row == row && c->col == col) {
            CellSum s = sum_of(cx, lane, f.interval, f.iteration);
            s.row = c->row, s.col = c->col, s.label = c->label;
            return s;
        }
    return std::nullopt;
}

const std::vector<CellSum>& GroupFrames::final_sums() const { return state_->final_sums; }

std::vector<size_t> GroupFrames::term_counts(int interval, std::optional<int> iteration) const {
    std::vector<size_t> out;
    const State& st = *state_;
    for (const uint32_t lane : st.sum_lanes) {
        if (interval < 0 || size_t(interval) >= st.term_iterations[lane].size()) {
            out.push_back(0);
            continue;
        }
        const std::vector<int>& its = st.term_iterations[lane][size_t(interval)];
        const size_t here = iteration ? size_t(std::upper_bound(its.begin(), its.end(), *iteration) - its.begin()) : its.size();
        out.push_back(st.terms_before[lane][size_t(interval)] + here);
    }
    return out;
}

const PhasePlan& GroupFrames::plan() const { return state_->plan; }
const GroupId& GroupFrames::group() const { return state_->group.group; }

int GroupFrames::iterations(int interval) const {
    int n = 0;
    if (interval < 0 || size_t(interval) >= state_->replay.parts.size()) return 0;
    for (const frame_replay::ItemPart& ip : state_->replay.parts[size_t(interval)]) n = std::max(n, ip.iterations);
    return n;
}

Frame build_frame(const Trace& trace, const MatrixRoles& roles, const FrameRequest& request) {
    return GroupFrames(trace, roles, request.group).frame(request);
}

WorkItemStory work_item_story(const Trace& trace, const MatrixRoles& roles, const GroupId& group,
                              const WorkItemId& local, Naming naming) {
    return GroupFrames(trace, roles, group).story(local, naming);
}

std::optional<CellSum> cell_sum(const Trace& trace, const MatrixRoles& roles, const FrameRequest& request,
                                int64_t row, int64_t col) {
    return GroupFrames(trace, roles, request.group).sum(request, row, col);
}

}  // namespace tilescope
