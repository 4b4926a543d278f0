#include "core/io/frame_export.h"

#include <map>

namespace tilescope {
using nlohmann::json;

namespace {

json id_json(const std::array<uint32_t, 3>& id, int dims) {
    json a = json::array();
    for (int d = 0; d < std::max(1, dims); ++d) a.push_back(id[d]);
    return a;
}

std::string id_text(const std::array<uint32_t, 3>& id, int dims) {
    std::string s;
    for (int d = 0; d < std::max(1, dims); ++d) s += (d ? "," : "") + std::to_string(id[d]);
    return s;
}

json element_json(const ElementRef& e) {
    return {{"buffer", e.matrix}, {"row", e.row}, {"col", e.col}, {"label", e.label}};
}

json local_json(const LocalCellRef& c, bool read) {
    json j = {{"array", c.array}, {"row", c.row}, {"col", c.col}, {"label", c.label}};
    if (read) j["iteration"] = c.iteration;
    if (c.stands_for) {
        j["stands_for"] = element_json(*c.stands_for);
        j["outside"] = c.stands_outside;
    }
    return j;
}

json story_json(const WorkItemStory& s, int dims) {
    json steps = json::array();
    for (const WorkItemStep& st : s.steps) {
        json loads = json::array(), stores = json::array(), local_stores = json::array(), local_reads = json::array();
        for (const ElementRef& e : st.loads) loads.push_back(element_json(e));
        for (const ElementRef& e : st.stores) stores.push_back(element_json(e));
        for (const LocalCellRef& c : st.local_stores) local_stores.push_back(local_json(c, false));
        for (const LocalCellRef& c : st.local_reads) local_reads.push_back(local_json(c, true));
        steps.push_back({{"phase", st.phase}, {"part", st.part}, {"interval", st.interval}, {"loads", loads},
                         {"stores", stores}, {"local_stores", local_stores}, {"local_reads", local_reads}});
    }
    return {{"group", id_json(s.group, dims)},
            {"local", id_json(s.local, dims)},
            {"global", id_json(s.global, dims)},
            {"computes", s.computes ? element_json(*s.computes) : json(nullptr)},
            {"assigned", s.assigned ? element_json(*s.assigned) : json(nullptr)},
            {"assigned_outside", s.assigned_outside},
            {"steps", steps},
            {"cases", s.cases}};
}

constexpr size_t kListed = 40;  // items a text line lists before "... and N more"

// "M0,1, M0,2" (global) or "M0,1 at (0,1)" (local) for one role.
std::string cells_line(const FrameArray& a, CellRole role) {
    std::string s;
    size_t n = 0;
    for (const FrameCell& c : a.cells)
        if (c.role == role && n++ < kListed)
            s += (s.empty() ? "" : ", ") + (a.local ? c.label + " at (" + std::to_string(c.row) + "," + std::to_string(c.col) + ")"
                                                    : c.label);
    if (n > kListed) s += " ... and " + std::to_string(n - kListed) + " more";
    return s;
}

std::string local_text(const LocalCellRef& c) {
    std::string s = c.array + "(" + std::to_string(c.row) + "," + std::to_string(c.col) + ") " + c.label;
    if (c.stands_for) s += c.stands_outside ? " (in place of " + c.stands_for->label + ", outside)" : "";
    return s;
}

}  // namespace

json frame_to_json(const Frame& f) {
    json cells = json::object(), arrays = json::object();
    for (const FrameArray& a : f.arrays) {
        json list = json::array();
        for (const FrameCell& c : a.cells)
            list.push_back({{"row", c.row}, {"col", c.col}, {"role", std::string(to_string(c.role))}, {"label", c.label}});
        cells[a.key] = std::move(list);
        arrays[a.key] = {{"buffer", a.buffer}, {"local", a.local}, {"rows", a.rows}, {"cols", a.cols}};
    }
    json sums = json::array();
    for (const CellSum& s : f.sums)
        sums.push_back({{"row", s.row}, {"col", s.col}, {"label", s.label}, {"local", id_json(s.local, f.dims)},
                        {"terms", s.terms}, {"text", s.text}});
    json zero_writes = json::array(), tiles = json::array();
    for (const ZeroWrite& z : f.zero_writes)
        zero_writes.push_back({{"local", id_json(z.local, f.dims)}, {"cell", local_json(z.cell, false)}});
    for (const TileInMatrix& t : f.tiles) {
        json outside = json::array();
        for (const auto& [r, c] : t.outside) outside.push_back({r, c});
        tiles.push_back({{"array", t.array}, {"matrix", t.matrix}, {"rect", {t.rect.r0, t.rect.c0, t.rect.r1, t.rect.c1}},
                         {"outside", outside}});
    }
    return {{"phases", f.phases},
            {"phase", f.phase},
            {"part", f.part},
            {"parts", f.parts},
            {"iteration", f.iteration ? json(*f.iteration) : json(nullptr)},
            {"iterations", f.iterations},
            {"iteration_rule", f.iteration_rule},
            {"title", f.title},
            {"group", id_json(f.group, f.dims)},
            {"interval", f.interval},
            {"has_log", f.has_log},
            {"cells", cells},
            {"arrays", arrays},
            {"sums", sums},
            {"item", f.item ? story_json(*f.item, f.dims) : json(nullptr)},
            {"zero_writes", zero_writes},
            {"tiles", tiles}};
}

std::string frame_text(const Frame& f) {
    std::string out = f.title + "\n";
    out += f.phases ? "  phase " + std::to_string(f.phase) + " of " + std::to_string(f.phases) + "; its parts:"
                    : std::string("  no phases (the kernel passes no barrier): the whole run is one part:");
    for (const std::string& p : f.parts) out += " " + p + (p == f.part ? " (shown)" : "");
    out += "\n  " + (f.iterations ? std::to_string(f.iterations) + " iterations: " + f.iteration_rule : f.iteration_rule) + "\n";
    if (!f.has_log) out += "  (this trace has no access log: what local cells hold is unknown)\n";
    const CellRole roles[] = {CellRole::Loaded, CellRole::Stored, CellRole::Read, CellRole::Accumulates, CellRole::Holds};
    for (const FrameArray& a : f.arrays) {
        out += "  " + a.key + (a.key != a.buffer ? " (" + a.buffer + ")" : "") + ", " + std::to_string(a.rows) + "x" +
               std::to_string(a.cols) + ":";
        if (a.cells.empty()) out += " nothing highlighted";
        out += "\n";
        for (CellRole r : roles)
            if (const std::string line = cells_line(a, r); !line.empty())
                out += "    " + std::string(to_string(r)) + ": " + line + "\n";
    }
    for (const TileInMatrix& t : f.tiles)
        if (!t.outside.empty())
            out += "  " + t.array + " holds the tile of " +
                   (t.matrix.size() == 1 ? element_name(t.matrix[0], 0, 0, f.naming).substr(0, 1) : t.matrix) + " at rows " + std::to_string(t.rect.r0) + ".." +
                   std::to_string(t.rect.r1) + ", columns " + std::to_string(t.rect.c0) + ".." + std::to_string(t.rect.c1) +
                   ": " + std::to_string(t.outside.size()) + " of its cells lie past the edge\n";
    for (const std::string& line : zero_write_lines(f)) out += "  " + line + "\n";
    for (const CellSum& s : f.sums)
        if (s.text != "0") out += "  " + s.label + " so far = " + s.text + "\n";
    if (!f.item) return out;
    const WorkItemStory& w = *f.item;
    out += "\nWork-item (" + id_text(w.local, f.dims) + ") of block (" + id_text(w.group, f.dims) + "), global id (" +
           id_text(w.global, f.dims) + "): ";
    out += w.computes ? "computes " + w.computes->label : std::string("computes no element of C (outside C)");
    if (!w.computes && w.assigned && w.assigned_outside) out += "; its global id stands for " + w.assigned->label;
    out += "\n";
    for (const WorkItemStep& st : w.steps) {
        std::vector<std::string> pieces;
        const auto listed = [&](const std::string& verb, const std::vector<std::string>& items) {
            std::string s;
            for (size_t n = 0; n < items.size() && n < kListed; ++n) s += (s.empty() ? verb + " " : ", ") + items[n];
            if (items.size() > kListed) s += " ... and " + std::to_string(items.size() - kListed) + " more";
            if (!s.empty()) pieces.push_back(s);
        };
        std::vector<std::string> loads, stores, writes;
        for (const ElementRef& e : st.loads) loads.push_back(e.label);
        for (const ElementRef& e : st.stores) stores.push_back(e.label);
        for (const LocalCellRef& c : st.local_stores) writes.push_back(local_text(c));
        listed("loads", loads);
        listed("writes", writes);
        std::map<int, std::vector<std::string>> reads;
        for (const LocalCellRef& c : st.local_reads) reads[c.iteration].push_back(local_text(c));
        for (const auto& [it, cells] : reads) listed("iteration " + std::to_string(it) + " reads", cells);
        listed("stores", stores);
        out += "  phase " + std::to_string(st.phase) + " " + st.part + ": ";
        for (size_t i = 0; i < pieces.size(); ++i) out += (i ? "; " : "") + pieces[i];
        out += (pieces.empty() ? "nothing" : "") + std::string("\n");
    }
    for (const std::string& c : w.cases) out += "  case: " + c + "\n";
    return out;
}

}  // namespace tilescope
