#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <utility>
#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "args/options.h"
#include "args/setup.h"
#include "core/base/atomic_file.h"
#include "core/base/errors.h"
#include "core/io/measurement_export.h"
#include "core/io/trace_file.h"
#include "core/device/contained_measure.h"
#include "core/device/runner.h"
#include "core/kernel/catalog.h"
#include "core/tasks/cpu_explain.h"
#include "core/tasks/performance.h"
#include "core/tuning/tuning.h"

namespace tilescope::cli {
namespace {

// bench's --json and --csv, checked before any work: writable, not an input, not one file,
// at most one of them on standard output.
std::pair<std::optional<std::string>, std::optional<std::string>> checked_outputs(const Options& o) {
    const auto json_path = o.get("json"), csv_path = o.get("csv");
    if (json_path) check_writable(*json_path, "--json");
    if (csv_path) check_writable(*csv_path, "--csv");
    check_distinct_outputs({{"--json", json_path ? *json_path : ""}, {"--csv", csv_path ? *csv_path : ""}});
    if (json_path && csv_path && *json_path == "-" && *csv_path == "-")
        throw InputError("--json - and --csv -: only one of them can go to standard output");
    return {json_path, csv_path};
}

// The explanation as paragraphs, one per sentence, wrapped for a terminal.
void print_explanation(std::FILE* out, const CpuExplanation& e) {
    std::fprintf(out, "\nwhy, on this machine (naive against tiled; every number is measured, traced or modelled as it says):\n");
    for (const std::string& sentence : e.sentences) {
        std::string line;
        size_t at = 0;
        while (at < sentence.size()) {
            size_t end = sentence.find(' ', at);
            if (end == std::string::npos) end = sentence.size();
            const std::string word = sentence.substr(at, end - at);
            if (!line.empty() && line.size() + 1 + word.size() > 98) {
                std::fprintf(out, "  %s\n", line.c_str());
                line.clear();
            }
            line += (line.empty() ? "" : " ") + word;
            at = end + 1;
        }
        if (!line.empty()) std::fprintf(out, "  %s\n", line.c_str());
    }
    std::fflush(out);
}

const char* kHelp =
    "usage: tilescope bench [--device SEL] [--kernel K[,K..]|all] [--size S[,S..]] [--tile T[,T..]]\n"
    "                       [--reps R] [--warmup W] [--json PATH|-] [--csv PATH|-] [--explain] [--pad auto|off]\n"
    "       tilescope bench ... --source FILE.cl --entry NAME --global E[,E[,E]] --local E[,E[,E]]\n"
    "                       [--define NAME=E]... --arg SPEC [--arg SPEC]... [--check C=A*B]\n"
    "       tilescope bench --open FILE.tstrace [--trust-source] [--device SEL] [--size S] [--reps R] ...\n"
    "       tilescope bench --plan performance [--device SEL] [--size N] [--json PATH|-] [--csv PATH|-]\n"
    "                       [--source FILE.cl --entry NAME --global .. --local .. --arg SPEC..]\n"
    "\n"
    "Measures each kernel on a real OpenCL device: builds it, checks the device's limits, runs\n"
    "W untimed warm-ups then R timed launches (profiling events), and verifies C against a CPU\n"
    "reference. GFLOP/s = 2*M*N*K / median time, reported only for verified results.\n"
    "  SEL  'emulator', part of 'platform / device' (pocl, nvidia), or P:D (tilescope devices).\n"
    "       Default: the first real GPU, else the first CPU device.\n"
    "  S    N (square) or MxNxK: C is MxN, A is MxK, B is KxN, row-major. Default 256.\n"
    "  K    naive, row, row_private, row_private_local, tiled, ... or all (tilescope tour lists them)\n"
    "       or fastest: per size, the rung, tile and parameters the device's tuning files say ran\n"
    "       fastest at the nearest measured shape (their \"fastest\" table; this device's file, a\n"
    "       similar device's, then the type defaults); one line \"picked ...\" says why, and --json's\n"
    "       records add \"picked\": \"fastest\" and \"pick_reason\". A size that is no row of the\n"
    "       table has the distinct points of its 3 nearest rows timed there first (1 warm-up, 2\n"
    "       launches each, verified; records add \"pick_trials\" and \"pick_trial_s\"). Then the\n"
    "       winner (at a row, or where the nearest rows name one point, that point) is timed again\n"
    "       beside its neighbours: one K-slice fewer and one more when it splits K, split in 2, 4\n"
    "       and 8 when it does not and C has fewer than 16 tiles a compute unit, its 64x128 tile,\n"
    "       128x128 tiles whole beside a TS 64 point, and on padded copies the points that read in\n"
    "       place (its trials' \"round\": 2); the fastest runs (a neighbour only when 1% faster) and\n"
    "       is remembered in the user's tuning folder (<device>.timed.json), so the next run at that\n"
    "       size times nothing. Each size is picked just before it is measured: rows print as\n"
    "       they come, and a run stopped with Ctrl-C keeps those printed.\n"
    "  T    the tile size TS (default: the device's tuned value, else each kernel's own)\n"
    "  --param NAME=V  a tunable parameter of the kernel (repeatable; tilescope tune finds good\n"
    "       ones). Without --tile or --param, tuned values for the device (assets/tuning/) are\n"
    "       used when present; the table says [tuned ...] or [default ...].\n"
    "  SPEC NAME=int:E | NAME=matrix:ExE[:rowmajor|colmajor][:in|out] | NAME=local:E\n"
    "  E    integer expression over M, N, K, TS with + - * / % ( )\n"
    "  --plan performance  what the GUI's performance view measures when you press Measure, the\n"
    "       same plan (core/tasks/performance.h): every rung at NxNxN with the device's tuning,\n"
    "       naive and tiled at 64, 128, 256, 512 and N (the device's tuning too), tiled at N with\n"
    "       TS 4, 8, 16, 32 (median of 3 after 1 warm-up; a configuration an earlier point ran\n"
    "       is not run again: its row says so), the roofline's ceilings, every rung's arithmetic intensity\n"
    "       traced at 64 on the emulator (DRAM bytes modelled). N: 16..4096, default 256. Records\n"
    "       carry \"plan\": \"performance\" and \"part\": rungs, sizes or tiles; points the device\n"
    "       refuses are named on standard error and left out, as the GUI leaves them out. With\n"
    "       --source ... (a custom kernel, as loaded in the GUI's set-up) it is measured at NxNxN\n"
    "       beside the rungs and traced at 64 too, as the GUI's Measure does with it.\n"
    "  --explain  on a CPU device, with --kernel naive,tiled: whichever is faster at each size, why,\n"
    "       in a few sentences from what was measured (the runs and their min-max), traced (both\n"
    "       rungs at 64 on the emulator) and modelled (the cpu cache profile), beside the\n"
    "       Osnabrueck slides' claim that local memory hurts on a CPU. Runs within noise are said\n"
    "       to be. Also printed by --plan performance on a CPU.\n"
    "  --open FILE.tstrace  measures the launch a saved trace carries (its size, or --size S). A kernel\n"
    "       whose OpenCL C came in the file (a custom kernel, or a rung's source changed) is built and\n"
    "       run only with --trust-source, and then in a child process with a time and a memory\n"
    "       limit: a crash or an endless loop is one line, \"nothing was measured\" (exit 2).\n"
    "  --pad auto|off  auto (default): a rung marked \"pad\" in kernels/ladder.json runs on\n"
    "       zero-padded copies of A, B and C (kernels/support/pad_copy.cl) when its size is not\n"
    "       what the mark asks for (warp_tile, splitk: N and K multiples of 4, so that the\n"
    "       unchecked float4 loop runs; cpu_panel: N a multiple of 16 but not of 128, so that rows\n"
    "       of B sit on 64-byte lines and a column of B spreads over the cache's sets: 1024 runs\n"
    "       at 1040); the copies are timed with it and the table says [padded to MxNxK, copies\n"
    "       timed]. warp_tile and splitk copy only A and B: they store C where it lies in the\n"
    "       user's matrix (--json's \"padded_copies\" names what was copied). off: never.\n"
    "       warp_tile and splitk with --param INPLACE=1 make no copies: they\n"
    "       read rows that are not float4-aligned where they are (vload4), which the H200's table\n"
    "       picks for tiny outputs with a long K, where the copies cost more than they save;\n"
    "       INPLACE=2 reads them a float per work-item and load, consecutive work-items on\n"
    "       consecutive floats (fastest's trial times it beside a winner on copies: the winner\n"
    "       in place, and 128x64 tiles in place split as the winner is).\n"
    "The table's min-max (and --json's gflops_min, gflops_max) is GFLOP/s at the slowest and the\n"
    "fastest timed launch.\n"
    "Exit status: 0 all verified, 1 a result did not verify, 2 bad input, 130 cancelled.\n";

// What --plan accepts with it.
const char* kPlanAccepts = "accepted with --plan performance: --device, --size N, --json, --csv, and a custom kernel "
                           "(--source ... --arg ...) to measure beside the ladder";

// bench --plan performance: the GUI's Measure, from the command line.
int run_performance_plan_cli(const Options& o) {
    const std::string plan_name = o.get_or("plan", "");
    if (plan_name != "performance") throw InputError("--plan " + shown(plan_name) + ": accepted: performance");
    for (const std::string& name : {"kernel", "tile", "param", "reps", "warmup"})
        if (o.has(name)) throw InputError("--" + name + ": the performance plan picks its own; " + kPlanAccepts);
    int size = 256;
    if (o.has("size")) {
        const std::string text = o.get_or("size", "");
        const ProblemSize s = parse_size(text, "--size");
        if (s.M != s.N || s.N != s.K || s.M < 16 || s.M > 4096)
            throw InputError("--size " + shown(text) + ": the performance plan measures square sizes; accepted: N from 16 to 4096");
        size = int(s.M);
    }
    const auto [json_path, csv_path] = checked_outputs(o);
    const DeviceInfo& device = select_device(o.get_or("device", ""));
    if (device.is_emulator)
        throw InputError("--device emulator: the emulator is for traces, its times mean nothing; use tilescope trace, "
                         "or pick a real device: " + device_list_text());

    // A custom kernel (--source ...) joins the rungs, as the GUI's Measure does with the kernel
    // loaded from a file.
    std::optional<LaunchConfig> custom;
    if (o.has("source")) custom = configs_from(o, "tiled", std::to_string(size), false).front();
    const tasks::PerformancePlan plan = tasks::performance_plan(o.get_or("device", ""), size, custom);
    install_interrupt_handler();
    const bool table_to_stdout = !(json_path && *json_path == "-") && !(csv_path && *csv_path == "-");
    std::FILE* table = table_to_stdout ? stdout : stderr;
    const bool tty = isatty(STDERR_FILENO);
    std::fprintf(table, "device: %s\nplan: performance at %d (what the GUI's Measure runs): %zu points, ceilings, %zu traces\n",
                 device.label().c_str(), size, plan.points.size(), plan.intensity.size());
    std::fflush(table);

    std::vector<Measurement> results;
    std::vector<std::string> parts;
    bool all_verified = true;
    const char* section = nullptr;
    tasks::TaskProgress progress;
    progress.cancelled = interrupted;
    if (tty)  // the point in hand, overwritten; a file or pipe gets the records alone
        progress.message = [](const std::string& line) {
            std::fprintf(stderr, "\r\033[K%s", line.substr(0, 120).c_str());
            std::fflush(stderr);
        };
    const auto clear_line = [tty] {
        if (tty) std::fprintf(stderr, "\r\033[K");
    };
    const tasks::PerformanceResult result = tasks::run_performance_plan(plan, progress, [&](const tasks::PlanPointDone& done) {
        clear_line();
        const char* part = tasks::to_string(done.point.part);
        if (section != part) {
            section = part;
            const std::string heading = done.point.part == tasks::PlanPart::rungs   ? "every rung at " + std::to_string(size) + " (the device's tuning)"
                                        : done.point.part == tasks::PlanPart::sizes ? std::string("naive and tiled against size (the device's tuning)")
                                                                                    : "tile sweep: tiled at " + std::to_string(size);
            std::fprintf(table, "\n%s\n%s\n", heading.c_str(), measurement_header().c_str());
        }
        if (done.measurement) {
            std::fprintf(table, "%s%s\n", measurement_row(*done.measurement).c_str(), done.shared ? "  (the runs above: same configuration)" : "");
            if (done.measurement->checked && !done.measurement->verification.verified) all_verified = false;
            results.push_back(*done.measurement);
            parts.push_back(part);
        } else {
            std::fprintf(stderr, "bench --plan performance: %s %s refused: %s\n", done.config.kernel.name.c_str(),
                         done.config.size.label().c_str(), done.refused.c_str());
        }
        std::fflush(table);
    });
    clear_line();
    if (result.fastest)  // what the GUI shows beside its bars: the rung the tuning data pick, and why
        std::fprintf(table, "\nthe rung picked for you (fastest, as bench --kernel fastest): %s\n", tasks::fastest_line(*result.fastest).c_str());
    if (const auto beaten = tasks::pick_beaten(result)) std::fprintf(table, "  but %s\n", tasks::pick_beaten_text(*beaten).c_str());
    std::fprintf(table, "\nceilings (kernels/ceilings/, measured): peak %.1f GFLOP/s, bandwidth %.1f GB/s\n", result.peak_gflops,
                 result.bandwidth_gbs);
    if (result.roof_below)  // measured twice and still below a rung: not a roof (a busy machine)
        std::fprintf(table, "  %s (the machine was busier when the peak was measured)\n", tasks::roof_below_text(*result.roof_below).c_str());
    std::fprintf(table, "arithmetic intensity, FLOP per byte (global traced at 64 on the emulator; DRAM modelled, profile %s)\n",
                 result.cache_profile.c_str());
    for (const tasks::RungIntensity& ai : result.intensity)
        std::fprintf(table, "  %-20s %8.2f global %8.2f DRAM\n", ai.kernel.c_str(), ai.flops_per_byte, ai.dram_flops_per_byte);
    for (const std::string& r : result.refused)
        if (r.rfind("trace ", 0) == 0 || r.rfind("explain ", 0) == 0 || r.rfind("fastest ", 0) == 0) std::fprintf(stderr, "bench --plan performance: %s\n", r.c_str());
    if (result.cpu_explained) print_explanation(table, *result.cpu_explained);
    std::fflush(table);
    if (json_path) {
        nlohmann::json list = nlohmann::json::parse(measurements_to_json(results));
        for (size_t i = 0; i < list.size() && i < parts.size(); ++i) {
            list[i]["plan"] = "performance";
            list[i]["part"] = parts[i];
        }
        write_file_atomically(*json_path, list.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n", "--json");
    }
    if (csv_path) write_file_atomically(*csv_path, measurements_to_csv(results), "--csv");
    if (!all_verified) std::fprintf(stderr, "bench: some results did NOT verify; no GFLOP/s is reported for them\n");
    return all_verified ? 0 : 1;
}

// bench --open FILE.tstrace [--trust-source]: the launch a saved trace carries, measured.
// A kernel the file carries (its own OpenCL C) runs only with --trust-source, and then in a
// child process with a time and a memory limit (core/device/contained_measure.h).
int run_saved_launch(const Options& o) {
    for (const std::string name : {"kernel", "source", "plan", "tile", "param", "explain"})
        if (o.has(name)) throw InputError("--" + name + ": --open measures the saved launch as it is; accepted with --open: --device, --size, --reps, --warmup, --json, --csv, --trust-source");
    const int reps = o.get_int("reps", 3, 1, "an integer of at least 1");
    const int warmup = o.get_int("warmup", 1, 0, "an integer of at least 0");
    const auto [json_path, csv_path] = checked_outputs(o);
    LaunchConfig c = load_trace_file(*o.get("open"), "--open").launch;
    if (o.has("size")) c.size = parse_size(*o.get("size"), "--size");
    c.kernel.trusted = o.has("trust-source");
    check_trusted(c);  // before any device is touched
    resolve(c);
    const DeviceInfo& device = select_device(o.get_or("device", ""));
    if (device.is_emulator)
        throw InputError("--device emulator: the emulator is for traces, its times mean nothing; pick a real device: " + device_list_text());
    install_interrupt_handler();
    const bool table_to_stdout = !(json_path && *json_path == "-") && !(csv_path && *csv_path == "-");
    std::FILE* table = table_to_stdout ? stdout : stderr;
    std::fprintf(table, "device: %s\n%s\n", device.label().c_str(), measurement_header().c_str());
    std::fflush(table);
    RunOptions ro;
    ro.reps = reps;
    ro.warmup = warmup;
    ro.cancelled = interrupted;
    Runner runner(device);
    const Measurement m = runner.measure(c, ro);
    std::fprintf(table, "%s\n", measurement_row(m).c_str());
    std::fflush(table);
    if (json_path) write_file_atomically(*json_path, measurements_to_json({m}), "--json");
    if (csv_path) write_file_atomically(*csv_path, measurements_to_csv({m}), "--csv");
    const bool verified = !m.checked || m.verification.verified;
    if (!verified) std::fprintf(stderr, "bench: the result did NOT verify; no GFLOP/s is reported for it\n");
    return verified ? 0 : 1;
}

}  // namespace

int cmd_bench(const std::vector<std::string>& args) {
    auto valued = custom_kernel_options();
    valued.insert({"device", "kernel", "size", "tile", "param", "reps", "warmup", "json", "csv", "plan", "open", "pad"});
    Options o("bench", valued, {"help", "explain", "trust-source"});
    o.parse(args);
    if (o.has("help")) {
        std::cout << kHelp;
        return 0;
    }
    if (o.has("open")) return run_saved_launch(o);
    if (o.has("trust-source")) throw InputError("--trust-source: accepted only with --open FILE.tstrace (the kernel a saved trace carries)");
    if (o.has("plan")) {
        if (o.has("explain")) throw InputError("--explain: --plan performance explains on a CPU by itself; accepted: --explain with --kernel naive,tiled");
        return run_performance_plan_cli(o);
    }
    const int reps = o.get_int("reps", 3, 1, "an integer of at least 1");
    const int warmup = o.get_int("warmup", 1, 0, "an integer of at least 0");
    const auto [json_path, csv_path] = checked_outputs(o);

    // --kernel fastest: per size, the rung and point the device's tuning data say is fastest.
    const bool fastest = o.has("kernel") && o.get_or("kernel", "") == "fastest";
    if (fastest)
        for (const std::string name : {"tile", "param", "source", "explain"})
            if (o.has(name))
                throw InputError("--" + name + ": --kernel fastest picks the rung, tile and parameters from the tuning data; "
                                 "accepted with it: --device, --size, --reps, --warmup, --json, --csv, --pad");
    std::vector<LaunchConfig> configs = fastest ? std::vector<LaunchConfig>{} : configs_from(o, "tiled", "256", true);
    // --pad auto (the default): a rung with "pad" in the catalog runs on zero-padded copies when
    // the size is not a multiple of it; --pad off: always on the matrices as they are.
    const std::string pad = o.get_or("pad", "auto");
    if (pad != "auto" && pad != "off") throw InputError("--pad " + shown(pad) + ": accepted: auto or off");
    for (LaunchConfig& c : configs) c.pad = pad == "auto";
    const DeviceInfo& device = select_device(o.get_or("device", ""));
    if (device.is_emulator)
        throw InputError("--device emulator: the emulator is for traces, its times mean nothing; use tilescope trace, "
                         "or pick a real device: " + device_list_text());
    std::vector<std::string> pick_reasons;  // --kernel fastest: one line per config, why that rung
    std::vector<TimedPick> picks;            // --kernel fastest: each size's pick and what was timed for it
    Runner runner(device);
    // --kernel fastest: each size is picked (its trial timed, timed_fastest_pick) just before it
    // is measured, so a long list prints its rows as they come and one stopped midway keeps them.
    const std::vector<ProblemSize> fastest_sizes = fastest ? sizes_from(o, "256", true) : std::vector<ProblemSize>{};
    RunOptions pick_options;
    pick_options.cancelled = interrupted;
    pick_options.progress = [](const std::string& line) {
        std::fprintf(stderr, "bench: %s\n", line.c_str());
        std::fflush(stderr);
    };
    const std::string no_table = "--kernel fastest: no tuning file has a \"fastest\" table for " + device.label() +
                                 ", a similar device or its type; name the rung instead (--kernel warp_tile, ...; tilescope tour lists them)";
    if (fastest && !fastest_sizes.empty() && !pick_fastest(device, fastest_sizes.front())) throw InputError(no_table);
    const auto pick_for = [&](const ProblemSize& s) {
        std::optional<TimedPick> pick = timed_fastest_pick(runner, device, s, pad == "auto", pick_options);
        if (!pick) throw InputError(no_table);
        configs.push_back(pick_config(pick->pick, s, pad == "auto"));
        pick_reasons.push_back(pick->pick.reason);
        picks.push_back(std::move(*pick));
    };
    // A picked point this device refuses: the same rung with its own defaults.
    const auto defaults_of = [](LaunchConfig d) {
        d.tile = d.kernel.default_tile;
        d.params.clear();
        d.params_source = "default";
        d.tuning_note.clear();
        d.tuning_origin.clear();
        return d;
    };
    const std::vector<LaunchConfig> defaults = configs;
    // Tile and parameters: --tile/--param as given (configs_from), else the device's tuning
    // data, else the defaults.
    for (LaunchConfig& c : configs)
        if (c.kernel.library.empty() && !o.has("tile") && c.params_source == "default" && !fastest) apply_tuning(c, device);
    const bool explain = o.has("explain");
    if (explain) {
        bool naive = false, tiled = false;
        for (const LaunchConfig& c : configs) {
            naive |= !c.kernel.custom && c.kernel.name == "naive";
            tiled |= !c.kernel.custom && c.kernel.name == "tiled";
        }
        if (!naive || !tiled)
            throw InputError("--explain: explains naive against tiled; accepted: --explain with --kernel naive,tiled (both)");
        if (!device.is_cpu)
            throw InputError("--explain: explains a CPU device (" + device.label() + " is not one); accepted: --device pocl or another CPU");
    }
    // Everything that can be refused is refused before the first launch. A tuned point
    // (from a file, maybe someone else's) that does not build or exceeds a limit is said
    // once, naming the file, and the defaults are measured instead (issue 23).
    const auto settle = [&](size_t i) {
        if (!configs[i].tuning_origin.empty()) {
            try {
                runner.validate(configs[i]);
                return;
            } catch (const InputError& e) {
                std::fprintf(stderr, "bench: tuned TS=%d for %s from '%s' cannot be used (%s); using the defaults\n",
                             configs[i].tile, configs[i].kernel.name.c_str(), shown(configs[i].tuning_origin).c_str(),
                             shown(e.what(), 480).c_str());
                // The pick's line named the point that could not run: say what runs instead.
                if (i < pick_reasons.size())
                    pick_reasons[i] = configs[i].kernel.name + " with its defaults: the point picked for it (TS=" +
                                      std::to_string(configs[i].tile) + " " + params_text(configs[i].kernel, configs[i].params) +
                                      ", from '" + shown(configs[i].tuning_origin) + "') cannot be used on this device (" +
                                      shown(e.what(), 240) + ")";
                configs[i] = fastest ? defaults_of(configs[i]) : defaults[i];
            }
        }
        runner.validate(configs[i]);
    };
    for (size_t i = 0; i < configs.size(); ++i) settle(i);

    install_interrupt_handler();
    const bool table_to_stdout = !(json_path && *json_path == "-") && !(csv_path && *csv_path == "-");
    std::FILE* table = table_to_stdout ? stdout : stderr;
    std::fprintf(table, "device: %s\n%s\n", device.label().c_str(), measurement_header().c_str());
    std::fflush(table);
    const bool tty = isatty(STDERR_FILENO);

    std::vector<Measurement> results;
    bool all_verified = true;
    const size_t count = fastest ? fastest_sizes.size() : configs.size();
    for (size_t i = 0; i < count; ++i) {
        if (fastest) {
            pick_for(fastest_sizes[i]);
            settle(i);
        }
        const LaunchConfig& c = configs[i];
        const std::string what = "[" + std::to_string(i + 1) + "/" + std::to_string(count) + "] " + c.kernel.name +
                                 " " + c.size.label() + " TS=" + std::to_string(c.tile);
        RunOptions ro;
        ro.reps = reps;
        ro.warmup = warmup;
        ro.cancelled = interrupted;
        bool printed = false;
        const auto started = std::chrono::steady_clock::now();
        ro.progress = [&](const std::string& line) {
            // Quiet for quick runs; a line for anything that takes over a second.
            if (std::chrono::steady_clock::now() - started < std::chrono::seconds(1)) return;
            std::fprintf(stderr, tty ? "\r\033[K%s: %s" : "%s: %s\n", what.c_str(), line.c_str());
            std::fflush(stderr);
            printed = true;
        };
        Measurement m = runner.measure(c, ro);
        if (printed && tty) std::fprintf(stderr, "\r\033[K");
        if (i < pick_reasons.size()) std::fprintf(table, "picked %s\n", pick_reasons[i].c_str());
        std::fprintf(table, "%s\n", measurement_row(m).c_str());
        std::fflush(table);
        if (m.checked && !m.verification.verified) all_verified = false;
        results.push_back(std::move(m));
    }
    if (json_path) {
        std::string text = measurements_to_json(results);
        if (fastest) {  // the records as ever, plus which rung was picked for the user and why
            nlohmann::json list = nlohmann::json::parse(text);
            for (size_t i = 0; i < list.size() && i < pick_reasons.size(); ++i) {
                list[i]["picked"] = "fastest";
                list[i]["pick_reason"] = pick_reasons[i];
                if (i < picks.size() && !picks[i].trials.empty()) {  // the points timed at this shape first
                    nlohmann::json trials = nlohmann::json::array();
                    for (const PickTrial& t : picks[i].trials)
                        trials.push_back({{"kernel", t.kernel}, {"tile", t.tile}, {"params", t.params}, {"row", t.row},
                                          {"gflops", t.gflops}, {"verified", t.verified}, {"round", t.round}});
                    list[i]["pick_trials"] = trials;
                    list[i]["pick_trial_s"] = picks[i].trial_s;
                }
            }
            text = list.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
        }
        write_file_atomically(*json_path, text, "--json");
    }
    if (csv_path) write_file_atomically(*csv_path, measurements_to_csv(results), "--csv");
    if (explain) {  // each size's naive and tiled, as measured above
        tasks::TaskProgress progress;
        progress.cancelled = interrupted;
        for (const Measurement& t : results) {
            if (t.kernel != "tiled") continue;
            for (const Measurement& n : results)
                if (n.kernel == "naive" && n.size == t.size) {
                    print_explanation(table, tasks::explain_cpu_measurements(n, t, device, progress));
                    break;
                }
        }
    }
    if (!all_verified) std::fprintf(stderr, "bench: some results did NOT verify; no GFLOP/s is reported for them\n");
    return all_verified ? 0 : 1;
}

}  // namespace tilescope::cli
