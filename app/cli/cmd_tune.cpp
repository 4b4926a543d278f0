// tilescope tune: sweeps one rung's tile and tunable parameters on a device, keeps every
// result, and stores the best verified one in the device's tuning file.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/cli.h"
#include "args/options.h"
#include "args/setup.h"
#include "core/base/atomic_file.h"
#include "core/base/errors.h"
#include "core/io/measurement_export.h"
#include "core/device/runner.h"
#include "core/tasks/quick_tune.h"
#include "core/tuning/tuning.h"

namespace tilescope::cli {
namespace {

// The help text; {BUDGET} is tune --quick's budget (kQuickTuneBudgetS).
const char* kHelpText =
    "usage: tilescope tune [--device SEL] [--kernel K] [--size S] [--tile T[,T..]] [--param NAME=V[,V..]]...\n"
    "                      [--reps R] [--warmup W] [--out DIR] [--json PATH|-] [--dry-run]\n"
    "       tilescope tune --quick [--device SEL] [--kernel K] [--size S[,S..]] [--budget SECONDS] ...\n"
    "\n"
    "Sweeps one rung's tile size TS and tunable parameters (ladder.json \"params\") on a real\n"
    "device at one problem size. Every point is built, checked against the device's limits,\n"
    "timed (median of R after W warm-ups) and verified; points the device refuses (work-group\n"
    "size, local memory, a failed build or launch) are kept as 'refused'. The best verified\n"
    "point and every result go to DIR/<device-slug>.json, which bench (and the GUI) then use\n"
    "for that device: their tables say 'tuned' or 'default'. The stored point also becomes the\n"
    "row of this shape in the file's \"fastest\" table (what bench --kernel fastest picks from),\n"
    "unless that row names a faster verified run (another rung tuned at the same shape): tune\n"
    "each candidate rung at a shape, and the table says which ran fastest there.\n"
    "  SEL  as for bench (default: the first real GPU, else the first CPU device)\n"
    "  K    a rung with a tile or parameters to tune (default reg2d_dbuf)\n"
    "  S    N or MxNxK (default 1024)\n"
    "  T    tile sizes to try (default: the rung's \"tiles\" list)\n"
    "  --param NAME=V[,V..]  candidate values for one parameter (default: the rung's list)\n"
    "  --out DIR  where the tuning file goes (default $TILESCOPE_TUNING_DIR, else\n"
    "             $XDG_DATA_HOME/tilescope/tuning, i.e. ~/.local/share/tilescope/tuning)\n"
    "  --json     also write every result, as a list, to PATH (- for standard output)\n"
    "  --dry-run  list the points that would run, and stop\n"
    "  --quick    a guided search instead of the full grid: from the device's best known choice,\n"
    "             try the neighbours of the best along TS and each parameter, move while one is\n"
    "             faster; about 2 minutes on a 2-core CPU at 1024 (--budget, default {BUDGET} s).\n"
    "             The start is stored unless a candidate beats it a second time: on a CPU device\n"
    "             in 10 pairs timed in turn with it (the median pair decides and must be 1 %\n"
    "             faster; a loaded machine weighs on both alike), and no slower by CPU time (a\n"
    "             wall-clock win with more CPU time per FLOP is others' load); 10 more pairs, up\n"
    "             to 30, while the verdict is close (a median's 95 % interval reaching across\n"
    "             the threshold), the median of all of them deciding; when the fastest candidate\n"
    "             loses, the next fastest gets its own look (3 at most), and before them each point\n"
    "             the defaults for CPUs name for the rung (\"also_try\": measured best on one CPU\n"
    "             of this type; measured right after the start) whatever its one median said;\n"
    "             at every size of --size S,S..\n"
    "             (searched at the first), or by default at S and two neighbours (S scaled by\n"
    "             1000/1024 and 1234/1024: at 1024, 1000 and 1234), since the point stored serves\n"
    "             the sizes around S too; on other devices in one more measurement of each, at S\n"
    "Tuning files are read from $TILESCOPE_TUNING_DIR, the user's folder above, ./assets/tuning,\n"
    "<binary dir>/tuning and the copies built into the binary, in that order; a device with no\n"
    "file of its own uses a similar device's, else the defaults for its type (CPU, GPU).\n"
    "Exit status: 0 a verified best was stored, 1 none verified, 2 bad input, 130 cancelled.\n";

std::string help_text() {
    std::string s = kHelpText;
    const std::string key = "{BUDGET}";
    s.replace(s.find(key), key.size(), std::to_string(int(kQuickTuneBudgetS)));
    return s;
}

std::string params_string(const std::map<std::string, int64_t>& p) {
    std::string s;
    for (const auto& [k, v] : p) s += (s.empty() ? "" : " ") + k + "=" + std::to_string(v);
    return s;
}

}  // namespace

int cmd_tune(const std::vector<std::string>& args) {
    Options o("tune", {"device", "kernel", "size", "tile", "param", "reps", "warmup", "out", "json", "budget"},
              {"help", "dry-run", "quick"});
    o.parse(args);
    if (o.has("help")) {
        std::cout << help_text();
        return 0;
    }
    const int reps = o.get_int("reps", 3, 1, "an integer of at least 1");
    const int warmup = o.get_int("warmup", 1, 0, "an integer of at least 0");
    const KernelSpec kernel = kernels_from(o, "reg2d_dbuf", false).front();
    if (!kernel.library.empty())
        throw InputError("--kernel " + kernel.name + ": a library picks its own parameters; accepted: a ladder rung");
    // tune --quick --size S[,S..]: searched at the first, a candidate judged at all on a CPU.
    const std::vector<ProblemSize> sizes = sizes_from(o, "1024", true);
    if (sizes.size() > 1 && !o.has("quick"))
        throw InputError("--size: a full sweep takes one size; accepted: one size, or --quick with several "
                         "(searched at the first, judged at every one on a CPU device)");
    const ProblemSize size = sizes.front();

    std::vector<int> tiles;
    if (o.has("tile")) {
        tiles = tiles_from(o, kernel, true);
    } else {
        tiles.push_back(kernel.default_tile);
        for (int t : kernel.tiles)
            if (t != kernel.default_tile) tiles.push_back(t);
    }
    std::map<std::string, std::vector<int64_t>> values;
    for (const std::string& text : o.all("param")) {
        const size_t eq = text.find('=');
        const std::string name = text.substr(0, eq == std::string::npos ? text.size() : eq);
        std::vector<int64_t> list;
        std::stringstream rest(eq == std::string::npos ? "" : text.substr(eq + 1));
        std::string one;
        while (std::getline(rest, one, ','))
            list.push_back(parse_param(kernel, name + "=" + one, "--param").second);
        if (list.empty()) parse_param(kernel, text, "--param");  // throws with what is accepted
        values[name] = list;
    }
    const bool quick = o.has("quick");
    if (quick && (o.has("tile") || o.has("param")))
        throw InputError("--quick: picks its own points; accepted: --quick without --tile and --param, or a full sweep");
    const double budget = o.get_int("budget", int(kQuickTuneBudgetS), 5, "a number of seconds of at least 5");
    const auto points = quick ? std::vector<std::pair<int, std::map<std::string, int64_t>>>{} : sweep_points(kernel, tiles, values);

    const std::string out_dir = o.get_or("out", default_tuning_dir());
    const auto json_path = o.get("json");
    if (json_path) check_writable(*json_path, "--json");

    const DeviceInfo& device = select_device(o.get_or("device", ""));
    if (device.is_emulator)
        throw InputError("--device emulator: the emulator's times mean nothing; pick a real device: " + device_list_text());
    if (sizes.size() > 1 && !device.is_cpu)
        throw InputError("--size with several sizes: only a CPU device judges tune --quick's candidate at several; "
                         "accepted here: one size");
    const std::string slug = device_slug(device);
    const std::string out_path = (std::filesystem::path(out_dir) / (slug + ".json")).string();

    if (quick) {
        std::fprintf(stderr, "tune --quick: %s on %s at %s: a guided search of about %d points (at most %.0f s) -> %s\n",
                     kernel.name.c_str(), device.label().c_str(), size.label().c_str(), quick_tune_expected_points(kernel),
                     budget, out_path.c_str());
        if (device.is_cpu) {  // where a candidate that beats the start is judged (tasks::run_quick_tune)
            std::string at;
            for (const ProblemSize& s : sizes.size() > 1 ? sizes : quick_tune_judge_sizes(size)) at += (at.empty() ? "" : ", ") + s.label();
            std::fprintf(stderr, "tune --quick: a candidate faster than the start is timed against it in pairs at %s, "
                                 "and stored only if 1 %% faster at each\n", at.c_str());
            for (const TunePoint& t : quick_tune_also_try(device, kernel, size))
                std::fprintf(stderr, "tune --quick: TS=%d %s, named by the defaults for CPUs, is measured and timed in pairs too\n",
                             t.tile, params_string(t.params).c_str());
        }
    }
    else
        std::fprintf(stderr, "tune: %s on %s at %s: %zu points -> %s\n", kernel.name.c_str(), device.label().c_str(),
                     size.label().c_str(), points.size(), out_path.c_str());
    if (o.has("dry-run")) {
        for (const auto& [t, p] : points) std::printf("TS=%d %s\n", t, params_string(p).c_str());
        return 0;
    }
    {
        std::error_code ec;
        std::filesystem::create_directories(out_dir, ec);
        check_writable(out_path, "--out");
    }

    Runner runner(device);
    install_interrupt_handler();
    std::vector<Measurement> measured;
    auto measure_point = [&](int tile, const std::map<std::string, int64_t>& params) {
        RunOptions ro;
        ro.reps = reps;
        ro.warmup = warmup;
        ro.cancelled = interrupted;
        Measurement m;
        TuneResult r = measure_tune_point(runner, kernel, size, tile, params, ro, &m);
        if (r.status != "refused") measured.push_back(std::move(m));
        return r;
    };
    auto print = [&](size_t done, size_t planned, const TuneResult& r) {
        if (r.status == "ok")
            std::printf("[%zu/%zu] TS=%-4d %-40s %10.3f ms %10.2f GFLOP/s\n", done, planned, r.tile,
                        params_string(r.params).c_str(), r.median_s * 1e3, r.gflops);
        else
            std::printf("[%zu/%zu] TS=%-4d %-40s %s: %s\n", done, planned, r.tile, params_string(r.params).c_str(),
                        r.status.c_str(), r.message.substr(0, 160).c_str());
        std::fflush(stdout);
    };
    std::string command = "tilescope tune --device '" + o.get_or("device", "") + "' --kernel " + kernel.name + " --size ";
    for (size_t i = 0; i < sizes.size(); ++i) command += (i ? "," : "") + sizes[i].label();
    for (const std::string& a : o.all("tile")) command += " --tile " + a;
    for (const std::string& a : o.all("param")) command += " --param " + a;
    if (quick) command += " --quick";
    std::vector<TuneResult> results;
    int best = -1;
    double took = 0;
    std::string verdict;  // tune --quick: the start kept, or what beat it
    if (quick) {
        // The task the GUI's "Tune this device" runs (core/tasks/quick_tune.h): from the best
        // this device already has (its own, a similar device's, its type's), the locked write.
        tasks::QuickTuneJob job;
        job.device = o.get_or("device", "");
        job.kernel = kernel.name;
        job.size = size;
        if (sizes.size() > 1) job.judge_sizes = sizes;
        job.reps = reps;
        job.warmup = warmup;
        job.budget_s = budget;
        job.out_dir = out_dir;
        job.command = command;
        tasks::TaskProgress progress;
        progress.cancelled = interrupted;
        tasks::QuickTuneHooks hooks;
        hooks.started = [](const tasks::QuickTuneOutcome& so_far) {
            if (!so_far.start.note.empty())
                std::fprintf(stderr, "tune --quick: starting from TS=%d %s (%s)\n", so_far.start.tile,
                             params_string(so_far.start.params).c_str(), so_far.start.note.c_str());
        };
        hooks.point = [&](int done, int planned, const TuneResult& r) { print(done, planned, r); };
        tasks::QuickTuneOutcome out = tasks::run_quick_tune(job, progress, hooks);
        results = out.run.results;
        best = out.run.best;
        took = out.run.seconds;
        verdict = out.run.verdict;
        measured = std::move(out.measured);
    } else {
        const auto started = std::chrono::steady_clock::now();
        for (size_t i = 0; i < points.size(); ++i) {
            if (interrupted()) throw Cancelled();
            results.push_back(measure_point(points[i].first, points[i].second));
            print(i + 1, points.size(), results.back());
        }
        took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        best = best_result(results);
        if (best >= 0)  // locked read-merge-write: a second `tune` on the same file keeps this run's results
            update_file_locked(out_path, [&](const std::string& current) {
                return merge_tuning(current, device.label(), kernel.name, size, results, command);
            });
    }

    if (json_path) {
        nlohmann::json list = nlohmann::json::parse(measurements_to_json(measured));
        for (const TuneResult& r : results)
            if (r.status == "refused")
                list.push_back({{"kernel", kernel.name}, {"device", device.label()}, {"M", size.M}, {"N", size.N},
                                {"K", size.K}, {"tile", r.tile}, {"params", r.params}, {"refused", r.message}});
        write_file_atomically(*json_path, list.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n", "--json");
    }
    if (best < 0) {
        std::fprintf(stderr, "tune: no point verified; %s was not changed\n", out_path.c_str());
        return 1;
    }
    const TuneResult& b = results[best];
    std::printf("best: %s TS=%d %s  %.2f GFLOP/s (median of %d; %zu points in %.0f s) -> %s\n", kernel.name.c_str(),
                b.tile, params_string(b.params).c_str(), b.gflops, reps, results.size(), took, out_path.c_str());
    if (!verdict.empty()) std::printf("%s\n", verdict.c_str());
    return 0;
}

}  // namespace tilescope::cli
