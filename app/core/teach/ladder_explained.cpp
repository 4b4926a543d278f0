#include "core/teach/ladder_explained.h"

#include <cmath>
#include <cstdio>

#include "core/caches/cache_trace.h"
#include "core/trace/trace.h"

namespace tilescope {

const char* to_string(FigureKind kind) {
    switch (kind) {
    case FigureKind::Traced: return "traced";
    case FigureKind::Modelled: return "modelled";
    case FigureKind::Measured: return "measured";
    }
    return "traced";
}

LadderRungFigures ladder_figures(const Trace& t, const CacheReport* caches, std::optional<double> measured_s) {
    LadderRungFigures f;
    f.kernel = t.kernel;
    f.tile = t.tile;
    f.global_requests = double(t.coalescing.requests);
    f.local_bytes = double(t.totals.local_load_bytes + t.totals.local_store_bytes);
    f.barriers = double(t.totals.barriers);
    if (caches) {
        const double sector = caches->params.sector_bytes;
        f.l1_bytes = double(caches->totals.l1_sectors) * sector;
        f.l2_bytes = double(caches->totals.l2_sectors) * sector;
        f.dram_bytes = double(caches->totals.dram_read_bytes + caches->totals.dram_write_bytes);
        f.cache_check = cache_check_lines(caches->profile, "", t.kernel);
        if (!f.cache_check.empty() && f.cache_check.back() == '\n') f.cache_check.pop_back();
    }
    f.measured_s = measured_s;
    return f;
}

namespace {

constexpr double kChanged = 1.10;  // a change beyond 10% either way

bool changed(const LadderChange& c) {
    const double r = c.ratio();
    return r > kChanged || r < 1.0 / kChanged;
}

std::string times(double r) {
    char buf[48];
    if (r >= 1) std::snprintf(buf, sizeof buf, "%.3gx more", r);
    else std::snprintf(buf, sizeof buf, "%.3gx less", r > 0 ? 1.0 / r : 0.0);
    return buf;
}

}  // namespace

std::vector<LadderStep> explain_ladder(const std::vector<LadderRungFigures>& rungs) {
    std::vector<LadderStep> steps;
    for (size_t i = 1; i < rungs.size(); ++i) {
        const LadderRungFigures &a = rungs[i - 1], &b = rungs[i];
        LadderStep s;
        s.from = a.kernel;
        s.to = b.kernel;
        if (b.l2_bytes) s.check = b.cache_check;  // beside the modelled figures, where they are shown
        s.changes.push_back({"global requests", FigureKind::Traced, a.global_requests, b.global_requests});
        const std::pair<const char*, std::optional<double> LadderRungFigures::*> modelled[] = {
            {"L1 bytes", &LadderRungFigures::l1_bytes},
            {"L2 bytes", &LadderRungFigures::l2_bytes},
            {"DRAM bytes", &LadderRungFigures::dram_bytes}};
        for (const auto& [what, member] : modelled)
            if ((a.*member) && (b.*member)) s.changes.push_back({what, FigureKind::Modelled, *(a.*member), *(b.*member)});
        s.changes.push_back({"local bytes", FigureKind::Traced, a.local_bytes, b.local_bytes});
        s.changes.push_back({"barriers", FigureKind::Traced, a.barriers, b.barriers});
        const LadderChange* time = nullptr;
        if (a.measured_s && b.measured_s) {
            s.changes.push_back({"time", FigureKind::Measured, *a.measured_s, *b.measured_s});
            time = &s.changes.back();
        }
        // The reading: the largest traffic change, or the note that none changed.
        const LadderChange* biggest = nullptr;
        for (const LadderChange& c : s.changes)
            if (&c != time && changed(c) &&
                (!biggest || std::fabs(std::log(c.ratio())) > std::fabs(std::log(biggest->ratio()))))
                biggest = &c;
        if (biggest) {
            s.note = biggest->what + " " + (biggest->before > 0 ? times(biggest->ratio()) : std::string("appear")) + " (" +
                     to_string(biggest->kind) + ")";
            if (time) s.note += "; time " + times(time->ratio()) + " (measured)";
        } else {
            s.note = "no traced or modelled traffic changed by more than 10%";
            if (time && changed(*time))
                s.note += ", yet time is " + times(time->ratio()) +
                          " (measured): something else changed (occupancy, instruction count)";
        }
        steps.push_back(std::move(s));
    }
    return steps;
}

}  // namespace tilescope
