#include "core/trace/analysis.h"

#include <algorithm>

#include "core/kernel/catalog.h"
#include "core/base/errors.h"
#include "core/base/expr.h"

namespace tilescope {

std::vector<SpaceTraffic> traffic_by_space(const Trace& t) {
    return {{"global", t.totals.global_load_bytes, t.totals.global_store_bytes},
            {"local", t.totals.local_load_bytes, t.totals.local_store_bytes},
            {"private", t.totals.private_load_bytes, t.totals.private_store_bytes}};
}

double compute_to_global_ratio(const Trace& t) {
    const double words = static_cast<double>(t.totals.global_load_bytes) / 4.0;
    return words > 0 ? t.totals.flops / words : 0.0;
}

namespace {
// The field of `e` that holds `quantity` (one of kClosedFormQuantities); null for others.
template <class Expected> auto* quantity_field(Expected& e, std::string_view quantity) {
    if (quantity == "global_load_bytes") return &e.global_load_bytes;
    if (quantity == "global_store_bytes") return &e.global_store_bytes;
    if (quantity == "local_load_bytes") return &e.local_load_bytes;
    if (quantity == "local_store_bytes") return &e.local_store_bytes;
    return quantity == "barriers" ? &e.barriers : nullptr;
}
}  // namespace

uint64_t ExpectedTraffic::value(std::string_view quantity) const {
    const uint64_t* v = quantity_field(*this, quantity);
    return v ? *v : 0;
}

const ClosedForm* ExpectedTraffic::form(std::string_view quantity) const {
    for (const ClosedForm& f : forms)
        if (f.quantity == quantity) return &f;
    return nullptr;
}

std::optional<ExpectedTraffic> expected_traffic(const KernelSpec& rung, const ProblemSize& size, int tile,
                                                const std::map<std::string, int64_t>& params) {
    if (rung.closed_forms.forms.empty() || size.M <= 0 || size.N <= 0 || size.K <= 0 || tile <= 0) return std::nullopt;
    SizeVars vars{size.M, size.N, size.K, tile};
    for (const TunableParam& p : rung.params) {
        const auto given = params.find(p.name);
        vars.params[p.name] = given == params.end() ? p.default_value : given->second;
    }
    ExpectedTraffic e;
    try {
        for (const auto& [name, expr] : rung.closed_forms.terms) vars.params[name] = eval_expr(expr, vars);
        // The ladder's convention: the term PHASES counts the trips round the tile loop
        // where they differ from the tiles along K (double buffering: P+1), else P does.
        for (const char* name : {"PHASES", "P"}) {
            const bool named = std::any_of(rung.closed_forms.terms.begin(), rung.closed_forms.terms.end(),
                                           [&](const auto& t) { return t.first == name; });
            if (named && vars.params.at(name) >= 0) {
                e.phases = static_cast<uint64_t>(vars.params.at(name));
                break;
            }
        }
        for (const ClosedForm& f : rung.closed_forms.forms) {
            const int64_t v = eval_expr(f.expr, vars);
            if (v < 0) return std::nullopt;
            if (uint64_t* field = quantity_field(e, f.quantity)) *field = static_cast<uint64_t>(v);
            if (f.quantity == "A_element_loads") e.a_element_loads = static_cast<uint64_t>(v);
            if (f.quantity == "B_element_loads") e.b_element_loads = static_cast<uint64_t>(v);
        }
    } catch (const InputError&) {  // e.g. a division by a parameter of 0
        return std::nullopt;
    }
    e.forms = rung.closed_forms.forms;
    if (const ClosedForm* g = rung.closed_forms.find("global_load_bytes")) e.global_load_formula = g->text;
    return e;
}

std::optional<ExpectedTraffic> expected_traffic(std::string_view rung, const ProblemSize& size, int tile) {
    const KernelSpec* k = find_rung(rung);
    return k ? expected_traffic(*k, size, tile) : std::nullopt;
}

std::optional<ExpectedTraffic> expected_traffic(const Trace& t) {
    if (t.custom) return std::nullopt;
    const KernelSpec* k = find_rung(t.kernel);
    return k ? expected_traffic(*k, t.size, t.tile, t.params) : std::nullopt;
}

std::optional<FollowUpExpected> follow_up_expected(const Trace& t) {
    if (t.custom) return std::nullopt;
    const KernelSpec* k = find_rung(t.kernel);
    if (!k || !k->then) return std::nullopt;
    return FollowUpExpected{k->then->entry, expected_traffic(follow_up_alone(*k), t.size, t.tile, t.params)};
}

std::vector<ExpectedVsTraced> expected_vs_traced(const Trace& t) {
    std::vector<ExpectedVsTraced> rows;
    const std::optional<ExpectedTraffic> e = expected_traffic(t);
    if (!e) return rows;
    const uint64_t traced[] = {t.totals.global_load_bytes, t.totals.global_store_bytes, t.totals.local_load_bytes,
                               t.totals.local_store_bytes, t.totals.barriers};
    for (size_t i = 0; i < kRequiredClosedForms; ++i) {
        const std::string quantity(kClosedFormQuantities[i]);
        const ClosedForm* form = e->form(quantity);
        rows.push_back({quantity, e->value(quantity), traced[i], form ? form->text : "", form ? form->expr : ""});
    }
    return rows;
}

CoalescingSummary coalescing_summary(const Trace& t) {
    CoalescingSummary s;
    s.total = t.coalescing;
    s.ideal_sectors_per_request = t.coalescing.ideal_sectors_per_request();
    for (const LineTraffic& l : t.lines)
        if (!l.local && l.coalescing.requests > 0) s.lines.push_back({l.line, l.coalescing});
    std::stable_sort(s.lines.begin(), s.lines.end(), [](const LineCoalescing& a, const LineCoalescing& b) {
        return a.counts.sectors_per_request() > b.counts.sectors_per_request();
    });
    return s;
}

BankConflictSummary bank_conflict_summary(const Trace& t) {
    BankConflictSummary s;
    s.total = t.bank_conflicts;
    for (const LineTraffic& l : t.lines)
        if (l.local && l.bank_conflicts.requests > 0) s.lines.push_back({l.line, l.bank_conflicts});
    std::stable_sort(s.lines.begin(), s.lines.end(), [](const LineBankConflicts& a, const LineBankConflicts& b) {
        return a.counts.max_degree > b.counts.max_degree;
    });
    return s;
}

std::vector<BufferReuse> buffer_reuse(const Trace& t) {
    std::vector<BufferReuse> out;
    for (const TracedBuffer& b : t.buffers) {
        if (b.traffic.loads == 0) continue;
        BufferReuse r;
        r.buffer = b.name;
        r.distinct_elements_loaded = b.distinct_elements_loaded;
        const double element_loads = static_cast<double>(b.traffic.load_bytes) / std::max<uint32_t>(1, b.element_size);
        r.loads_per_element = b.distinct_elements_loaded ? element_loads / b.distinct_elements_loaded : 0.0;
        out.push_back(r);
    }
    return out;
}

}  // namespace tilescope
