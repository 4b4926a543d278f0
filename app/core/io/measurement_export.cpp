#include "core/io/measurement_export.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/base/errors.h"
#include "core/device/spread.h"

namespace tilescope {
namespace {

nlohmann::json dims_json(const std::array<size_t, 3>& v, int dims) {
    nlohmann::json a = nlohmann::json::array();
    for (int i = 0; i < dims; ++i) a.push_back(v[i]);
    return a;
}

}  // namespace

std::string measurements_to_json(const std::vector<Measurement>& ms) {
    nlohmann::json list = nlohmann::json::array();
    for (const Measurement& m : ms) {
        nlohmann::json r;
        r["kernel"] = m.kernel;
        r["device"] = m.device;
        r["M"] = m.size.M;
        r["N"] = m.size.N;
        r["K"] = m.size.K;
        r["tile"] = m.tile;
        r["global"] = dims_json(m.launch.global, m.launch.dims);
        r["local"] = dims_json(m.launch.local, m.launch.dims);
        r["reps"] = m.reps;
        r["median_s"] = m.median_s;
        r["min_s"] = m.min_s;
        // Never a rate for a result that was not verified.
        r["gflops"] = m.verification.verified ? nlohmann::json(m.gflops) : nlohmann::json(nullptr);
        // The runs' spread (issue 21): GFLOP/s at the slowest and the fastest timed launch.
        const GflopsSpread spread = gflops_spread(m);
        r["gflops_min"] = m.verification.verified && spread.valid() ? nlohmann::json(spread.low) : nlohmann::json(nullptr);
        r["gflops_max"] = m.verification.verified && spread.valid() ? nlohmann::json(spread.high) : nlohmann::json(nullptr);
        r["max_rel_error"] = m.checked ? nlohmann::json(m.verification.max_rel_error) : nlohmann::json(nullptr);
        r["verified"] = m.verification.verified;
        r["tolerance"] = m.verification.tolerance;
        r["checked_elements"] = m.verification.checked_elements;
        r["library"] = m.library;
        r["times_s"] = m.times_s;
        r["params"] = m.launch.params;  // tunable parameters beyond TS ({} for most rungs)
        r["params_source"] = m.params_source;
        if (!m.tuning_note.empty()) r["tuning"] = m.tuning_note;  // "tuned here", "defaults for CPUs", ...
        // Ran on zero-padded copies (KernelSpec::pad): the size the kernel ran at; the copies
        // are inside every time above and the rate is the user's 2*M*N*K.
        if (m.ran_at.M > 0 && !(m.ran_at == m.size)) {
            r["padded_to"] = m.ran_at.label();
            r["padded_copies"] = m.padded_copies;  // e.g. ["A", "B"]: C stored in place, not copied back
        }
        list.push_back(r);
    }
    return list.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string measurements_to_csv(const std::vector<Measurement>& ms) {
    std::string out = "kernel,device,M,N,K,tile,global,local,reps,median_s,min_s,gflops,max_rel_error,verified\n";
    for (const Measurement& m : ms) {
        char buf[512];
        std::string device = m.device;
        for (char& c : device)
            if (c == '"') c = '\'';
        std::snprintf(buf, sizeof buf, "%s,\"%s\",%lld,%lld,%lld,%d,%s,%s,%d,%.9g,%.9g,%s,%s,%s\n", m.kernel.c_str(),
                      device.c_str(), static_cast<long long>(m.size.M), static_cast<long long>(m.size.N),
                      static_cast<long long>(m.size.K), m.tile, m.launch.global_text().c_str(),
                      m.launch.local_text().c_str(), m.reps, m.median_s, m.min_s,
                      m.verification.verified ? std::to_string(m.gflops).c_str() : "",
                      m.checked ? std::to_string(m.verification.max_rel_error).c_str() : "",
                      m.verification.verified ? "true" : "false");
        out += buf;
    }
    return out;
}

std::string measurement_header() {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%-20s %-12s %5s %-11s %-9s %12s %12s %10s %15s  %s", "kernel", "size", "tile", "global",
                  "local", "median ms", "min ms", "GFLOP/s", "min-max", "check");
    return buf;
}

std::string measurement_row(const Measurement& m) {
    char buf[512];
    char rate[32];
    char range[48];
    const GflopsSpread spread = gflops_spread(m);
    if (m.verification.verified) std::snprintf(rate, sizeof rate, "%.2f", m.gflops);
    else std::snprintf(rate, sizeof rate, "-");
    if (m.verification.verified && spread.valid()) std::snprintf(range, sizeof range, "%.2f-%.2f", spread.low, spread.high);
    else std::snprintf(range, sizeof range, "-");
    std::string check = !m.checked ? "not checked (no --check)"
                        : m.verification.verified ? "ok (err " + [&] { char e[32]; std::snprintf(e, sizeof e, "%.1e", m.verification.max_rel_error); return std::string(e); }() + ")"
                                                  : "WRONG: " + m.verification.summary();
    const std::string tile = m.tile_used ? std::to_string(m.tile) : "-";
    std::snprintf(buf, sizeof buf, "%-20s %-12s %5s %-11s %-9s %12.3f %12.3f %10s %15s  %s",
                  (m.kernel + (m.library ? " [lib]" : "")).c_str(), m.size.label().c_str(), tile.c_str(),
                  m.library ? "(library)" : m.launch.global_text().c_str(), m.library ? "" : m.launch.local_text().c_str(), m.median_s * 1e3, m.min_s * 1e3, rate,
                  range, check.c_str());
    std::string row = buf;
    // Which tile and parameters ran, and why: the defaults, a tuning file, or --param.
    if (!m.library && (!m.launch.params.empty() || m.params_source != "default")) {
        std::string params;
        for (const auto& [name, value] : m.launch.params) params += " " + name + "=" + std::to_string(value);
        // "[tuned here: TSK=16 ...]", "[defaults for CPUs: ...]", "[given: ...]"
        const std::string source = m.tuning_note.empty() ? m.params_source : m.tuning_note;
        row += "  [" + source + (params.empty() ? "" : ":" + params) + "]";
    }
    if (m.ran_at.M > 0 && !(m.ran_at == m.size)) row += "  [padded to " + m.ran_at.label() + ", copies timed]";
    // Names may come from a file (a carried kernel's, its parameters'): no control character
    // reaches the terminal.
    return shown(row, row.size());
}

}  // namespace tilescope
