#include "core/device/contained_measure.h"
#include "core/base/environment.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/base/errors.h"
#include "core/base/untrusted_file.h"
#include "core/base/watchdog.h"
#include "core/device/contained_trial.h"
#include "core/device/opencl_env.h"
#include "core/device/runner.h"

namespace tilescope {
namespace {

using json = nlohmann::json;

bool g_child = false;

std::string signal_text(int sig) {
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    case SIGKILL: return "SIGKILL";
    case SIGXCPU: return "SIGXCPU, its CPU time ran out";
    case SIGXFSZ: return "SIGXFSZ, it wrote a file of more than 1 GiB";
    default: return "signal " + std::to_string(sig);
    }
}

std::string gib(uint64_t bytes) {
    std::ostringstream s;
    s.precision(3);
    s << double(bytes) / double(uint64_t(1) << 30) << " GiB";
    return s.str();
}

json args_json(const std::vector<ArgSpec>& args) {
    json out = json::array();
    for (const ArgSpec& a : args) out.push_back(to_string(a));
    return out;
}

std::vector<ArgSpec> args_from(const json& j) {
    std::vector<ArgSpec> out;
    for (const json& a : j) out.push_back(parse_arg_spec(a.get<std::string>()));
    return out;
}

}  // namespace

// What the child needs to rebuild the launch: everything that builds, binds and checks it.
nlohmann::json launch_request(const LaunchConfig& c) {
    const KernelSpec& k = c.kernel;
    json params = json::array();
    for (const TunableParam& p : k.params) params.push_back({p.name, p.default_value});
    json defines = json::array();
    for (const auto& [n, e] : k.defines) defines.push_back({n, e});
    json kj = {{"name", k.name},       {"title", k.title},   {"source", k.source},   {"source_name", k.source_name},
               {"prelude", k.prelude}, {"entry", k.entry},   {"global", k.global},   {"local", k.local},
               {"defines", defines},   {"args", args_json(k.args)}, {"params", params}, {"custom", k.custom},
               {"carried_by", k.carried_by}};
    if (k.check) kj["check"] = {k.check->c, k.check->a, k.check->b};
    if (k.then) kj["then"] = {{"entry", k.then->entry}, {"global", k.then->global}, {"local", k.then->local}, {"args", args_json(k.then->args)}};
    return {{"kernel", kj}, {"size", {c.size.M, c.size.N, c.size.K}}, {"tile", c.tile}, {"params", c.params}};
}

LaunchConfig launch_from_request(const nlohmann::json& r) {
    const json& kj = r.at("kernel");
    KernelSpec k;
    k.name = kj.at("name").get<std::string>();
    k.title = kj.at("title").get<std::string>();
    k.source = kj.at("source").get<std::string>();
    k.source_name = kj.at("source_name").get<std::string>();
    k.prelude = kj.at("prelude").get<std::string>();
    k.entry = kj.at("entry").get<std::string>();
    k.global = kj.at("global").get<std::vector<std::string>>();
    k.local = kj.at("local").get<std::vector<std::string>>();
    for (const json& d : kj.at("defines")) k.defines.emplace_back(d.at(0).get<std::string>(), d.at(1).get<std::string>());
    k.args = args_from(kj.at("args"));
    for (const json& p : kj.at("params")) k.params.push_back({p.at(0).get<std::string>(), p.at(1).get<int64_t>(), {}});
    k.custom = kj.at("custom").get<bool>();
    k.carried_by = kj.at("carried_by").get<std::string>();
    k.trusted = true;
    if (kj.contains("check")) k.check = CheckSpec{kj["check"].at(0), kj["check"].at(1), kj["check"].at(2)};
    if (kj.contains("then")) {
        FollowUpKernel t;
        t.entry = kj["then"].at("entry").get<std::string>();
        t.global = kj["then"].at("global").get<std::vector<std::string>>();
        t.local = kj["then"].at("local").get<std::vector<std::string>>();
        t.args = args_from(kj["then"].at("args"));
        k.then = t;
    }
    LaunchConfig c{k, ProblemSize{r.at("size").at(0), r.at("size").at(1), r.at("size").at(2)}, r.at("tile").get<int>()};
    c.params = r.at("params").get<std::map<std::string, int64_t>>();
    c.params_source = "given";
    return c;
}

namespace {

json request_json(const LaunchConfig& c, const DeviceInfo& device, const RunOptions& o) {
    json r = launch_request(c);
    r["device"] = device.label();
    r["reps"] = o.reps;
    r["warmup"] = o.warmup;
    return r;
}

// The first line of what the child said on stderr, without its program prefix.
std::string first_line(const std::string& text) {
    std::string line = text.substr(0, text.find('\n'));
    for (const std::string prefix : {"tilescope __measure: ", "tilescope __trace: "})
        if (line.rfind(prefix, 0) == 0) line = line.substr(prefix.size());
    return shown(line, 400);
}

std::string read_small(int fd, uint64_t cap = 1u << 20) {
    std::string out;
    char buf[65536];
    lseek(fd, 0, SEEK_SET);
    for (ssize_t n; out.size() < cap && (n = read(fd, buf, sizeof buf)) > 0;) out.append(buf, size_t(n));
    return out;
}

// A temporary file, removed when this goes.
struct TempFile {
    std::string path;
    int fd = -1;
    TempFile() {
        path = temp_template("tilescope-measure");
        fd = mkstemp(path.data());
        if (fd < 0) throw InputError("cannot make a temporary file in " + path.substr(0, path.rfind('/')) + ": " + std::strerror(errno));
    }
    ~TempFile() {
        if (fd >= 0) close(fd);
        unlink(path.c_str());
    }
};

}  // namespace

ContainedLimits default_contained_limits(const ResolvedLaunch& launch, const DeviceInfo& device) {
    ContainedLimits l;
    l.wall_s = 2 * watchdog::build_limit_seconds() + 120;
    if (const double asked = child_wall_limit_override(); asked > 0) l.wall_s = asked;
    // On a CPU device only: a GPU driver maps far more address space than it uses. Not in a
    // build with AddressSanitizer either, whose shadow memory is terabytes of address space.
#if defined(__SANITIZE_ADDRESS__)
    l.memory_bytes = 0;
#else
    l.memory_bytes = device.is_cpu ? (uint64_t(4) << 30) + 3 * launch.buffer_bytes : 0;
#endif
    return l;
}

std::string untrusted_kernel_refusal(const LaunchConfig& c, const std::string& how_to_trust) {
    return c.kernel.carried_by + " carries its own kernel '" + shown(c.kernel.name, 60) + "' (OpenCL C from the file, entry " +
           shown(c.kernel.entry, 60) + "); nothing of it is built or run unless you trust it: " + how_to_trust;
}

void check_trusted(const LaunchConfig& c) {
    if (c.kernel.carried_by.empty() || c.kernel.trusted) return;
    throw InputError(untrusted_kernel_refusal(c, "--trust-source runs it, in a child process with a time and a memory limit"));
}

bool in_contained_child() { return g_child; }

bool runs_contained(const KernelSpec& k) {
    if (k.carried_by.empty() || g_child) return false;
    const bool typed = k.carried_by.rfind("--source '", 0) == 0;
    return !(typed && trial_program().empty());
}
void mark_contained_child() { g_child = true; }

double child_wall_limit_override() {
    return env_number("TILESCOPE_CHILD_TIMEOUT_S", 0.1, 86400, "seconds").value_or(0);
}

std::string run_in_child(const std::vector<std::string>& child_args, const ContainedLimits& limits,
                         const std::function<bool()>& cancelled, const std::string& who, const std::string& where,
                         const std::string& nothing_done, uint64_t output_cap) {
    const std::string program = trial_program();
    if (program.empty()) throw InputError(who + ": no program to run it in a child process; " + nothing_done);
    TempFile out, err;
    std::vector<std::string> args = {program};
    args.insert(args.end(), child_args.begin(), child_args.end());
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    // As for the trial: a sanitizer build's child lets a signal end it.
    std::vector<std::string> env = child_environment("allocator_may_return_null=1");
    std::vector<char*> envp;
    for (std::string& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);

    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const rlim_t cpu_s = rlim_t(limits.wall_s * cores) + 10;  // a backstop: the wall clock below ends it first
    // Any file it writes, its output included: room for the driver's kernel cache (a slow
    // build's binary is over 1 MiB), never a disk filled by a kernel's printf loop. What it
    // says is read back up to output_cap.
    const rlim_t out_bytes = rlim_t(std::max<uint64_t>(output_cap, uint64_t(1) << 30));
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0) throw InputError(who + ": no child process could be started (" + std::strerror(errno) + "); " + nothing_done);
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(3);
        setpgid(0, 0);  // its own group: a Ctrl-C in the terminal is the parent's to handle
        const int null = open("/dev/null", O_RDONLY);
        if (null >= 0) dup2(null, 0);
        dup2(out.fd, 1);
        dup2(err.fd, 2);
        rlimit r{};
        r.rlim_cur = r.rlim_max = 0;
        setrlimit(RLIMIT_CORE, &r);  // a crash leaves no core file behind
        r.rlim_cur = r.rlim_max = cpu_s;
        setrlimit(RLIMIT_CPU, &r);
        r.rlim_cur = r.rlim_max = out_bytes;
        setrlimit(RLIMIT_FSIZE, &r);
        if (limits.memory_bytes) {
            r.rlim_cur = r.rlim_max = limits.memory_bytes;
            setrlimit(RLIMIT_AS, &r);
        }
        execve(argv[0], argv.data(), envp.data());
        _exit(127);
    }
    const auto t0 = std::chrono::steady_clock::now();
    int status = 0;
    bool timed_out = false;
    for (;;) {
        const pid_t got = waitpid(pid, &status, WNOHANG);
        if (got == pid) break;
        if (got < 0) throw InputError(who + ": its child process was lost; " + nothing_done);
        if (watchdog::cancel_requested() || (cancelled && cancelled())) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            throw Cancelled();
        }
        if (std::chrono::steady_clock::now() - t0 > std::chrono::duration<double>(limits.wall_s)) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            timed_out = true;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (timed_out) {
        std::ostringstream limit;
        limit << limits.wall_s;
        throw InputError(who + " did not end within " + limit.str() + " s" + where + " and was stopped; " + nothing_done);
    }
    if (WIFSIGNALED(status))
        throw InputError(who + " crashed (" + signal_text(WTERMSIG(status)) + ")" + where + "; " + nothing_done);
    const std::string said = read_small(err.fd);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 4)
        throw InputError(who + " ran out of its " + gib(limits.memory_bytes) + " of memory" + where + "; " + nothing_done);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        const std::string line = first_line(said);
        throw InputError(who + where + ": " + (line.empty() ? "ended with status " + std::to_string(WEXITSTATUS(status)) : line) +
                         "; " + nothing_done);
    }
    return read_small(out.fd, output_cap);
}

std::string contained_who(const LaunchConfig& config) {
    return "the kernel '" + shown(config.kernel.name, 60) + "' from " +
           (config.kernel.carried_by.empty() ? std::string("a file") : config.kernel.carried_by);
}

Measurement measure_contained(const LaunchConfig& config, const DeviceInfo& device, const RunOptions& options,
                              const ContainedLimits& asked) {
    check_trusted(config);
    const ResolvedLaunch launch = resolve(config);
    ContainedLimits limits = default_contained_limits(launch, device);
    if (asked.wall_s > 0) limits.wall_s = asked.wall_s;
    if (asked.memory_bytes > 0) limits.memory_bytes = asked.memory_bytes;
    const std::string who = contained_who(config);
    const std::string where = " on " + device.label() + " in a child process";

    TempFile request;
    const std::string body = request_json(config, device, options).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (write(request.fd, body.data(), body.size()) != ssize_t(body.size()))
        throw InputError("cannot write a temporary file " + request.path + ": " + std::strerror(errno));
    const std::string report =
        run_in_child({"__measure", request.path}, limits, options.cancelled, who, where, "nothing was measured", 1u << 20);
    // What it measured: the runs' times and the verification; the rest is this side's.
    json r;
    try {
        r = json::parse(report);
    } catch (const std::exception&) {
        throw InputError(who + where + ": its report could not be read; nothing was measured");
    }
    Measurement m;
    m.kernel = config.kernel.name;
    m.title = config.kernel.title;
    m.device = device.label();
    m.size = config.size;
    m.tile = config.tile;
    m.tile_used = config.kernel.uses_tile();
    m.launch = launch;
    m.params_source = config.params_source;
    m.tuning_note = config.tuning_note;
    m.reps = options.reps;
    try {
        m.times_s = r.at("times_s").get<std::vector<double>>();
        m.median_s = r.at("median_s").get<double>();
        m.min_s = r.at("min_s").get<double>();
        m.gflops = r.at("gflops").get<double>();
        m.checked = r.at("checked").get<bool>();
        const json& v = r.at("verification");
        m.verification.verified = v.at("verified").get<bool>();
        m.verification.max_rel_error = v.at("max_rel_error").get<double>();
        m.verification.tolerance = v.at("tolerance").get<double>();
        m.verification.checked_elements = v.at("checked_elements").get<int64_t>();
        m.verification.total_elements = v.at("total_elements").get<int64_t>();
        m.verification.first_bad_row = v.at("first_bad").at(0).get<int64_t>();
        m.verification.first_bad_col = v.at("first_bad").at(1).get<int64_t>();
    } catch (const json::exception&) {
        throw InputError(who + where + ": its report could not be read; nothing was measured");
    }
    return m;
}

int measure_child_main(const std::vector<std::string>& args) {
    g_child = true;
    try {
        if (args.size() != 1) throw InputError("REQUEST_FILE expected");
        const std::string text = read_untrusted_file(args[0], uint64_t(16) << 20, "request");
        const json r = json::parse(text);
        const LaunchConfig c = launch_from_request(r);
        const std::string label = r.at("device").get<std::string>();
        const DeviceInfo* device = nullptr;
        for (const DeviceInfo& d : all_devices())
            if (d.label() == label) device = &d;
        if (!device) throw InputError("no device '" + label + "' here");
        RunOptions o;
        o.reps = r.at("reps").get<int>();
        o.warmup = r.at("warmup").get<int>();
        Runner runner(*device);
        const Measurement m = runner.measure(c, o);
        const Verification& v = m.verification;
        const json out = {{"times_s", m.times_s},
                          {"median_s", m.median_s},
                          {"min_s", m.min_s},
                          {"gflops", m.gflops},
                          {"checked", m.checked},
                          {"verification",
                           {{"verified", v.verified},
                            {"max_rel_error", v.max_rel_error},
                            {"tolerance", v.tolerance},
                            {"checked_elements", v.checked_elements},
                            {"total_elements", v.total_elements},
                            {"first_bad", {v.first_bad_row, v.first_bad_col}}}}};
        std::cout << out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
        return 0;
    } catch (const InputError& e) {
        std::cerr << "tilescope __measure: " << shown(e.what(), 400) << "\n";
        return 2;
    } catch (const std::bad_alloc&) {
        std::cerr << "tilescope __measure: out of memory\n";
        return 4;
    } catch (const std::exception& e) {
        std::cerr << "tilescope __measure: " << shown(e.what(), 400) << "\n";
        return 3;
    }
}

}  // namespace tilescope
