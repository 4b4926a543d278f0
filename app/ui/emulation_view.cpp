#include "ui/emulation_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ui/theme.h"

namespace tilescope::ui {
namespace {

uint64_t next_version() {
    static uint64_t v = 0;
    return ++v;
}

void fill(std::vector<uint32_t>& px, int cols, const Rect& r, ImU32 colour) {
    for (int64_t i = r.r0; i <= r.r1; ++i)
        for (int64_t j = r.c0; j <= r.c1; ++j) px[size_t(i) * cols + size_t(j)] = colour;
}

ImVec2 cell_pos(const MatrixPlacement& m, double row, double col) {
    const float cw = (m.p1.x - m.p0.x) / float(m.cols), ch = (m.p1.y - m.p0.y) / float(m.rows);
    return ImVec2(m.p0.x + float(col) * cw, m.p0.y + float(row) * ch);
}

void outline(ImDrawList* dl, const MatrixPlacement& m, const Rect& r, ImU32 colour, float thickness) {
    const ImVec2 a = cell_pos(m, double(r.r0), double(r.c0));
    const ImVec2 b = cell_pos(m, double(r.r1 + 1), double(r.c1 + 1));
    dl->AddRect(a, b, colour, 0.f, 0, thickness);
}

// Cell under the mouse, or false.
bool hit(const MatrixPlacement& m, ImVec2 mouse, int64_t& row, int64_t& col) {
    if (mouse.x < m.p0.x || mouse.y < m.p0.y || mouse.x >= m.p1.x || mouse.y >= m.p1.y) return false;
    col = int64_t((mouse.x - m.p0.x) / (m.p1.x - m.p0.x) * m.cols);
    row = int64_t((mouse.y - m.p0.y) / (m.p1.y - m.p0.y) * m.rows);
    col = std::clamp<int64_t>(col, 0, m.cols - 1);
    row = std::clamp<int64_t>(row, 0, m.rows - 1);
    return true;
}

std::string group_text(const GroupId& g, int dims) {
    char b[48];
    if (dims >= 3) std::snprintf(b, sizeof b, "(%u,%u,%u)", g[0], g[1], g[2]);
    else if (dims == 2) std::snprintf(b, sizeof b, "(%u,%u)", g[0], g[1]);
    else std::snprintf(b, sizeof b, "(%u)", g[0]);
    return b;
}

void label(ImDrawList* dl, ImVec2 at, ImU32 colour, const std::string& text) {
    dl->AddText(at, colour, text.c_str());
}

}  // namespace

void EmulationView::draw_matrix(ImDrawList* dl, Grid& g, const MatrixPlacement& m, float tile) {
    const Palette& pal = theme().pal;
    gfx::GridStyle st;
    const float cell_px = (m.p1.x - m.p0.x) / float(std::max(1, m.cols));
    st.tile = (tile > 0 && cell_px * tile >= 6.f) ? tile : 0.f;
    st.line = pal.grid_line;
    st.tile_line = pal.tile_line;
    gfx::draw_grid(dl, g.texture, m.p0.x, m.p0.y, m.p1.x, m.p1.y, st);
    dl->AddRect(ImVec2(m.p0.x - 1, m.p0.y - 1), ImVec2(m.p1.x + 1, m.p1.y + 1), pal.outline, 0.f, 0, 1.f);
}

void EmulationView::draw(AppState& state, TraceSlot& slot, ImVec2 origin, ImVec2 size, bool heatmap, bool interactive, bool compact) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Palette& pal = theme().pal;
    const float line = theme().line;
    placements_.clear();
    if (!slot.trace) {
        const char* text = slot.busy() ? "Tracing on the emulator..." : (slot.error.empty() ? "No trace yet: choose a kernel and press Trace." : "");
        dl->AddText(ImVec2(origin.x + 20, origin.y + 20), pal.faint_text, text);
        return;
    }
    const Trace& t = *slot.trace;
    const MatrixRoles& roles = slot.roles;
    const TracedBuffer* A = t.find_buffer(roles.a);
    const TracedBuffer* B = t.find_buffer(roles.b);
    const TracedBuffer* C = t.find_buffer(roles.c);
    if (!A || !B || !C) {
        dl->AddText(ImVec2(origin.x + 20, origin.y + 20), pal.faint_text,
                    "This kernel has no A, B and C matrices to draw (see --check C=A*B).");
        return;
    }
    Cursor& cur = state.cursor;
    const GroupPhaseView v = group_phase_view(t, roles, cur.group, cur.phase, cur.progress);

    // --- layout: B above C, A left of C, local arrays right of C ---
    const float fh = ImGui::GetFontSize();
    const float lh = fh * 1.5f, gap = std::max(12.f, fh);
    const float K = float(A->cols), M = float(C->rows), N = float(C->cols), Kb = float(B->rows);
    const bool show_locals = !heatmap && !v.locals.empty();
    const float local_w = show_locals ? std::min(size.x * (compact ? 0.16f : 0.24f), 300.f * (theme().presenter ? 1.4f : 1.f)) : 0.f;
    static const char* const kKeys[] = {"strip of A read by the group", "A tile loaded now", "B tile loaded now", "group's block of C",
                                        "C stored now", "local: stored now", "local: from earlier phase", "local: read now"};
    int legend_rows = 1;
    bool races = false;
    for (const Diagnostic& d : t.diagnostics)
        races |= (d.kind == DiagnosticKind::Race || d.kind == DiagnosticKind::Divergence) && !d.work_items.empty();
    if (!heatmap) {  // the keys wrap at the view's width: count the rows they take
        float x = gap;
        for (size_t k = 0; k < (show_locals ? 8u : 5u) + (races ? 1u : 0u); ++k) {
            const char* key_text = k < 5 ? kKeys[k] : k == 5 && races ? "work-items in a race / divergence" : kKeys[k - (races ? 1 : 0)];
            const float wk = fh * 2.f + ImGui::CalcTextSize(key_text).x;
            if (x + wk > size.x) {
                ++legend_rows;
                x = gap;
            }
            x += wk;
        }
    } else {
        legend_rows = 3;
    }
    const float legend_h = compact ? 0.f : fh * 1.5f * float(legend_rows) + fh * 0.5f;
    float s = std::min((size.x - local_w - gap * 3) / (K + N), (size.y - lh * 2 - gap - legend_h) / (Kb + M));
    s = std::max(s, 0.25f);
    const float left = origin.x + gap;
    const float top = origin.y + lh;
    MatrixPlacement pb{B->name, "B", ImVec2(left + K * s + gap, top), ImVec2(left + K * s + gap + N * s, top + Kb * s), int(B->rows), int(B->cols)};
    const float ctop = top + Kb * s + gap + lh;
    MatrixPlacement pa{A->name, "A", ImVec2(left, ctop), ImVec2(left + K * s, ctop + M * s), int(A->rows), int(A->cols)};
    MatrixPlacement pc{C->name, "C", ImVec2(pb.p0.x, ctop), ImVec2(pb.p1.x, ctop + M * s), int(C->rows), int(C->cols)};
    placements_ = {pa, pb, pc};

    // --- cell colours, recomputed only when what they show changes ---
    char key[256];
    std::snprintf(key, sizeof key, "%p|%d|%u,%u,%u|%d|%d", (const void*)&t, int(heatmap), v.group[0], v.group[1], v.group[2],
                  v.phase, int(theme().presenter));
    const bool stale = key != cache_key_ || version_ != slot.version;
    uint32_t heat_max = 1;  // one scale for A and B, so their colours compare
    for (const TracedBuffer* b : {A, B})
        for (uint32_t c : b->load_counts) heat_max = std::max(heat_max, c);
    if (stale) {
        cache_key_ = key;
        version_ = slot.version;
        auto paint = [&](Grid& g, const TracedBuffer& b, const std::vector<Rect>& strip, const std::vector<Rect>& now,
                         ImU32 strip_c, ImU32 now_c, bool heat_counts) {
            const int rows = int(b.rows), cols = int(b.cols);
            g.rgba.assign(size_t(rows) * cols, pal.cell_empty);
            if (heat_counts && !b.load_counts.empty()) {
                const uint32_t mx = heat_max;
                for (int i = 0; i < rows; ++i)
                    for (int j = 0; j < cols; ++j) {
                        const uint32_t c = b.loads_at(i, j);
                        g.rgba[size_t(i) * cols + j] = c ? heat(0.8f * float(c) / float(mx)) : pal.cell_empty;
                    }
            } else {
                for (const Rect& r : strip) fill(g.rgba, cols, r, strip_c);
                for (const Rect& r : now) fill(g.rgba, cols, r, now_c);
            }
            g.texture.upload(rows, cols, g.rgba, next_version());
        };
        paint(a_, *A, v.a_strip, v.a_loaded, pal.a_strip, pal.a_loaded, heatmap);
        paint(b_, *B, v.b_strip, v.b_loaded, pal.b_strip, pal.b_loaded, heatmap);
        if (heatmap) paint(c_, *C, {}, {}, 0, 0, false);
        else paint(c_, *C, v.c_block, v.c_stored, pal.c_block, pal.c_stored, false);
    }
    const float tile = float(t.tile);
    draw_matrix(dl, a_, pa, tile);
    draw_matrix(dl, b_, pb, tile);
    draw_matrix(dl, c_, pc, tile);

    // labels, as the slides name them
    auto dims = [](const TracedBuffer& b) { return std::to_string(b.rows) + "x" + std::to_string(b.cols); };
    ImGui::PushFont(theme().big);
    // names as on the slides, with the shape when it fits above the matrix
    auto name = [&](const MatrixPlacement& m, const char* n, const TracedBuffer& b) {
        const std::string full = std::string(n) + " " + dims(b);
        return ImGui::CalcTextSize(full.c_str()).x <= (m.p1.x - m.p0.x) + gap * 0.8f ? full : std::string(n);
    };
    label(dl, ImVec2(pa.p0.x, pa.p0.y - lh), pal.a_loaded, name(pa, "M (A)", *A));
    label(dl, ImVec2(pb.p0.x, pb.p0.y - lh), pal.b_loaded, name(pb, "N (B)", *B));
    label(dl, ImVec2(pc.p0.x, pc.p0.y - lh), pal.c_stored, name(pc, "P (C)", *C));
    ImGui::PopFont();

    // --- what this phase does, in words, in the free corner above A ---
    if (!heatmap && v.has_detail && !compact) {
        auto rect_lines = [](const char* m, const std::vector<Rect>& rs) {
            std::string out;
            for (const Rect& r : rs) {
                char b[96];
                std::snprintf(b, sizeof b, "  %s rows %lld..%lld, cols %lld..%lld\n", m, (long long)r.r0, (long long)r.r1, (long long)r.c0,
                              (long long)r.c1);
                out += b;
            }
            return out;
        };
        std::string text = "Work-group " + group_text(v.group, t.dims) + ", phase " + std::to_string(v.phase) + " of " +
                           std::to_string(v.phases) + "\n";
        const std::string loads = rect_lines("M", v.a_loaded) + rect_lines("N", v.b_loaded);
        if (!loads.empty()) text += "loads from global memory:\n" + loads;
        if (v.local.loads) text += "reads " + std::to_string(v.local.loads) + " floats from local memory\n";
        if (!v.c_stored.empty()) text += "stores to global memory:\n" + rect_lines("P", v.c_stored);
        text += v.end_line ? "ends at the barrier on line " + std::to_string(v.end_line) : std::string("ends when the group finishes");
        const float wrap = pb.p0.x - pa.p0.x - gap;
        const ImVec2 need = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap);
        if (wrap > 60.f && need.y <= pa.p0.y - lh - top)  // only where it fits: never over a matrix
            dl->AddText(nullptr, 0.f, ImVec2(pa.p0.x, top), pal.text, text.c_str(), nullptr, wrap);
    }

    // --- outlines: strips, this phase's tiles, the group's block of C ---
    if (!heatmap && v.has_detail) {
        for (const Rect& r : v.a_strip) outline(dl, pa, r, pal.outline, line);
        for (const Rect& r : v.b_strip) outline(dl, pb, r, pal.outline, line);
        for (const Rect& r : v.c_block) outline(dl, pc, r, pal.outline, line);
        for (const Rect& r : v.a_loaded) outline(dl, pa, r, pal.a_loaded, line);
        for (const Rect& r : v.b_loaded) outline(dl, pb, r, pal.b_loaded, line);
    }

    // --- cells a race or divergence corrupts (ladder convention: global (x,y) = (col,row)) ---
    int marked = 0;
    for (const Diagnostic& d : t.diagnostics) {
        if (d.kind != DiagnosticKind::Race && d.kind != DiagnosticKind::Divergence) continue;
        for (const WorkItemId& w : d.work_items) {
            if (marked++ > 256) break;
            const int64_t row = t.dims >= 2 ? w[1] : w[0], col = t.dims >= 2 ? w[0] : 0;
            if (row >= C->rows || col >= C->cols) continue;
            Rect r{row, col, row, t.dims >= 2 ? col : C->cols - 1};
            outline(dl, pc, r, pal.race, line);
        }
    }

    // --- local arrays beside C ---
    if (show_locals) {
        const float lx = pc.p1.x + gap * 2;
        float ly = pb.p0.y;  // the column right of B and C is free
        // Their own child window, so their own draw list: while work-items fill them only
        // this small region is repainted (gfx/damage_renderer), not the matrices.
        ImGui::PushID(this);
        ImGui::SetCursorScreenPos(ImVec2(lx - 2, ly - 2));
        ImGui::BeginChild("##locals", ImVec2(std::max(10.f, origin.x + size.x - lx), std::max(10.f, origin.y + size.y - legend_h - ly + 2)), false,
                          ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoInputs | ImGuiWindowFlags_NoBackground |
                              ImGuiWindowFlags_NoScrollWithMouse);
        ImDrawList* main_dl = dl;
        dl = ImGui::GetWindowDrawList();
        const float avail_h = std::max(20.f, (origin.y + size.y - legend_h - ly) / float(v.locals.size()) - lh - gap);
        while (locals_.size() < v.locals.size()) locals_.push_back(std::make_unique<Grid>());
        for (size_t i = 0; i < v.locals.size(); ++i) {
            const LocalArrayView& la = v.locals[i];
            const float cs = std::max(1.f, std::min((local_w - gap) / float(la.cols), avail_h / float(la.rows)));
            MatrixPlacement pl{la.name, "local", ImVec2(lx, ly + lh), ImVec2(lx + cs * la.cols, ly + lh + cs * la.rows), la.rows, la.cols};
            char buf[160];
            if (compact) std::snprintf(buf, sizeof buf, "%s", la.name.c_str());
            else std::snprintf(buf, sizeof buf, "local %s (%dx%d): %llu stored now", la.name.c_str(), la.rows, la.cols, (unsigned long long)la.stored);
            label(dl, ImVec2(lx, ly), pal.text, buf);
            Grid& g = *locals_[i];
            std::vector<uint32_t> rgba(la.writer.size(), pal.local_empty);
            for (size_t w = 0; w < la.writer.size(); ++w) {
                if (la.writer[w] >= 0) rgba[w] = la.fresh[w] ? pal.local_filled : pal.c_block;
                if (la.read[w]) rgba[w] = pal.local_read;
            }
            if (rgba != g.rgba || g.texture.rows() != la.rows || g.texture.cols() != la.cols) {  // upload only what changed
                g.rgba = std::move(rgba);
                g.texture.upload(la.rows, la.cols, g.rgba, next_version());
            }
            draw_matrix(dl, g, pl, 0);
            placements_.push_back(pl);
            ly = pl.p1.y + gap;
        }
        ImGui::EndChild();
        ImGui::PopID();
        dl = main_dl;
    }

    // --- legend ---
    if (!compact) {
        float x = origin.x + gap, y = origin.y + size.y - legend_h + fh * 0.3f;
        auto key_box = [&](ImU32 c, const char* text) {
            if (x + fh * 2.f + ImGui::CalcTextSize(text).x > origin.x + size.x) {
                x = origin.x + gap;
                y += fh * 1.5f;
            }
            dl->AddRectFilled(ImVec2(x, y + 2), ImVec2(x + fh, y + fh + 2), c);
            dl->AddRect(ImVec2(x, y + 2), ImVec2(x + fh, y + fh + 2), pal.outline);
            dl->AddText(ImVec2(x + fh * 1.4f, y), pal.text, text);
            x += fh * 2.f + ImGui::CalcTextSize(text).x;
        };
        if (heatmap) {
            dl->AddText(ImVec2(x, y), pal.text, "0");
            x += fh;
            for (int i = 0; i < 60; ++i)
                dl->AddRectFilled(ImVec2(x + i * 3, y + 2), ImVec2(x + i * 3 + 3, y + fh + 2), heat(0.8f * i / 59.f));
            x += 186;
            const std::string legend = std::to_string(heat_max) + "  global loads per element (white: never loaded)";
            dl->AddText(ImVec2(x, y), pal.text, legend.c_str());
            const ReuseLine ra = reuse_line(t, roles.a, "A"), rb = reuse_line(t, roles.b, "B");
            y += fh * 1.5f;
            x = origin.x + gap;
            char buf[400];
            auto sentence = [&](const ReuseLine& r, const char* role) {
                if (!r.formula.empty())
                    std::snprintf(buf, sizeof buf, "%s: %s; traced %u..%u %s", role, r.formula.c_str(), r.min_loads, r.max_loads,
                                  r.formula_matches ? "(matches)" : "(differs!)");
                else
                    std::snprintf(buf, sizeof buf, "%s: each element loaded %u..%u times, mean %.2f", role, r.min_loads, r.max_loads, r.mean_loads);
                return std::string(buf);
            };
            const std::string la = sentence(ra, "M (A)"), lb = sentence(rb, "N (B)");
            dl->AddText(ImVec2(x, y), pal.text, la.c_str());
            dl->AddText(ImVec2(x, y + fh * 1.5f), pal.text, lb.c_str());
        } else {
            key_box(pal.a_strip, "strip of A read by the group");
            key_box(pal.a_loaded, "A tile loaded now");
            key_box(pal.b_loaded, "B tile loaded now");
            key_box(pal.c_block, "group's block of C");
            key_box(pal.c_stored, "C stored now");
            if (marked > 0) key_box(pal.race, "work-items in a race / divergence");
            if (show_locals) {
                key_box(pal.local_filled, "local: stored now");
                key_box(pal.c_block, "local: from earlier phase");
                key_box(pal.local_read, "local: read now");
            }
        }
    }

    if (!v.has_detail && !heatmap) {
        const std::string msg = "Group " + group_text(cur.group, t.dims) + " has no detail in this trace" +
                                (slot.busy() ? ": tracing it now..." : ": click it in C to trace it.");
        dl->AddText(ImVec2(pc.p0.x, pc.p1.y + 4), pal.race, msg.c_str());
    }

    // --- hover and click ---
    // (scripted mode can pin the hover on a cell of C, for lesson screenshots)
    const bool pinned = state.hover_cell.has_value() && !compact;
    if (!pinned && (!interactive || !ImGui::IsWindowHovered())) return;
    ImVec2 mouse = ImGui::GetMousePos();
    if (pinned) {
        const ImVec2 p = cell_pos(pc, double(state.hover_cell->first) + 0.5, double(state.hover_cell->second) + 0.5);
        mouse = p;
        const bool right_half = p.x > ImGui::GetIO().DisplaySize.x * 0.5f;  // keep the tooltip on screen
        ImGui::SetNextWindowPos(ImVec2(right_half ? p.x - 16 : p.x + 16, p.y + 16), 0, ImVec2(right_half ? 1.f : 0.f, 0.f));
    }
    int64_t row = 0, col = 0;
    if (hit(pc, mouse, row, col)) {
        outline(dl, pa, Rect{row, 0, row, pa.cols - 1}, pal.hover, line);
        outline(dl, pb, Rect{0, col, pb.rows - 1, col}, pal.hover, line);
        outline(dl, pc, Rect{row, col, row, col}, pal.hover, line);
        if (auto info = cell_info(t, roles, row, col)) {
            const CellOwner& o = info->owner;
            ImGui::BeginTooltip();
            ImGui::Text("P(%lld, %lld) = row %lld of M . column %lld of N", (long long)row, (long long)col, (long long)row, (long long)col);
            ImGui::Text("work-group %s, work-item local (%u,%u) global (%u,%u)", group_text(o.group, t.dims).c_str(),
                        o.local[0], o.local[1], o.global[0], o.global[1]);
            if (info->has_detail)
                ImGui::Text("its reads: %llu from global, %llu from local memory (it needs 2K = %llu operands)",
                            (unsigned long long)info->global_loads, (unsigned long long)info->local_loads, (unsigned long long)info->operands);
            else
                ImGui::TextDisabled("its reads: no detail for this group in the trace (click to trace it)");
            ImGui::Text("row %lld of M: each element fetched from global %.1f times (mean)", (long long)row, info->a_row_mean_loads);
            ImGui::Text("column %lld of N: each element fetched from global %.1f times (mean)", (long long)col, info->b_col_mean_loads);
            ImGui::EndTooltip();
            if (!pinned && ImGui::IsMouseClicked(0)) {
                cur.group = o.group;
                cur.phase = std::min(cur.phase, std::max(0, phase_count(t, o.group) - 1));
                if (!t.find_group(o.group) && slot.config && !slot.busy()) {
                    std::vector<GroupId> groups;
                    for (const GroupTrace& g : t.detail) groups.push_back(g.group);
                    if (groups.size() > 16) groups.resize(16);
                    groups.push_back(o.group);
                    slot.start(*state.worker, *slot.config, groups);
                }
            }
        }
    } else if (hit(pa, mouse, row, col) || hit(pb, mouse, row, col)) {
        const bool is_a = hit(pa, mouse, row, col);
        const TracedBuffer* b = is_a ? A : B;
        ImGui::BeginTooltip();
        ImGui::Text("%s(%lld, %lld): loaded from global memory %u times over the whole run", is_a ? "M" : "N",
                    (long long)row, (long long)col, b->loads_at(row, col));
        ImGui::EndTooltip();
    }
}

}  // namespace tilescope::ui
