#include "core/device/contained_trial.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

#include "core/base/errors.h"
#include "core/base/watchdog.h"
#include "core/device/opencl_env.h"
#include "core/device/runner.h"
#include "core/kernel/catalog.h"

namespace tilescope {
namespace {

std::mutex g_mutex;
std::string g_program;                       // guarded by g_mutex
std::map<std::string, std::string> g_tried;  // point -> "" (ran) or the refusal; guarded by g_mutex

std::string signal_name(int sig) {
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    case SIGKILL: return "SIGKILL";
    default: return "signal " + std::to_string(sig);
    }
}

// The stack a thread gets when its creator asks for nothing (as PoCL's workers do).
std::string default_thread_stack_text() {
    pthread_attr_t attr;
    size_t bytes = 0;
    if (pthread_getattr_default_np(&attr) == 0) {
        pthread_attr_getstacksize(&attr, &bytes);
        pthread_attr_destroy(&attr);
    }
    if (bytes == 0) return "limited";
    return std::to_string(bytes >> 20) + " MiB";
}

std::string point_text(const LaunchConfig& c) {
    const std::string params = params_text(c.kernel, c.params);
    return "kernel '" + c.kernel.name + "' at TS=" + std::to_string(c.tile) + (params.empty() ? "" : " " + params);
}

}  // namespace

void set_trial_program(std::string path) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_program = std::move(path);
}

std::string trial_program() {
    std::lock_guard<std::mutex> lock(g_mutex);
    return g_program;
}

bool needs_contained_trial(const LaunchConfig& config, const DeviceInfo& device) {
    const KernelSpec& k = config.kernel;
    if (!device.is_cpu || device.is_emulator || k.custom || !k.library.empty()) return false;
    const KernelSpec* known = find_kernel(k.name);
    if (!known || known->source != k.source || known->prelude != k.prelude) return false;  // edited: not what the child builds
    // The rung's own candidates (ladder.json "tiles" and each parameter's "values": what
    // `tune` sweeps and the tests run) are known to run; anything else is tried. The catalog's
    // lists, not the config's: a config read from a file carries lists of its own.
    bool listed = config.tile == known->default_tile ||
                  std::find(known->tiles.begin(), known->tiles.end(), config.tile) != known->tiles.end();
    for (const TunableParam& p : known->params)
        if (const auto it = config.params.find(p.name); it != config.params.end() && it->second != p.default_value &&
                                                         std::find(p.values.begin(), p.values.end(), it->second) == p.values.end())
            listed = false;
    return !listed;
}

void run_contained_trial(const LaunchConfig& config, const DeviceInfo& device, const std::function<bool()>& cancelled) {
    if (!needs_contained_trial(config, device)) return;
    const ResolvedLaunch launch = resolve(config);  // throws first for what cannot even be resolved
    std::string program;
    std::vector<std::string> args = {"__trial", device.label(), config.kernel.name, std::to_string(config.size.M),
                                     std::to_string(config.size.N), std::to_string(config.size.K),
                                     std::to_string(config.tile)};
    for (const auto& [name, value] : launch.params) args.push_back(name + "=" + std::to_string(value));
    std::string key;
    for (const std::string& a : args) key += a + '\n';
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        program = g_program;
        if (program.empty()) return;
        if (const auto it = g_tried.find(key); it != g_tried.end()) {
            if (!it->second.empty()) throw InputError(it->second);
            return;
        }
    }

    std::vector<char*> argv;
    argv.push_back(program.data());
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<std::string> env = child_environment();
    std::vector<char*> envp;
    for (std::string& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0) return;  // no child to try it in: run it as before
    if (pid == 0) {
        // The child dies with us (Ctrl-C's watchdog, a closed window) and says nothing: a
        // refusal is said again by the parent's own checks.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(3);
        const int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, 0);
            dup2(null, 1);
            dup2(null, 2);
        }
        execve(argv[0], argv.data(), envp.data());
        _exit(127);
    }
    // Two builds (the driver's program and its work-group function) and one small launch.
    const double limit_s = 2 * watchdog::build_limit_seconds() + 60;
    const auto t0 = std::chrono::steady_clock::now();
    int status = 0;
    for (;;) {
        const pid_t got = waitpid(pid, &status, WNOHANG);
        if (got == pid) break;
        if (got < 0) return;
        if (watchdog::cancel_requested() || (cancelled && cancelled())) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            throw Cancelled();
        }
        if (std::chrono::steady_clock::now() - t0 > std::chrono::duration<double>(limit_s)) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            status = -1;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    std::string refusal;
    if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 2 &&
        WEXITSTATUS(status) != 127) {
        // Neither ran nor refused (an internal error, a sanitizer's report): not run here either.
        refusal = point_text(config) + " on " + device.name + ": its trial in a child process ended with status " +
                  std::to_string(WEXITSTATUS(status)) + "; accepted: a point that builds and runs (try the defaults)";
    } else if (status == -1) {
        refusal = point_text(config) + " on " + device.label() + ": a trial run in a child process did not end within " +
                  std::to_string(int(limit_s)) + " s; accepted: a point that builds and runs one work-group in time";
    } else if (WIFSIGNALED(status)) {
        refusal = point_text(config) + " crashed " + device.name + " in a trial in a child process (" +
                  signal_name(WTERMSIG(status)) + "; a CPU driver runs a work-group on one thread, whose " +
                  default_thread_stack_text() + " stack holds the private values of all its " +
                  std::to_string(launch.group_size()) +
                  " work-items); accepted: fewer work-items per group or values per work-item (a smaller TS, or the defaults)";
    }
    std::lock_guard<std::mutex> lock(g_mutex);
    g_tried[key] = refusal;
    if (!refusal.empty()) throw InputError(refusal);
}

std::vector<std::string> child_environment(const std::string& extra_asan) {
    std::vector<std::string> env;
    std::string asan = "ASAN_OPTIONS=";
    for (char** e = environ; *e; ++e) {
        if (std::strncmp(*e, "ASAN_OPTIONS=", 13) == 0) asan = std::string(*e) + ":";
        else env.emplace_back(*e);
    }
    env.push_back(asan + "handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0:handle_abort=0" +
                  (extra_asan.empty() ? "" : ":" + extra_asan));
    return env;
}

int trial_main(const std::vector<std::string>& args) {
    try {
        if (args.size() < 6) throw InputError("__trial: DEVICE KERNEL M N K TILE [NAME=V]... expected");
        const DeviceInfo* device = nullptr;
        for (const DeviceInfo& d : all_devices())
            if (d.label() == args[0]) device = &d;
        const KernelSpec* kernel = find_kernel(args[1]);
        if (!device || !kernel) throw InputError("__trial: no such device or kernel");
        LaunchConfig c{*kernel, ProblemSize{std::stoll(args[2]), std::stoll(args[3]), std::stoll(args[4])}, std::stoi(args[5])};
        c.params_source = "given";
        for (size_t i = 6; i < args.size(); ++i) c.params.insert(parse_param(*kernel, args[i]));
        // One tile of C is enough to run one whole work-group; the size asked for when a
        // rung cannot take that one.
        LaunchConfig small = c;
        small.size = ProblemSize{c.tile, c.tile, c.tile};
        try {
            resolve(small);
            c = small;
        } catch (const InputError&) {
        }
        Runner runner(*device);
        runner.run_once(c);
        return 0;
    } catch (const InputError& e) {
        std::cerr << "tilescope __trial: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "tilescope __trial: " << e.what() << "\n";
        return 3;
    }
}

}  // namespace tilescope
