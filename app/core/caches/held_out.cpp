#include "core/caches/held_out.h"

#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>

#include "core/base/embedded_files.h"
#include "core/base/errors.h"
#include "core/base/number_text.h"

namespace tilescope {

double HeldOutRow::l2_error_pct() const {
    return model_l2 && ncu_l2 > 0 ? (*model_l2 - ncu_l2) / ncu_l2 * 100.0 : 0.0;
}
bool HeldOutRow::l2_within() const { return model_l2 && std::fabs(l2_error_pct()) <= kHeldOutL2Target; }
bool HeldOutRow::l1_within() const {
    return model_l1_hit && std::fabs(*model_l1_hit - ncu_l1_hit) <= kHeldOutL1Target;
}

namespace {

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> out;
    std::string cell;
    std::istringstream in(line);
    while (std::getline(in, cell, ',')) out.push_back(cell);
    if (!line.empty() && line.back() == ',') out.push_back("");
    return out;
}

std::vector<std::vector<std::string>> read_csv(const std::string& text, const std::vector<std::string>& head,
                                               const std::string& what) {
    std::istringstream in(text);
    std::string line;
    std::vector<std::vector<std::string>> rows;
    std::map<std::string, size_t> column;
    size_t n = 0;
    while (std::getline(in, line)) {
        ++n;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        std::vector<std::string> cells = split(line);
        if (column.empty()) {
            for (size_t i = 0; i < cells.size(); ++i) column[cells[i]] = i;
            for (const std::string& h : head)
                if (!column.count(h)) throw InputError(what + ": no column '" + h + "' in the header line");
            continue;
        }
        if (rows.size() >= 10000) throw InputError(what + ": more than 10,000 rows; accepted: at most 10,000");
        if (cells.size() < column.size())
            throw InputError(what + ": line " + std::to_string(n) + " has " + std::to_string(cells.size()) +
                             " cells, the header " + std::to_string(column.size()));
        std::vector<std::string> picked;
        for (const std::string& h : head) picked.push_back(cells[column[h]]);
        rows.push_back(std::move(picked));
    }
    return rows;
}

double number(const std::string& s, const std::string& what, const std::string& name) {
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || !std::isfinite(v) || v < 0)
        throw InputError(what + ": " + name + " '" + s + "' is not a number >= 0");
    return v;
}

std::optional<double> maybe(const std::string& s, const std::string& what, const std::string& name) {
    if (s.empty()) return std::nullopt;
    return number(s, what, name);
}

// A table's size column: the edge of a cube, a whole number from 1 to 1,000,000.
int whole_size(const std::string& s, const std::string& what) {
    const double size = number(s, what, "size");
    if (size < 1 || size > 1e6 || size != std::floor(size))
        throw InputError(what + ": size '" + s + "' is not a whole number from 1 to 1,000,000");
    return int(size);
}

const HeldOutSource* source_of(const HeldOutTable& t, const std::string& gpu) {
    for (const HeldOutSource& s : t.sources)
        if (s.gpu == gpu) return &s;
    return nullptr;
}

std::string cube(int n) { return std::to_string(n) + "^3"; }

std::string signed_pct(double v) {
    std::string s = fixed(v, 1);
    return (v >= 0 ? "+" : "") + s + " %";
}

// One line for one level: `within` judges a row, `measured` writes what the hardware gave.
template <class Within, class Measured>
std::string line_for(const HeldOutTable& t, const std::string& gpu, const std::string& kernel, const char* target,
                     Within within, Measured measured) {
    const HeldOutSource* src = source_of(t, gpu);
    std::vector<const HeldOutRow*> rows;
    bool known_kernel = false;
    for (const HeldOutRow& r : t.rows)
        if (r.gpu == gpu && r.kernel == kernel) known_kernel = true;
    for (const HeldOutRow& r : t.rows)
        if (r.gpu == gpu && (!known_kernel || r.kernel == kernel)) rows.push_back(&r);
    if (rows.empty() || !src) return "";
    const std::string where = src->tool + " on the lent " + src->device + ", " + src->date;
    std::vector<std::string> in, out, not_modelled;
    size_t modelled = 0;
    for (const HeldOutRow* r : rows) {
        const std::string label = known_kernel ? cube(r->size) : r->kernel + " " + cube(r->size);
        if (!r->modelled()) {
            not_modelled.push_back(label);
            continue;
        }
        ++modelled;
        if (within(*r)) in.push_back(label);
        else out.push_back(label + " (measured " + measured(*r) + ")");
    }
    auto join = [](const std::vector<std::string>& v) {
        std::string s;
        for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
        return s;
    };
    std::string s;
    if (known_kernel && modelled == 0) {
        s = "the model was not run for " + kernel + " at the held-out sizes, measured with " + where +
            ": quote the measurement (docs/caches.md), not this figure";
    } else if (known_kernel) {
        s = out.empty() && !in.empty() ? "the model is within " + std::string(target) + " for " + kernel +
                                             " at every held-out size modelled (" + join(in) + "; " + where + ")"
                                       : "the model is outside " + std::string(target) + " for " + kernel + " at " +
                                             join(out) + "; " + where +
                                             (in.empty() ? "" : "; within at " + join(in)) +
                                             ": quote the measurement, not this figure";
    } else {
        s = (kernel.empty() ? std::string() : kernel + " was not held to the hardware; of the kernels that were, ") +
            "the model is within " + std::string(target) + " for " + std::to_string(in.size()) + " of " +
            std::to_string(modelled) + " held-out launches (" + where + ")" +
            (in.empty() ? "" : ": " + join(in)) +
            (out.empty() ? "" : "; outside for the others: quote the measurement, not this figure (docs/caches.md)");
    }
    if (!not_modelled.empty()) s += "; not modelled: " + join(not_modelled);
    return s;
}

}  // namespace

HeldOutTable parse_held_out(const std::string& heldout_csv, const std::string& measured_csv, const std::string& what) {
    HeldOutTable t;
    for (const auto& c : read_csv(heldout_csv, {"gpu", "kernel", "size", "ncu_l2_sectors", "model_l2_sectors",
                                                "ncu_l1_hit_pct", "model_l1_hit_pct"},
                                  what)) {
        HeldOutRow r;
        r.gpu = c[0];
        r.kernel = c[1];
        r.size = whole_size(c[2], what);
        r.ncu_l2 = number(c[3], what, "ncu_l2_sectors");
        r.model_l2 = maybe(c[4], what, "model_l2_sectors");
        r.ncu_l1_hit = number(c[5], what, "ncu_l1_hit_pct");
        r.model_l1_hit = maybe(c[6], what, "model_l1_hit_pct");
        if (r.ncu_l1_hit > 100 || (r.model_l1_hit && *r.model_l1_hit > 100))
            throw InputError(what + ": an L1 hit rate above 100 % for " + r.kernel);
        if (r.gpu.empty() || r.kernel.empty()) throw InputError(what + ": a row without its gpu or kernel");
        t.rows.push_back(std::move(r));
    }
    for (const auto& c : read_csv(measured_csv, {"gpu", "device", "date", "tool"}, what))
        t.sources.push_back({c[0], c[1], c[2], c[3]});
    return t;
}

const HeldOutTable& held_out_table() {
    static const HeldOutTable table = [] {
        std::string rows, sources;
        for (const EmbeddedFile& f : embedded_files()) {
            if (f.path == "docs/results/caches31/heldout.csv") rows = f.text;
            if (f.path == "docs/results/caches31/measured.csv") sources = f.text;
        }
        if (rows.empty() || sources.empty()) return HeldOutTable{};
        return parse_held_out(rows, sources, "docs/results/caches31/heldout.csv");
    }();
    return table;
}

bool DramRow::within() const { return std::abs(error_pct()) <= kDramPastL2Target; }

std::vector<DramRow> parse_dram_past_l2(const std::string& csv, const std::string& what) {
    std::vector<DramRow> rows;
    for (const auto& c : read_csv(csv, {"gpu", "kernel", "size", "ncu_dram_read_sectors", "model_dram_read_sectors"}, what)) {
        DramRow r;
        r.gpu = c[0];
        r.kernel = c[1];
        r.size = whole_size(c[2], what);
        r.ncu = number(c[3], what, "ncu_dram_read_sectors");
        r.model = number(c[4], what, "model_dram_read_sectors");
        if (r.gpu.empty() || r.kernel.empty() || r.ncu <= 0)
            throw InputError(what + ": a row without its gpu or kernel, or with no measured reads");
        rows.push_back(std::move(r));
    }
    return rows;
}

const std::vector<DramRow>& dram_past_l2_table() {
    static const std::vector<DramRow> table = [] {
        for (const EmbeddedFile& f : embedded_files())
            if (f.path == "docs/results/caches31/dram_past_l2.csv")
                return parse_dram_past_l2(std::string(f.text), "docs/results/caches31/dram_past_l2.csv");
        return std::vector<DramRow>{};
    }();
    return table;
}

std::string dram_past_l2_line(const std::vector<DramRow>& rows, const HeldOutTable& t, const std::string& gpu,
                              const std::string& kernel) {
    const HeldOutSource* src = source_of(t, gpu);
    std::vector<std::string> in, out;
    for (const DramRow& r : rows) {
        if (r.gpu != gpu || r.kernel != kernel) continue;
        if (r.within()) in.push_back(cube(r.size));
        else
            out.push_back(cube(r.size) + " (measured " + grouped(uint64_t(r.ncu * 32 / 1e6 + 0.5)) + " MB, model " +
                          signed_pct(r.error_pct()) + ")");
    }
    if ((in.empty() && out.empty()) || !src) return "";
    auto join = [](const std::vector<std::string>& v) {
        std::string s;
        for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
        return s;
    };
    const std::string where = src->tool + " on the lent " + src->device + ", " + src->date;
    if (out.empty())
        return "the model is within 30 % for " + kernel + " at " + join(in) + " (" + where + ")";
    return "the model is outside 30 % for " + kernel + " at " + join(out) + "; " + where +
           (in.empty() ? "" : "; within at " + join(in)) + ": quote the measurement, not this figure";
}

std::string held_out_l2_line(const HeldOutTable& t, const std::string& gpu, const std::string& kernel) {
    return line_for(t, gpu, kernel, "15 %", [](const HeldOutRow& r) { return r.l2_within(); },
                    [](const HeldOutRow& r) {
                        return grouped(uint64_t(r.ncu_l2)) + " L2 sectors, model " + signed_pct(r.l2_error_pct());
                    });
}

std::string held_out_l1_line(const HeldOutTable& t, const std::string& gpu, const std::string& kernel) {
    return line_for(t, gpu, kernel, "3 points", [](const HeldOutRow& r) { return r.l1_within(); },
                    [](const HeldOutRow& r) {
                        return fixed(r.ncu_l1_hit, 2) + " % L1 hit, model " + fixed(*r.model_l1_hit, 2) + " %";
                    });
}

}  // namespace tilescope
