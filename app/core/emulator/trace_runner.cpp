#include "core/emulator/trace_runner.h"
#include "core/base/environment.h"
#include "core/base/input_budget.h"

#include "core/device/contained_measure.h"

#include "core/emulator/intake.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "core/trace/analysis.h"
#include "core/base/errors.h"
#include "core/device/opencl_env.h"
#include "core/device/runner.h"
#include "core/trace/wrong_cells.h"
#include "core/base/watchdog.h"

namespace tilescope {
namespace fs = std::filesystem;
namespace abi = trace_abi;

namespace {

std::string human_bytes(uint64_t b) {
    char buf[64];
    if (b >= (1ull << 30)) std::snprintf(buf, sizeof buf, "%.1f GB", b / double(1ull << 30));
    else if (b >= (1ull << 20)) std::snprintf(buf, sizeof buf, "%.0f MB", b / double(1ull << 20));
    else std::snprintf(buf, sizeof buf, "%.0f KB", b / 1024.0);
    return buf;
}

std::string human_seconds(double s) {
    char buf[64];
    if (s >= 3600) std::snprintf(buf, sizeof buf, "%.0f min", s / 60);
    else if (s >= 120) std::snprintf(buf, sizeof buf, "%.1f min", s / 60);
    else if (s >= 10) std::snprintf(buf, sizeof buf, "%.0f s", s);
    else std::snprintf(buf, sizeof buf, "%.1f s", s);
    return buf;
}

std::string group_text(const GroupId& g, int dims) {
    std::string s = std::to_string(g[0]);
    for (int d = 1; d < dims; ++d) s += "," + std::to_string(g[d]);
    return s;
}

// Sets environment variables for the emulator context about to be created and puts the
// previous values back afterwards (Oclgrind reads them when a context is created).
class ScopedEnv {
public:
    void set(const char* name, const std::string& value) {
        const char* old = std::getenv(name);
        saved_.push_back({name, old ? std::optional<std::string>(old) : std::nullopt});
        setenv(name, value.c_str(), 1);
    }
    void unset(const char* name) {
        const char* old = std::getenv(name);
        saved_.push_back({name, old ? std::optional<std::string>(old) : std::nullopt});
        unsetenv(name);
    }
    ~ScopedEnv() {
        for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
            if (it->second) setenv(it->first.c_str(), it->second->c_str(), 1);
            else unsetenv(it->first.c_str());
        }
    }

private:
    std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

struct PluginHandle {
    std::string path;
    abi::ConfigureFn configure = nullptr;
    abi::TakeFn take = nullptr;
};

// The plugin is opened once and never closed, so the state Oclgrind's copy writes into
// outlives every emulator context.
const PluginHandle& open_plugin(const std::string& wanted) {
    static std::mutex mutex;
    static std::optional<PluginHandle> handle;
    std::lock_guard<std::mutex> lock(mutex);
    if (handle) return *handle;
    std::string path = wanted.empty() ? find_trace_plugin() : wanted;
    if (path.empty())
        throw InputError("the trace plugin libtilescope_trace.so was not found next to the executable or in the "
                         "build tree; build the tilescope_trace target or set TILESCOPE_TRACE_PLUGIN to its path");
    std::error_code ec;
    if (fs::path canonical = fs::canonical(path, ec); !ec) path = canonical.string();
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        // In our words, not the loader's ("invalid ELF header", "undefined symbol: ..."): the
        // file is named, and what would be accepted.
        const std::string why = dlerror();
        const bool not_elf = why.find("ELF") != std::string::npos || why.find("too short") != std::string::npos;
        throw InputError("the trace plugin '" + shown_path(path, 200) + "' cannot be loaded: " +
                         (not_elf ? "it is not a shared library for this machine" : "it does not link against this tilescope") +
                         "; accepted: libtilescope_trace.so from the same build (TILESCOPE_TRACE_PLUGIN names it)");
    }
    PluginHandle h;
    h.path = path;
    h.configure = reinterpret_cast<abi::ConfigureFn>(dlsym(lib, abi::kConfigureSymbol));
    h.take = reinterpret_cast<abi::TakeFn>(dlsym(lib, abi::kTakeSymbol));
    if (!h.configure || !h.take)
        throw InputError("the library " + path + " is not the tilescope trace plugin (no " + abi::kConfigureSymbol + ")");
    handle = h;
    return *handle;
}

// Work-groups whose detail fits the budget when none were asked for: all of them when
// they fit, else the first ones in linear order (at least one).
std::vector<GroupId> automatic_groups(const ResolvedLaunch& launch, uint64_t per_group_bytes, uint64_t budget) {
    const uint64_t total = launch.total_groups();
    if (budget == 0) return {};  // no group keeps detail (the sampled cache model needs none)
    uint64_t n = per_group_bytes ? std::max<uint64_t>(1, budget / per_group_bytes) : total;
    n = std::min(n, total);
    std::vector<GroupId> out;
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t x = i % launch.groups[0], y = (i / launch.groups[0]) % launch.groups[1],
                       z = i / (launch.groups[0] * launch.groups[1]);
        out.push_back({static_cast<uint32_t>(x), static_cast<uint32_t>(y), static_cast<uint32_t>(z)});
    }
    return out;
}

// The one budget of every input (core/base/input_budget.h, issue 32): 1 GiB, or half the RAM.
uint64_t memory_limit(const TraceOptions& o) {
    if (o.max_memory_bytes) return o.max_memory_bytes;
    return std::min<uint64_t>(kInputBudgetBytes, physical_memory_bytes() / 2);
}

// What the plugin's detail may hold, in its 16-byte records: the budget less the process's
// own (Oclgrind, LLVM, the program: about 110 MB measured) and a margin for what the host
// builds while the detail is handed over, so that a kernel whose barrier count no estimate
// knows (a loop of 200,000) stops keeping detail within the budget rather than past it.
uint64_t detail_record_limit(uint64_t mem_limit) {
    const uint64_t reserved = std::min<uint64_t>(uint64_t(256) << 20, mem_limit / 4);
    return std::max<uint64_t>(1'000'000, (mem_limit - reserved) / 16);
}

struct EstimateParts {
    TraceEstimate estimate;
    ResolvedLaunch launch;
};

// `workers`: Oclgrind's threads, each running a group of its own (emulator_workers()).
EstimateParts estimate_parts(const LaunchConfig& config, const TraceOptions& options, unsigned workers) {
    EstimateParts parts;
    parts.launch = resolve(config);
    const double launch_groups = double(std::max<size_t>(1, parts.launch.total_groups()));  // before a sample
    TraceEstimate& e = parts.estimate;
    // A sample traces a block of the launch's groups: its cost is that fraction of the whole.
    double fraction = 1.0;
    if (options.sampled()) {
        if (config.kernel.then)
            throw InputError("--sample: '" + config.kernel.name +
                             "' launches a second kernel; accepted: a kernel of one launch");
        for (int d = 0; d < 3; ++d) {
            const size_t want = std::max<uint32_t>(1, options.sample[d]);
            if (want > parts.launch.groups[d])
                throw InputError("--sample " + std::to_string(want) + ": the launch has " +
                                 std::to_string(parts.launch.groups[d]) + " work-groups along dimension " +
                                 std::to_string(d) + "; accepted: 2 to that many");
            fraction *= double(want) / double(parts.launch.groups[d]);
            parts.launch.groups[d] = want;
            parts.launch.global[d] = want * parts.launch.local[d];
        }
    }
    const ResolvedLaunch& launch = parts.launch;

    // Memory events: the closed forms for rungs; for other kernels about one access per
    // flop (a multiply-add reading two operands), which is what untiled kernels do.
    const double M = double(config.size.M), N = double(config.size.N), K = double(config.size.K);
    double events = 0, private_events = 0;
    double intervals_per_group = 1;  // barrier intervals of a group: 1 unless the closed forms say otherwise
    if (const auto x = expected_traffic(config.kernel, config.size, config.tile, config.params)) {
        events = double(x->global_load_bytes + x->global_store_bytes + x->local_load_bytes + x->local_store_bytes) / 4.0;
        intervals_per_group = 1 + double(x->barriers) / launch_groups;
        if (config.kernel.name.find("private") != std::string::npos) private_events = M * N * K + M * K;
    } else {
        events = launch.flops + M * N;
    }
    events *= fraction;
    private_events *= fraction;
    e.memory_events = static_cast<uint64_t>(events);

    // Time: measured here at about 1.3 M accesses per second per worker with the checks
    // off; the race detector costs about 1.5x, the uninitialised-value check 2.2x.
    // Private accesses cost about as much as the others.
    const double rate = 1.3e6 * workers / (options.checks ? 1.5 : 1.0) / (options.uninitialized ? 2.2 : 1.0);
    // Per work-group and per work-item, whatever the kernel does (issue 32: a custom
    // NDRange of 65536^2 work-items in 1x1 groups took 1.7 GB before it aborted, its
    // estimate counting accesses only): measured here with a kernel of one store per
    // work-item in 1x1 groups (512^2 groups: 2.3 s and 155 MB above the base on 2
    // workers), about 8 us and 600 bytes a group (its summary in the plugin, the Trace's
    // group totals, Oclgrind's group state); a work-item about 1 us.
    const double groups_run = double(launch.total_groups());
    double work_items = 1;
    for (int d = 0; d < launch.dims; ++d) work_items *= double(launch.global[d]);
    e.seconds = (events + private_events) / rate + (groups_run * 16e-6 + work_items * 2e-6) / workers + 0.3;

    // Memory: Oclgrind and LLVM themselves, the matrices on the host (inputs, outputs and
    // the reference), the device copies (plus shadow copies when the checks are on),
    // the heatmaps (two counters per element per worker) and the detail.
    uint64_t elements = 0;
    for (const ResolvedArg& a : launch.args)
        if (a.spec.kind == ArgSpec::Kind::Matrix) elements += static_cast<uint64_t>(a.rows * a.cols);
    const uint64_t buffer_bytes = elements * 4;
    const uint64_t base = 110ull << 20;
    // The race detector keeps about 180 bytes per byte of global memory (measured: 140 MB
    // for 768 KB of matrices); the uninitialised-value check a shadow of everything.
    const uint64_t checks = (options.checks ? buffer_bytes * 180 : 0) + (options.uninitialized ? buffer_bytes * 45 : 0);
    const uint64_t heatmaps = elements * 8 * (workers + 1);
    const double per_group_events = events / double(std::max<size_t>(1, launch.total_groups()));
    // About 8 bytes an event for the touches and 16 for the access log (trace_abi.h's
    // AccessRecord, and the Trace's MemoryAccess built from it).
    const uint64_t per_group_detail = static_cast<uint64_t>(per_group_events * 24 + 4096);
    if (options.groups.empty()) {
        e.detail_groups = automatic_groups(launch, per_group_detail, options.detail_budget_bytes);
    } else {
        for (const GroupId& g : options.groups)
            for (int d = 0; d < 3; ++d)
                if (g[d] >= launch.groups[d])
                    throw InputError((options.named_as.empty() ? "--groups " : options.named_as + ": work-group ") +
                                     group_text(g, launch.dims) + ": the NDRange has " +
                                     std::to_string(launch.groups[0]) + "x" + std::to_string(launch.groups[1]) +
                                     (launch.dims > 2 ? "x" + std::to_string(launch.groups[2]) : "") +
                                     " work-groups; accepted: X,Y with X < " + std::to_string(launch.groups[0]) +
                                     " and Y < " + std::to_string(launch.groups[1]));
        e.detail_groups = options.groups;
    }
    for (const GroupId& g : options.early_groups)  // streamed groups keep detail
        if (std::find(e.detail_groups.begin(), e.detail_groups.end(), g) == e.detail_groups.end())
            e.detail_groups.push_back(g);
    e.detail_bytes = per_group_detail * e.detail_groups.size() * 2;  // touches, then the Trace built from them
    const double per_group_bytes = groups_run * 640;
    e.peak_bytes = base + buffer_bytes * 4 + checks + heatmaps + e.detail_bytes +
                   (per_group_bytes > 1.8e19 ? uint64_t(1.8e19) : uint64_t(per_group_bytes));
    // The cache model's requests: about one sector per 8 accesses at 8 bytes, plus the
    // request records; kept twice while the Trace is built.
    if (options.cache_requests) e.peak_bytes += static_cast<uint64_t>(events * 3);
    // The requests of the barrier interval each worker's group is in: the plugin judges them
    // when the interval closes, and Oclgrind runs each work-item to its next barrier before
    // the next starts, so a kernel without barriers (row) holds a whole group's. About 850
    // bytes each, one per access of a sub-group's lanes (measured: row at 640^3 sampled 3x1,
    // a group's 819,200 requests: 1,072,480 KB at its peak on one worker, 1,747,588 KB on two).
    double lanes = 1;
    for (int d = 0; d < launch.dims; ++d) lanes *= double(launch.local[d]);
    const double subgroup = std::max(1.0, std::min(lanes, double(options.geometry.warp)));
    const double in_flight = std::min(double(workers), groups_run);
    const double one_open = per_group_events / intervals_per_group / subgroup * 850;
    const auto bounded = [](double b) { return b > 1.8e19 ? uint64_t(1.8e19) : uint64_t(b); };
    e.workers = workers;
    e.peak_bytes += bounded(one_open * in_flight);
    return parts;
}

// Shared with the plugin's worker threads during a run.
struct ProgressRelay {
    const TraceOptions* options = nullptr;
    std::atomic<bool> cancel{false};
    std::mutex mutex;
    std::chrono::steady_clock::time_point last{};

    static void call(void* user, uint64_t done, uint64_t total) {
        auto* self = static_cast<ProgressRelay*>(user);
        std::lock_guard<std::mutex> lock(self->mutex);
        if (self->options->cancelled && self->options->cancelled()) self->cancel = true;
        const auto now = std::chrono::steady_clock::now();
        if (self->options->progress && (done == total || now - self->last > std::chrono::milliseconds(200))) {
            self->last = now;
            self->options->progress(done, total);
        }
    }
};

// The plugin asks `cancelled` only when a group completes; a work-item that never ends
// completes nothing. While alive, this asks every 50 ms and raises the flag the plugin
// checks at every memory access.
class CancelWatch {
public:
    explicit CancelWatch(ProgressRelay& relay) : relay_(relay) {
        if (!relay.options->cancelled) return;
        thread_ = std::thread([this] {
            std::unique_lock<std::mutex> lock(mutex_);
            while (!done_) {
                {
                    std::lock_guard<std::mutex> relay_lock(relay_.mutex);
                    if (relay_.options->cancelled()) relay_.cancel = true;
                }
                wake_.wait_for(lock, std::chrono::milliseconds(50));
            }
        });
    }
    ~CancelWatch() {
        if (!thread_.joinable()) return;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            done_ = true;
        }
        wake_.notify_all();
        thread_.join();
    }
    CancelWatch(const CancelWatch&) = delete;
    CancelWatch& operator=(const CancelWatch&) = delete;

private:
    ProgressRelay& relay_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool done_ = false;
    std::thread thread_;
};

// Turns the plugin's partial results into Trace snapshots: keeps the early groups'
// detail as it arrives (each call brings only the newly completed ones).
struct PartialRelay {
    const TraceOptions* options = nullptr;
    const TraceContext* context = nullptr;
    std::vector<abi::GroupDetail> details;  // only touched by the one call at a time

    static void call(void* user, const abi::Result& so_far) noexcept {
        // A snapshot that cannot be made (out of memory) is skipped: the final trace follows.
        try {
            static_cast<PartialRelay*>(user)->make(so_far);
        } catch (...) {
        }
    }

    void make(const abi::Result& so_far) {
        PartialRelay* self = this;
        for (const abi::GroupDetail& d : so_far.details) self->details.push_back(d);
        abi::Result raw = so_far;
        raw.details = self->details;
        raw.complete = false;
        std::set<uint32_t> lines;  // the barriers seen so far: those that closed the early groups' intervals
        for (const abi::GroupDetail& d : raw.details)
            for (const abi::IntervalDetail& i : d.intervals)
                if (i.end_line) lines.insert(i.end_line);
        raw.barrier_lines.assign(lines.begin(), lines.end());
        Trace t = build_trace(std::move(raw), *self->context);
        t.partial = true;
        self->options->partial(std::make_shared<const Trace>(std::move(t)));
    }
};

// Set once at start-up (before any thread traces), read by run_trace.
ContainedTracer& contained_tracer() {
    static ContainedTracer tracer;
    return tracer;
}

}  // namespace

std::string TraceEstimate::text() const {
    return "about " + human_seconds(seconds) + " and " + human_bytes(peak_bytes);
}

void use_emulator_only() {
    // The device list registers Oclgrind's ICD plus the drivers in OCL_ICD_VENDORS (the
    // system's directory when unset): an empty directory there leaves Oclgrind alone.
    std::error_code ec;
    const fs::path dir = fs::temp_directory_path(ec) / ("tilescope-no-icds-" + std::to_string(getpid()));
    fs::create_directories(dir, ec);
    const watchdog::TempPath remove_if_killed(dir.string());
    {
        ScopedEnv env;
        env.set("OCL_ICD_VENDORS", dir.string());
        all_devices();
    }
    fs::remove_all(dir, ec);
}

std::string find_trace_plugin() {
    std::error_code ec;
    if (const auto env = env_text("TILESCOPE_TRACE_PLUGIN"); env && fs::is_regular_file(*env, ec)) return *env;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        for (const fs::path& p : {exe.parent_path() / "libtilescope_trace.so",
                                  exe.parent_path() / "../lib/tilescope/libtilescope_trace.so",
                                  exe.parent_path() / "../libtilescope_trace.so"})
            if (fs::exists(p, ec)) return p.lexically_normal().string();
    }
#ifdef TILESCOPE_TRACE_PLUGIN_BUILD_PATH
    if (fs::exists(TILESCOPE_TRACE_PLUGIN_BUILD_PATH, ec)) return TILESCOPE_TRACE_PLUGIN_BUILD_PATH;
#endif
    return "";
}

std::vector<GroupId> parse_groups(std::string_view text) {
    auto bad = [&](const std::string& why) {
        return InputError("--groups '" + shown(text) + "': " + why +
                          "; accepted: X,Y[,Z] work-group ids separated by ';', e.g. 0,0;1,0");
    };
    std::vector<GroupId> out;
    size_t start = 0;
    while (start <= text.size()) {
        const size_t semi = text.find(';', start);
        const std::string_view part = text.substr(start, semi == std::string_view::npos ? text.npos : semi - start);
        if (!part.empty()) {
            GroupId g{0, 0, 0};
            int d = 0;
            size_t p = 0;
            while (p <= part.size()) {
                const size_t comma = part.find(',', p);
                const std::string_view num = part.substr(p, comma == std::string_view::npos ? part.npos : comma - p);
                if (d >= 3) throw bad("at most three coordinates per group");
                if (num.empty() || num.find_first_not_of("0123456789") != std::string_view::npos || num.size() > 9)
                    throw bad("'" + shown(num, 20) + "' is not a group index");
                g[d++] = static_cast<uint32_t>(std::stoul(std::string(num)));
                if (comma == std::string_view::npos) break;
                p = comma + 1;
            }
            out.push_back(g);
        }
        if (semi == std::string_view::npos) break;
        start = semi + 1;
    }
    if (out.empty()) throw bad("no group given");
    return out;
}

TraceEstimate estimate_trace(const LaunchConfig& config, const TraceOptions& options) {
    return estimate_parts(config, options, emulator_workers()).estimate;
}

TraceEstimate estimate_trace(const LaunchConfig& config, const TraceOptions& options, unsigned workers) {
    return estimate_parts(config, options, std::max(1u, workers)).estimate;
}

bool within_limits(const TraceEstimate& e, const TraceOptions& options) {
    return e.peak_bytes <= memory_limit(options) && e.seconds <= options.max_seconds;
}

std::string limits_text(const TraceOptions& options) {
    return human_seconds(options.max_seconds) + ", " + human_bytes(memory_limit(options));
}

void set_contained_tracer(ContainedTracer tracer) { contained_tracer() = std::move(tracer); }

Trace run_trace(const LaunchConfig& config, const TraceOptions& options) {
    check_trusted(config);  // a kernel a file carries is traced only once trusted (issue 32)
    if (!config.kernel.library.empty())
        throw InputError("--kernel " + config.kernel.name + ": a library call (" + config.kernel.library +
                         ") cannot be traced; trace a ladder rung or a --source kernel");
    EstimateParts parts = estimate_parts(config, options, emulator_workers());
    const TraceEstimate& est = parts.estimate;
    const uint64_t mem_limit = memory_limit(options);
    if (!within_limits(est, options)) {
        // Suggest the largest square size, halving from here, that fits.
        std::string smaller;
        LaunchConfig probe = config;
        TraceOptions probe_options = options;
        probe_options.groups.clear();
        for (int64_t s = std::max({config.size.M, config.size.N, config.size.K}) / 2; s >= 8; s /= 2) {
            probe.size = {s, s, s};
            try {
                const TraceEstimate pe = estimate_trace(probe, probe_options);
                if (within_limits(pe, probe_options)) {
                    smaller = std::to_string(s);
                    break;
                }
            } catch (const InputError&) {
            }
        }
        // A custom kernel's cost comes from its NDRange as much as from --size: name both.
        std::string given = "--size " + config.size.label();
        if (config.kernel.custom) {
            const auto joined = [](const std::vector<std::string>& v) {
                std::string out;
                for (const std::string& x : v) out += (out.empty() ? "" : ",") + x;
                return shown(out, 60);
            };
            given = "--global " + joined(config.kernel.global) + " --local " + joined(config.kernel.local) + " (" +
                    std::to_string(parts.launch.total_groups()) + " work-groups of " + std::to_string(parts.launch.group_size()) +
                    " work-items) at " + given;
        }
        const bool fewer_groups = est.detail_groups.size() > 1 && est.detail_bytes * 4 > est.peak_bytes;
        std::string limits = " on the emulator needs " + est.text() + " (limits " + limits_text(options) + ")";
        // Each emulator thread holds its group's open requests: one thread may fit (row past 1,900^3).
        if (est.workers > 1 && est.peak_bytes > mem_limit) {
            const TraceEstimate one = estimate_trace(config, options, 1);
            if (within_limits(one, options))
                limits += "; with OCLGRIND_NUM_THREADS=1 (one emulator thread) it needs about " +
                          human_seconds(one.seconds) + " and " + human_bytes(one.peak_bytes);
        }
        // No option was typed: none is named, nor a remedy the window or the lesson cannot take
        // (their user has no switch for the emulator's race check; the GUI drops it itself when
        // that alone makes the trace fit: tasks::TraceJob::race_check_if_it_fits).
        if (!options.named_as.empty())
            throw InputError(options.named_as + limits + "; a smaller size fits" + (smaller.empty() ? "" : ", such as " + smaller) +
                             (fewer_groups ? ", or fewer work-groups in detail" : ""));
        throw InputError(given + ": tracing '" + config.kernel.name + "'" + limits + "; use a smaller --size" +
                         (smaller.empty() ? "" : " such as " + smaller) + (fewer_groups ? " or fewer --groups" : "") +
                         (options.checks ? ", or --no-checks" : ""));
    }

    // A kernel from a file (a trusted --open trace's, a --source) is traced in a child
    // process with a time and a memory limit: an endless loop or a crash costs one line.
    // The child hands back the cache model's requests too (--caches, the GUI's model).
    if (runs_contained(config.kernel)) {
        const ContainedTracer& tracer = contained_tracer();
        if (!tracer)
            throw InputError(contained_who(config) + " is traced only in a child process, and this program started none; nothing was traced");
        return tracer(config, options, est.seconds, mem_limit);
    }

    // The sampled block: the same kernel and arguments over a smaller NDRange.
    LaunchConfig launched = config;
    if (!options.named_as.empty()) launched.named_as = options.named_as;  // a refusal once built names it too
    if (options.sampled()) {
        launched.kernel.global.clear();
        for (int d = 0; d < parts.launch.dims; ++d) launched.kernel.global.push_back(std::to_string(parts.launch.global[d]));
    }

    const PluginHandle& plugin = open_plugin(options.plugin_path);
    ProgressRelay relay;
    relay.options = &options;
    abi::Config cfg;
    cfg.kernel = config.kernel.entry;
    for (const ResolvedArg& a : parts.launch.args)
        if (a.spec.kind == ArgSpec::Kind::Matrix) cfg.buffers.push_back({a.spec.name, 4});
    cfg.detail_groups = est.detail_groups;
    cfg.warp = options.geometry.warp;
    cfg.sector_bytes = options.geometry.sector_bytes;
    cfg.banks = options.geometry.banks;
    cfg.bank_bytes = options.geometry.bank_bytes;
    cfg.max_detail_touches = detail_record_limit(mem_limit);
    // In the child that traces a kernel from a file (contained_trace.h) the trace comes back
    // as a saved trace, read through the same budget as any file: its document takes about
    // 3.3 times what the detail's records count (200,000 barriers: 2.5 GiB for 0.75 GiB of
    // records), and the reader holds the document, the bytes and the Trace at once, so the detail stops
    // at a tenth and the round trip stays within 1 GiB.
    if (in_contained_child()) cfg.max_detail_touches = std::max<uint64_t>(1'000'000, cfg.max_detail_touches / 10);
    cfg.caches.enabled = options.cache_requests;
    cfg.caches.max_bytes = std::max<uint64_t>(64ull << 20, mem_limit / 4 * 3);
    cfg.cancel = &relay.cancel;
    cfg.progress = &ProgressRelay::call;
    cfg.progress_user = &relay;
    const TraceContext context = trace_context(config, parts.launch, options.checks);
    PartialRelay partial{&options, &context, {}};
    if (options.partial) {
        cfg.early_groups = options.early_groups;
        cfg.partial = &PartialRelay::call;
        cfg.partial_user = &partial;
        cfg.partial_interval_ms = options.partial_interval_ms;
    }

    abi::Result raw;
    RunResult run;
    {
        ScopedEnv env;
        env.set("OCLGRIND_PLUGINS", plugin.path);
        env.set("OCLGRIND_DATA_RACES", options.checks ? "1" : "0");
        env.set("OCLGRIND_UNINITIALIZED", options.uninitialized ? "1" : "0");
        // Oclgrind's messages reach the trace as diagnostics; its own log would repeat them.
        if (!env_text("OCLGRIND_LOG")) env.set("OCLGRIND_LOG", "/dev/null");
        set_emulator_plugin(plugin.path);
        Runner runner(emulator_device());
        if (!plugin.configure(&cfg))
            throw InputError("the trace plugin " + plugin.path + " was built for another version of tilescope");
        RunOptions ro;
        ro.cancelled = options.cancelled;
        const CancelWatch watch(relay);
        run = runner.run_once(launched, ro);
        if (!plugin.take(&raw))
            throw InputError("the emulator ran without the trace plugin (Oclgrind did not load " + plugin.path +
                             "; is OCLGRIND_PLUGINS overridden?)");
    }
    if (raw.cancelled || (options.cancelled && options.cancelled())) throw Cancelled();

    Trace trace = build_trace(std::move(raw), context);
    trace.seconds = run.seconds;  // the launch as the host timed it, like time_bare_emulation
    if (options.verify && config.kernel.check && !options.sampled()) {
        const CheckSpec& c = *config.kernel.check;
        trace.verification = verify_product(run.matrices.at(c.a), run.matrices.at(c.b), run.matrices.at(c.c),
                                            options.cancelled);
        trace.wrong_cells = find_wrong_cells(run.matrices.at(c.a), run.matrices.at(c.b), run.matrices.at(c.c),
                                             options.cancelled);
        trace.result = std::move(run.matrices.at(c.c));
    }
    return trace;
}

double time_bare_emulation(const LaunchConfig& config, const TraceOptions& options) {
    ScopedEnv env;
    env.unset("OCLGRIND_PLUGINS");
    env.set("OCLGRIND_DATA_RACES", options.checks ? "1" : "0");
    env.set("OCLGRIND_UNINITIALIZED", options.uninitialized ? "1" : "0");
    if (!env_text("OCLGRIND_LOG")) env.set("OCLGRIND_LOG", "/dev/null");
    Runner runner(emulator_device());
    return runner.run_once(config).seconds;
}

}  // namespace tilescope
