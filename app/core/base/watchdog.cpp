#include "core/base/watchdog.h"

#include "core/base/environment.h"
#include "core/base/errors.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

namespace tilescope::watchdog {
namespace {

using Clock = std::chrono::steady_clock;

struct ActiveDeadline {
    std::string what, advice;
    double seconds = 0;
    Clock::time_point end;
    std::thread::id thread;  // the one blocked in the call

    std::string expired_text() const {
        char limit[32];
        std::snprintf(limit, sizeof limit, "%g", seconds);
        return what + " took more than " + limit + " s; " + advice;
    }
};

struct State {
    std::mutex mutex;
    std::string program = "tilescope";
    std::multiset<std::string> temp_paths;
    std::map<unsigned long, ActiveDeadline> deadlines;
    unsigned long next_id = 1;
    bool enabled = false;
    bool reporting = false;  // the GUI: deadlines are reported, never acted on
    int stderr_fd = STDERR_FILENO;  // a copy taken at enable(): builds silence fd 2 for a while
};

State& state() {
    static State* s = new State;  // never destroyed: the thread may outlive static destructors
    return *s;
}

std::atomic<bool> g_cancel{false};
static_assert(std::atomic<bool>::is_always_lock_free, "request_cancel must be async-signal-safe");

[[noreturn]] void end_process(const std::string& line, int status) {
    State& s = state();
    {
        std::lock_guard<std::mutex> lock(s.mutex);
        std::error_code ec;
        for (const std::string& p : s.temp_paths) std::filesystem::remove_all(p, ec);
        // A fresh line on a terminal, where a progress line may be half written.
        const std::string text = (isatty(s.stderr_fd) ? "\n" : "") + s.program + ": " + line + "\n";
        if (::write(s.stderr_fd, text.data(), text.size()) < 0) {}  // nothing better to do
    }
    std::_Exit(status);
}

void watch() {
    std::optional<Clock::time_point> cancel_seen;
    for (;;) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        const auto now = Clock::now();
        if (g_cancel.load()) {
            if (!cancel_seen) cancel_seen = now;
            if (now - *cancel_seen > std::chrono::duration<double>(kCancelGraceSeconds))
                end_process("cancelled inside a device call that cannot be interrupted; nothing was written", 130);
        }
        std::string expired;
        {
            std::lock_guard<std::mutex> lock(state().mutex);
            for (const auto& [id, d] : state().deadlines)
                if (now >= d.end) {
                    expired = d.expired_text() + "; nothing was written";
                    break;
                }
        }
        if (!expired.empty()) end_process(expired, 2);
    }
}

}  // namespace

void enable(const std::string& program) {
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.program = program;
    if (s.enabled) return;
    s.enabled = true;
    if (const int fd = ::dup(STDERR_FILENO); fd >= 0) s.stderr_fd = fd;
    std::thread(watch).detach();
}

void enable_reporting() {
    std::lock_guard<std::mutex> lock(state().mutex);
    state().reporting = true;
}

std::optional<std::string> expired_on(std::thread::id thread) {
    std::lock_guard<std::mutex> lock(state().mutex);
    const auto now = Clock::now();
    for (const auto& [id, d] : state().deadlines)
        if (d.thread == thread && now >= d.end) return d.expired_text();
    return std::nullopt;
}

void request_cancel() { g_cancel.store(true); }
bool cancel_requested() { return g_cancel.load(); }

TempPath::TempPath(std::string path) : path_(std::move(path)) {
    std::lock_guard<std::mutex> lock(state().mutex);
    state().temp_paths.insert(path_);
}

TempPath::~TempPath() {
    std::lock_guard<std::mutex> lock(state().mutex);
    if (auto it = state().temp_paths.find(path_); it != state().temp_paths.end()) state().temp_paths.erase(it);
}

Deadline::Deadline(std::string what, double seconds, std::string advice) {
    if (seconds <= 0) return;
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.enabled && !s.reporting) return;
    id_ = s.next_id++;
    const auto end = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    s.deadlines[id_] = ActiveDeadline{std::move(what), std::move(advice), seconds, end, std::this_thread::get_id()};
}

Deadline::~Deadline() {
    if (!id_) return;
    std::lock_guard<std::mutex> lock(state().mutex);
    state().deadlines.erase(id_);
}

double build_limit_seconds() {
    // Checked at start-up (check_environment); a value refused there never gets here.
    try {
        if (const auto v = env_number("TILESCOPE_BUILD_TIMEOUT_S", 0.1, 3600, "seconds")) return *v;
    } catch (const InputError&) {
    }
    return 120;
}

}  // namespace tilescope::watchdog
