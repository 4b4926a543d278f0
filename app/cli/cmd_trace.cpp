#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <atomic>
#include <bit>
#include <iostream>
#include <limits>
#include <mutex>
#include <optional>

#include "cli/cli.h"
#include "args/options.h"
#include "args/setup.h"
#include "core/base/atomic_file.h"
#include "core/caches/cache_trace.h"
#include "core/tasks/sampled_caches.h"
#include "core/kernel/catalog.h"
#include "core/base/errors.h"
#include "core/teach/exercise_notes.h"
#include "core/kernel/source_edit.h"
#include "core/io/trace_export.h"
#include "core/io/trace_file.h"
#include "core/emulator/trace_runner.h"

namespace tilescope::cli {
namespace {

const char* kHelp =
    "usage: tilescope trace [--kernel K] [--size S] [--tile T] [--groups G;G..] [--no-checks]\n"
    "                       [--warp W] [--sector B] [--banks N] [--group X,Y] [--json PATH|-]\n"
    "                       [--save FILE.tstrace] [--drop-barrier LINE]...\n"
    "       tilescope trace ... --source FILE.cl --entry NAME --global E[,E[,E]] --local E[,E[,E]]\n"
    "                       [--define NAME=E]... --arg SPEC [--arg SPEC]... [--check C=A*B]\n"
    "\n"
    "Runs the kernel once on the Oclgrind emulator, over the same NDRange a real device runs,\n"
    "and counts every global and local load and store: totals, the closed-form expectation\n"
    "for ladder rungs, coalescing and bank conflicts, and for chosen work-groups which\n"
    "elements of A and B each barrier interval loaded. Oclgrind's race, divergence and\n"
    "memory checks are on unless --no-checks; --uninitialized adds Oclgrind's check for\n"
    "    reads of never-written local or private memory (about 1.5x slower, more memory).\n"
    "  S  N or MxNxK (default 64); K  a ladder rung (default tiled); T  the tile size\n"
    "  --param NAME=V  a tunable parameter of the rung, e.g. --param PAD=0 (repeatable)\n"
    "  --groups  work-groups keeping element detail, e.g. '0,0;1,2' (default: as many as fit)\n"
    "  --group   the work-group whose phases the terminal summary tables\n"
    "  --warp W  lanes per synthetic sub-group (32); --sector B  bytes per sector (32);\n"
    "  --banks N local-memory banks of 4 bytes (32)\n"
    "  --save FILE.tstrace  the whole trace (source, launch, phases, counters, diagnostics,\n"
    "           wrong cells; with --caches the cache model's report and its profile) in one\n"
    "           file: tilescope gui --open, tilescope export --html\n"
    "  --drop-barrier LINE  remove the barrier on that source line first (repeatable), to\n"
    "           see the race and the wrong cells it causes\n"
    "  --sample X[,Y]  with --caches, at a size too large to trace whole: trace an XxY block of\n"
    "            work-groups (default 3,3), check they are moved copies of group 0,0, and model the\n"
    "            launch's groups made from it; --model-groups N|all how many, in launch order\n"
    "            (default: all when cheap, else whole waves). Modelled from a traced sample.\n"
    "  --caches [PROFILE]  model L1/L2/DRAM traffic of the traced requests (default profile h200;\n"
    "            also --cache-profile NAME); --l1 KB (0: no L1) --l2 KB --line B --ways N --cus N\n"
    "            --resident N override the profile's values (h200, h100: resident groups and L1 follow\n"
    "            the launch's work-items and local memory; --regs N adds its registers per work-item,\n"
    "            which a trace cannot see). Modelled figures, not measured.\n"
    "A rung that names the rung it changes (ladder.json \"compares_with\": those after 'tiled')\n"
    "is also traced beside that rung (--no-compare skips it).\n"
    "Ctrl-C cancels; nothing is written then.\n";

// The rung `k` teaches one change against (ladder.json "compares_with"); nullptr when it
// names none (the lesson's first rungs, the library, custom kernels).
const KernelSpec* previous_rung(const KernelSpec& k) {
    if (k.custom || k.compares_with.empty()) return nullptr;
    return find_rung(k.compares_with);
}

// The traffic a rung claims to change, per flop, beside the rung before it.
std::string against_previous(const Trace& now, const Trace& before) {
    auto per_flop = [](uint64_t v, const Trace& t) { return t.totals.flops > 0 ? double(v) / t.totals.flops : 0.0; };
    std::string out = "against the rung before (" + before.kernel + ", TS " + std::to_string(before.tile) + ", same size):\n";
    char line[256];
    std::snprintf(line, sizeof line, "  %-34s %14s %14s %8s\n", "", before.kernel.c_str(), now.kernel.c_str(), "ratio");
    out += line;
    auto row = [&](const char* what, double b, double n, const char* fmt) {
        char bs[32], ns[32];
        std::snprintf(bs, sizeof bs, fmt, b);
        std::snprintf(ns, sizeof ns, fmt, n);
        std::snprintf(line, sizeof line, "  %-34s %14s %14s %7.2fx\n", what, bs, ns, b > 0 ? n / b : 0.0);
        out += line;
    };
    row("global bytes loaded per flop", per_flop(before.totals.global_load_bytes, before),
        per_flop(now.totals.global_load_bytes, now), "%.4f");
    row("local bytes loaded per flop", per_flop(before.totals.local_load_bytes, before),
        per_flop(now.totals.local_load_bytes, now), "%.4f");
    row("global load instructions per flop", per_flop(before.totals.global_loads, before),
        per_flop(now.totals.global_loads, now), "%.5f");
    row("local load instructions per flop", per_flop(before.totals.local_loads, before),
        per_flop(now.totals.local_loads, now), "%.5f");
    row("sectors per global request", before.coalescing.sectors_per_request(), now.coalescing.sectors_per_request(), "%.2f");
    row("bank-conflict mean degree", before.bank_conflicts.mean_degree(), now.bank_conflicts.mean_degree(), "%.2f");
    row("barriers per work-group", before.total_groups() ? double(before.totals.barriers) / before.total_groups() : 0,
        now.total_groups() ? double(now.totals.barriers) / now.total_groups() : 0, "%.1f");
    return out;
}

uint32_t positive(const Options& o, const std::string& name, int fallback) {
    return static_cast<uint32_t>(o.get_int(name, fallback, 1, "a positive integer"));
}

// `--caches` takes an optional profile: `--caches` alone, `--caches NAME`, `--caches=NAME`.
std::vector<std::string> with_caches_value(const std::vector<std::string>& args) {
    std::vector<std::string> out;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] != "--caches") {
            out.push_back(args[i]);
        } else if (i + 1 < args.size() && args[i + 1].rfind("-", 0) != 0) {
            out.push_back("--caches=" + args[++i]);
        } else {
            out.push_back("--caches=");
        }
    }
    return out;
}

// The cache model's set-up, when --caches, --cache-profile or an override asks for it;
// checked before the trace runs so a bad value costs nothing.
struct CacheChoice {
    CacheProfile profile;
    CacheOverrides overrides;
};

std::optional<CacheChoice> cache_choice(const Options& o, uint32_t sector_bytes) {
    const char* overrides[] = {"l1", "l2", "line", "ways", "cus", "resident", "regs"};
    bool wanted = o.has("caches") || o.has("cache-profile");
    for (const char* name : overrides) wanted = wanted || o.has(name);
    if (!wanted) return std::nullopt;
    std::string name = o.get_or("cache-profile", "");
    const std::string option = name.empty() ? "--caches" : "--cache-profile";
    if (name.empty()) name = o.get_or("caches", "");
    if (name.empty()) name = "h200";
    CacheChoice c{load_cache_profile(name, option), {}};
    if (o.has("l1")) c.overrides.l1_kb = o.get_int("l1", 0, 0, "a size in KB, 0 for no L1");
    if (o.has("l2")) c.overrides.l2_kb = o.get_int("l2", 0, 1, "a size in KB");
    if (o.has("line")) c.overrides.line = o.get_int("line", 0, 1, "bytes per cache line");
    if (o.has("ways")) c.overrides.ways = o.get_int("ways", 0, 1, "a positive integer");
    if (o.has("cus")) c.overrides.cus = o.get_int("cus", 0, 1, "a positive integer");
    if (o.has("resident")) c.overrides.resident = o.get_int("resident", 0, 1, "a positive integer");
    if (o.has("regs")) {
        c.overrides.regs = o.get_int("regs", 0, 1, "registers per work-item, 1 to 255");
        if (*c.overrides.regs > 255)
            throw InputError("--regs " + std::to_string(*c.overrides.regs) + ": accepted: registers per work-item, 1 to 255");
    }
    // A line that is not a power of two (a --line typo) is the --line's fault, not --sector's.
    if (c.overrides.line && (!std::has_single_bit(uint64_t(*c.overrides.line)) || *c.overrides.line < sector_bytes))
        throw InputError("--line " + std::to_string(*c.overrides.line) + ": accepted: a power of two of at least the " +
                         std::to_string(sector_bytes) + "-byte sector (--sector), e.g. 64 or 128");
    const CacheParams params = apply_overrides(c.profile.params, c.overrides);
    if (params.sector_bytes < sector_bytes)
        throw InputError("--sector " + std::to_string(sector_bytes) + ": profile " + name + " has " +
                         std::to_string(params.sector_bytes) + "-byte sectors; accepted: --sector " +
                         std::to_string(params.sector_bytes) + " or smaller with --caches");
    check_cache_params(params, sector_bytes);
    return c;
}

// Work-groups done, on stderr: quiet for the first second (quick traces); on a terminal
// one updating line, in a log every 10%. Called from one thread at a time.
class GroupProgress {
public:
    const bool tty = isatty(STDERR_FILENO);

    void operator()(uint64_t done, uint64_t total) {
        if (std::chrono::steady_clock::now() - started_ < std::chrono::seconds(1)) return;
        const uint64_t tenth = total ? done * 10 / total : 0;
        if (!tty && tenth == last_tenth_) return;
        last_tenth_ = tenth;
        std::fprintf(stderr, tty ? "\r\033[Ktrace: %llu/%llu work-groups" : "trace: %llu/%llu work-groups\n",
                     static_cast<unsigned long long>(done), static_cast<unsigned long long>(total));
        std::fflush(stderr);
        shown_ = true;
    }
    // A new count begins (the next stage of a task): its first tenth is shown again.
    void new_stage() { last_tenth_ = 11; }
    // Clears the terminal's updating line before other output.
    void clear_line() {
        if (shown_ && tty) std::fprintf(stderr, "\r\033[K");
    }

private:
    std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
    uint64_t last_tenth_ = 0;
    std::atomic<bool> shown_{false};
};

// --sample X[,Y[,Z]]: groups per dimension of the traced block.
std::array<uint32_t, 3> parse_sample(const std::string& text) {
    std::array<uint32_t, 3> out{1, 1, 1};
    size_t d = 0, start = 0;
    while (true) {
        const size_t comma = text.find(',', start);
        const std::string num = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (d >= 3 || num.empty() || num.size() > 4 || num.find_first_not_of("0123456789") != std::string::npos ||
            std::stoul(num) < 1)
            throw InputError("--sample '" + shown(text, 40) +
                             "': accepted: work-groups per dimension of the traced block, e.g. 3 or 3,3 (2 to 9999)");
        out[d++] = static_cast<uint32_t>(std::stoul(num));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    if (d == 1) out[1] = out[0];  // "3": a 3x3 block
    return out;
}

// trace --sample: the cache model over a launch too large to trace, from a traced block.
int sampled(const Options& o, const LaunchConfig& config, const std::optional<CacheChoice>& caches,
            const std::optional<std::string>& json_path) {
    if (!caches)
        throw InputError("--sample: accepted only with --caches [PROFILE]: a sample stands in for the whole launch "
                         "in the cache model alone");
    for (const char* other : {"save", "groups", "group", "drop-barrier", "uninitialized"})
        if (o.has(other))
            throw InputError(std::string("--") + other + ": accepted without --sample only (a sampled trace keeps "
                             "the cache model's figures, not the launch's)");
    tasks::SampledCachesRequest req;
    req.config = config;
    req.profile = caches->profile;
    req.overrides = caches->overrides;
    req.sample = parse_sample(o.get_or("sample", "3"));
    if (auto m = o.get("model-groups"); m && *m != "all")
        req.model_groups = o.get_int("model-groups", 0, 1, "a number of work-groups, or all");
    else if (m)
        req.model_groups = std::numeric_limits<uint64_t>::max();
    install_interrupt_handler();
    tasks::TaskProgress progress;
    progress.cancelled = interrupted;
    GroupProgress shown;
    progress.message = [&](const std::string& line) {
        std::fprintf(stderr, "%strace: %s\n", shown.tty ? "\r\033[K" : "", line.c_str());
        shown.new_stage();
    };
    progress.units = [&](uint64_t done, uint64_t total) { shown(done, total); };
    const tasks::SampledCachesResult r = tasks::model_caches_sampled(req, progress);
    shown.clear_line();
    if (json_path) {
        nlohmann::json j = tasks::sampled_caches_to_json(r);
        j["kernel"] = config.kernel.name;
        j["size"] = config.size.label();
        j["tile"] = config.tile;
        write_file_atomically(*json_path, j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n", "--json");
    }
    if (!json_path || *json_path != "-")
        std::cout << config.kernel.name << " at " << config.size.label() << ", TS " << config.tile << "\n"
                  << tasks::sampled_caches_text(r, caches->profile.title, config.kernel.name);
    return 0;
}

}  // namespace

int cmd_trace(const std::vector<std::string>& args) {
    auto valued = custom_kernel_options();
    valued.insert({"kernel", "size", "tile", "param", "groups", "group", "warp", "sector", "banks", "json", "save", "drop-barrier"});
    valued.insert({"kernel", "size", "tile", "param", "groups", "group", "warp", "sector", "banks", "json"});
    valued.insert({"caches", "cache-profile", "l1", "l2", "line", "ways", "cus", "resident", "regs", "sample", "model-groups"});
    Options o("trace", valued, {"no-checks", "uninitialized", "no-compare", "help"});
    o.parse(with_caches_value(args));
    if (o.has("help")) {
        std::cout << kHelp;
        return 0;
    }
    // A trace needs the emulator alone: not loading the other drivers keeps ~60 MB off
    // the peak (matters at 256^3). Must come before any OpenCL use.
    use_emulator_only();
    std::vector<LaunchConfig> configs = configs_from(o, "tiled", "64", false);
    std::vector<int> dropped;
    for (const std::string& line : o.all("drop-barrier")) {
        if (line.empty() || line.size() > 7 || line.find_first_not_of("0123456789") != std::string::npos)
            throw InputError("--drop-barrier '" + line + "': accepted: a source line number holding a barrier");
        dropped.push_back(std::stoi(line));
    }
    configs.front().kernel = drop_barriers(configs.front().kernel, dropped);
    const LaunchConfig& config = configs.front();
    if (!config.kernel.library.empty())
        throw InputError("--kernel " + config.kernel.name + ": a library call cannot be traced; pick an OpenCL C rung");

    TraceOptions to;
    to.checks = !o.has("no-checks");
    to.uninitialized = o.has("uninitialized");
    // An exercise whose mistake only the uninitialised-value check sees turns it on itself.
    if (const ExerciseNote* note = find_exercise_note(config.kernel.name); note && note->uninitialized && !to.uninitialized) {
        to.uninitialized = true;
        std::fprintf(stderr, "trace: %s: the uninitialised-value check is on (this exercise needs it)\n", note->kernel.c_str());
    }
    if (auto g = o.get("groups")) to.groups = parse_groups(*g);
    to.geometry.warp = positive(o, "warp", 32);
    to.geometry.sector_bytes = positive(o, "sector", 32);
    to.geometry.banks = positive(o, "banks", 32);
    SummaryOptions so;
    if (auto g = o.get("group")) {
        const auto groups = parse_groups(*g);
        if (groups.size() != 1) throw InputError("--group '" + *g + "': accepted: one work-group X,Y");
        so.group = groups.front();
    }
    const std::optional<CacheChoice> caches = cache_choice(o, to.geometry.sector_bytes);
    to.cache_requests = caches.has_value();
    const auto json_path = o.get("json");
    if (json_path) check_writable(*json_path, "--json");
    if (o.has("sample") || o.has("model-groups")) return sampled(o, config, caches, json_path);
    const auto save_path = o.get("save");
    if (save_path) {
        if (*save_path == "-") throw InputError("--save -: accepted: a file name (the trace file is binary)");
        check_writable(*save_path, "--save");
        check_distinct_outputs({{"--json", json_path ? *json_path : ""}, {"--save", *save_path}});
    }

    install_interrupt_handler();
    to.cancelled = interrupted;
    GroupProgress shown;
    to.progress = [&](uint64_t done, uint64_t total) { shown(done, total); };
    // The selected group's phase table goes out as soon as the group completes, while the
    // launch goes on (the rest of the summary follows at the end).
    const bool text_out = !json_path || *json_path != "-";
    std::mutex out_mutex;
    bool phases_printed = false;
    if (text_out) {
        to.early_groups = {so.group ? *so.group : estimate_trace(config, to).detail_groups.front()};
        to.partial = [&](TraceSnapshot partial) {
            std::lock_guard<std::mutex> lock(out_mutex);
            if (phases_printed || !partial->find_group(to.early_groups.front())) return;
            SummaryOptions early = so;
            early.group = to.early_groups.front();
            shown.clear_line();
            std::cout << group_phase_table(*partial, early) << std::flush;
            phases_printed = true;
        };
    }
    Trace trace = run_trace(config, to);
    trace.dropped_barriers = dropped;
    shown.clear_line();
    {
        std::lock_guard<std::mutex> lock(out_mutex);
        so.phases = !phases_printed;
    }
    if (caches) trace.caches = model_trace_caches(trace, caches->profile, caches->overrides);

    if (json_path) write_file_atomically(*json_path, trace_to_json_text(trace), "--json");
    if (save_path) save_trace_file(*save_path, TraceFile{config, trace});
    if (text_out) {
        std::cout << trace_summary(trace, so);
        if (trace.caches) std::cout << "\n" << cache_report_table(*trace.caches, caches->profile.title, trace.kernel);
        // A rung beyond the lesson is traced beside the rung its data names, so the change
        // it claims is shown, not claimed.
        if (const KernelSpec* prev = previous_rung(config.kernel); prev && !o.has("no-compare")) {
            TraceOptions po = to;
            po.groups.clear();
            po.detail_budget_bytes = 1 << 20;
            po.verify = false;
            po.progress = nullptr;
            const Trace before = run_trace(LaunchConfig{*prev, config.size, prev->default_tile}, po);
            std::cout << "\n" << against_previous(trace, before);
        }
    }
    return 0;
}

}  // namespace tilescope::cli
