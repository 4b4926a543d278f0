#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli/cli.h"
#include "args/options.h"
#include "core/base/atomic_file.h"
#include "core/device/ceilings.h"
#include "core/base/errors.h"
#include "core/kernel/catalog.h"
#include "core/tuning/tuning.h"
#include "args/setup.h"

namespace tilescope::cli {

namespace {

// The host's CPU as /proc/cpuinfo names it ("model name"), or "unknown".
std::string host_cpu_name() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    for (int n = 0; n < 4096 && std::getline(in, line); ++n)
        if (line.rfind("model name", 0) == 0) {
            const size_t colon = line.find(':');
            if (colon == std::string::npos) break;
            std::string name = line.substr(colon + 1);
            while (!name.empty() && (name.front() == ' ' || name.front() == '\t')) name.erase(0, 1);
            return shown(name, 120);
        }
    return "unknown";
}

// The 1, 5 and 15 minute load averages; -1 each where the system does not say.
std::array<double, 3> load_average() {
    std::array<double, 3> l{-1, -1, -1};
    if (getloadavg(l.data(), 3) != 3) l = {-1, -1, -1};
    return l;
}

std::string load_text(const std::array<double, 3>& l) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.2f %.2f %.2f", l[0], l[1], l[2]);
    return buf;
}

const char* kHelp =
    "usage: tilescope ceilings [--device SEL] [--reps R] [--json PATH|-]\n"
    "       tilescope ceilings --against K [--size S[,S..]] [--pairs P] [--warmup W] [--tile T] [--param NAME=V]...\n"
    "                          [--device SEL] [--json PATH|-]\n"
    "Measures the device's roofline ceilings with the kernels in kernels/ceilings/:\n"
    "peak single-precision FLOP/s (multiply-adds in registers) and global-memory\n"
    "bandwidth (a float4 copy of 256 MiB, bytes read plus written). Best of R runs.\n"
    "The peak kernel (kernels/ceilings/peak_flops.cl) does nothing but independent\n"
    "multiply-adds on float16 vectors held in registers (16 chains a work-item on a CPU,\n"
    "enough to keep both FMA pipes of every core busy; 4 on a GPU), with no memory\n"
    "traffic in the loop: the most FLOP/s the device's FMA units give at its clock.\n"
    "A rung can only match it. On a shared machine it is measured while others run:\n"
    "the performance view and bench --plan performance measure it again when it falls\n"
    "below a rung, and flag it (\"not a roof\") when it still does.\n"
    "\n"
    "--against K: rung K's share of the peak, timed in pairs. Each pair launches the peak\n"
    "kernel and K at S (default 1024) one right after the other, A B then B A, the peak sized\n"
    "to about K's FLOPs, so both meet the same moment's load; P pairs (default 30) after W\n"
    "untimed ones (default 2). Several sizes are timed in the same P rounds, each round one\n"
    "pair at every size, so a load the peak does not feel (others' memory traffic: the peak\n"
    "touches no memory) weighs on every size alike (JSON: \"sizes_in_turn\").\n"
    "Prints the median of the pairs' ratios (K's GFLOP/s over the\n"
    "peak's in the same pair), the middle half and the extremes of those ratios, both kernels'\n"
    "median GFLOP/s, the same pairs by CPU time (GFLOP per CPU-second of this process: what\n"
    "each kernel did with the CPU it got, on a CPU device), the host CPU and the load average\n"
    "before and after. K runs with the device's tuning, as bench does ([tuned ...] or\n"
    "[default ...]), or at --tile T and --param NAME=V as given, and is verified against the\n"
    "CPU reference; an unverified K has no share (exit 1). A median above 100 % is flagged:\n"
    "there the peak kernel is no roof. On a machine others use, a peak timed in one minute and\n"
    "a rung in another compare two loads; a paired ratio compares the kernels. With --json,\n"
    "every pair's figures too.\n";

// ceilings --against K: the rung's share of the peak, timed in pairs.
int run_paired(const Options& o) {
    for (const std::string name : {"reps"})
        if (o.has(name)) throw InputError("--" + name + ": --against times pairs; accepted with it: --size, --pairs, --warmup, --tile, --param, --device, --json");
    const std::string name = o.get_or("against", "");
    const KernelSpec* rung = find_rung(name);
    if (!rung) throw InputError("--against " + shown(name, 60) + ": unknown rung; accepted: one of " + rung_names());
    const int pairs = o.get_int("pairs", 30, 1, "an integer from 1 to 10000");
    if (pairs > 10000) throw InputError("--pairs " + std::to_string(pairs) + ": accepted: an integer from 1 to 10000");
    const int warmup = o.get_int("warmup", 2, 0, "an integer from 0 to 100");
    if (warmup > 100) throw InputError("--warmup " + std::to_string(warmup) + ": accepted: an integer from 0 to 100");
    std::vector<ProblemSize> sizes;
    for (const std::string& text : o.list("size")) sizes.push_back(parse_size(text, "--size"));
    if (sizes.empty()) sizes.push_back(parse_size(o.get_or("size", "1024"), "--size"));
    const auto json_path = o.get("json");
    if (json_path) check_writable(*json_path, "--json");
    const DeviceInfo& device = select_device(o.get_or("device", ""));
    if (device.is_emulator) throw InputError("--device emulator: the emulator has no speed to measure; pick a real device");
    Runner runner(device);
    std::vector<LaunchConfig> configs;
    // --tile / --param: that point as given; else the device's tuning, as bench.
    const bool given = o.has("tile") || o.has("param");
    const int tile = o.has("tile") ? tiles_from(o, *rung, false).front() : rung->default_tile;
    for (const ProblemSize& s : sizes) {
        LaunchConfig c{*rung, s, tile};
        for (const std::string& p : o.all("param")) {
            const auto [pname, value] = parse_param(*rung, p);
            c.params[pname] = value;
        }
        if (given) c.params_source = "given";
        LaunchConfig plain = c;
        if (rung->library.empty() && !given) apply_tuning(c, device);
        if (!c.tuning_origin.empty()) {  // a tuned point this device refuses: said once, the defaults instead
            try {
                runner.validate(c);
            } catch (const InputError& e) {
                std::fprintf(stderr, "ceilings: tuned TS=%d for %s from '%s' cannot be used (%s); using the defaults\n", c.tile,
                             c.kernel.name.c_str(), shown(c.tuning_origin).c_str(), shown(e.what(), 480).c_str());
                c = plain;
            }
        }
        runner.validate(c);
        configs.push_back(std::move(c));
    }
    install_interrupt_handler();
    const bool to_stdout = !(json_path && *json_path == "-");
    std::FILE* out = to_stdout ? stdout : stderr;
    const std::string cpu = host_cpu_name();
    const unsigned cores = std::thread::hardware_concurrency();
    std::fprintf(out, "device: %s\nhost cpu: %s, %u logical cores\n", device.label().c_str(), cpu.c_str(), cores);
    const auto load_before = load_average();
    std::fprintf(out, "load average before (1, 5, 15 min): %s\n", load_text(load_before).c_str());
    std::fflush(out);
    nlohmann::json results = nlohmann::json::array();
    bool all_verified = true;
    // Every size's pairs in the same rounds (measure_paired_shares): a load the peak kernel does
    // not feel falls on every size alike, not on the one being timed when it came.
    if (configs.size() > 1)
        std::fprintf(out, "sizes timed in turn: each of the %d rounds launches every size's pair (peak, then %s; reversed on odd rounds)\n",
                     pairs, rung->name.c_str());
    std::fflush(out);
    RunOptions ro;
    ro.cancelled = interrupted;
    std::string what = rung->name + " ";
    for (size_t i = 0; i < configs.size(); ++i) what += (i ? "," : "") + configs[i].size.label();
    ro.progress = [&](const std::string& line) { std::fprintf(stderr, "ceilings: %s: %s\n", what.c_str(), line.c_str()); };
    const auto before = load_average();
    const std::vector<PairedShare> shares = measure_paired_shares(runner, configs, pairs, warmup, ro);
    const auto after = load_average();
    for (size_t ci = 0; ci < configs.size(); ++ci) {
        const LaunchConfig& c = configs[ci];
        const PairedShare& ps = shares[ci];
        const Measurement& m = ps.rung;
        const bool verified = !m.checked || m.verification.verified;
        all_verified = all_verified && verified;
        std::string point = "TS=" + std::to_string(m.tile);
        for (const auto& [k, v] : m.launch.params) point += " " + k + "=" + std::to_string(v);
        const std::string source = m.tuning_note.empty() ? m.params_source : m.tuning_note;
        std::fprintf(out, "%s %s [%s]%s: %d pairs; the peak %s (%.2f GFLOP a launch; %s %.2f)\n", c.kernel.name.c_str(),
                     point.c_str(), source.c_str(),
                     m.ran_at == m.size ? "" : (" [padded to " + m.ran_at.label() + ", copies timed]").c_str(),
                     pairs, (std::to_string(ps.peak_size.M * ps.peak_size.N) + " work-items x " + std::to_string(ps.peak_size.K) + " multiply-adds").c_str(), ps.peak_flops * 1e-9, c.size.label().c_str(),
                     m.launch.flops * 1e-9);
        if (verified)
            std::fprintf(out,
                         "  share of the peak, median of the pairs: %.1f%%   middle half %.1f-%.1f%%, all %.1f-%.1f%%\n"
                         "  medians: peak %.1f GFLOP/s, %s %.1f GFLOP/s; load average %.2f -> %.2f\n",
                         100 * ps.share.median, 100 * ps.share.q1, 100 * ps.share.q3, 100 * ps.share.min,
                         100 * ps.share.max, ps.peak_median_gflops, c.kernel.name.c_str(), ps.rung_median_gflops, before[0],
                         after[0]);
        if (verified && ps.cpu_share.count > 0)
            std::fprintf(out, "  by CPU time (GFLOP per CPU-second of this process, same pairs): median %.1f%%, middle half %.1f-%.1f%%\n",
                         100 * ps.cpu_share.median, 100 * ps.cpu_share.q1, 100 * ps.cpu_share.q3);
        if (verified && ps.share.median > 1)  // the peak kernel lost to a rung in the same moments: no roof here
            std::fprintf(out, "  the peak kernel ran below %s in the same pairs: not a roof at this size\n", c.kernel.name.c_str());
        else if (!verified)
            std::fprintf(out, "  %s did NOT verify (%s): no share\n", c.kernel.name.c_str(), m.verification.summary().c_str());
        std::fflush(out);
        nlohmann::json params = nlohmann::json::object();
        for (const auto& [k, v] : m.launch.params) params[k] = v;
        nlohmann::json r = {{"kernel", c.kernel.name},   {"M", c.size.M},         {"N", c.size.N},
                            {"K", c.size.K},             {"tile", m.tile},        {"params", params},
                            {"params_source", m.params_source},
                            {"padded_to", m.ran_at == m.size ? nlohmann::json() : nlohmann::json(m.ran_at.label())},
                            {"verified", verified},      {"pairs", pairs},        {"warmup", warmup},
                            {"peak_work_items", ps.peak_size.M * ps.peak_size.N}, {"peak_K", ps.peak_size.K},       {"peak_flops", ps.peak_flops}, {"rung_flops", m.launch.flops},
                            {"load_before", before},     {"load_after", after}};
        if (!m.tuning_note.empty()) r["tuning"] = m.tuning_note;
        if (verified) {
            r["share_median"] = ps.share.median;
            r["share_q1"] = ps.share.q1;
            r["share_q3"] = ps.share.q3;
            r["share_min"] = ps.share.min;
            r["share_max"] = ps.share.max;
            r["peak_below_rung"] = ps.share.median > 1;
            if (ps.cpu_share.count > 0) {
                r["cpu_share_median"] = ps.cpu_share.median;
                r["cpu_share_q1"] = ps.cpu_share.q1;
                r["cpu_share_q3"] = ps.cpu_share.q3;
                r["cpu_ratios"] = ps.cpu_ratios;
            }
            r["peak_gflops_median"] = ps.peak_median_gflops;
            r["rung_gflops_median"] = ps.rung_median_gflops;
            r["ratios"] = ps.ratios;
            r["rung_gflops"] = ps.rung_gflops;
        }
        r["peak_gflops"] = ps.peak_gflops;
        results.push_back(std::move(r));
    }
    const auto load_after = load_average();
    std::fprintf(out, "load average after (1, 5, 15 min): %s\n", load_text(load_after).c_str());
    std::fflush(out);
    if (json_path) {
        const nlohmann::json j = {{"device", device.label()}, {"host_cpu", cpu},           {"logical_cores", cores},
                                  {"against", name},          {"load_before", load_before}, {"load_after", load_after},
                                  {"sizes_in_turn", configs.size() > 1},                    {"results", results}};
        write_file_atomically(*json_path, j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n", "--json");
    }
    if (!all_verified) std::fprintf(stderr, "ceilings: %s did NOT verify; no share is reported for it\n", name.c_str());
    return all_verified ? 0 : 1;
}

}  // namespace

int cmd_ceilings(const std::vector<std::string>& args) {
    Options o("ceilings", {"device", "reps", "json", "against", "size", "pairs", "warmup", "tile", "param"}, {"help"});
    o.parse(args);
    if (o.has("help")) {
        std::cout << kHelp;
        return 0;
    }
    if (o.has("against")) return run_paired(o);
    for (const std::string name : {"size", "pairs", "warmup", "tile", "param"})
        if (o.has(name)) throw InputError("--" + name + ": belongs to --against K (a rung's share of the peak, timed in pairs)");
    const int reps = o.get_int("reps", 5, 1, "an integer of at least 1");
    const auto json_path = o.get("json");
    if (json_path) check_writable(*json_path, "--json");
    const DeviceInfo& device = select_device(o.get_or("device", ""));
    if (device.is_emulator) throw InputError("--device emulator: the emulator has no speed to measure; pick a real device");
    install_interrupt_handler();
    Runner runner(device);
    RunOptions ro;
    ro.reps = reps;
    ro.cancelled = interrupted;
    ro.progress = [](const std::string& line) { std::fprintf(stderr, "ceilings: %s\n", line.c_str()); };
    const Ceilings c = measure_ceilings(runner, ro);
    if (json_path) {
        const nlohmann::json j = {{"device", device.label()}, {"peak_gflops", c.peak_gflops},
                                  {"bandwidth_gbs", c.bandwidth_gbs}, {"reps", reps}};
        write_file_atomically(*json_path, j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n", "--json");
    }
    if (!json_path || *json_path != "-")
        std::printf("device: %s\npeak FP32: %.1f GFLOP/s\nbandwidth: %.1f GB/s\nridge point: %.1f FLOPs per byte\n",
                    device.label().c_str(), c.peak_gflops, c.bandwidth_gbs, c.peak_gflops / c.bandwidth_gbs);
    return 0;
}

}  // namespace tilescope::cli
