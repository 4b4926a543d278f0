#include "core/base/crash_report.h"

#include <execinfo.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

namespace tilescope::crash_report {
namespace {

std::atomic<bool> g_reporting{false};

void write_text(const char* s) {
    size_t left = std::strlen(s);
    while (left > 0) {
        const ssize_t n = write(STDERR_FILENO, s, left);
        if (n <= 0) return;
        s += n;
        left -= size_t(n);
    }
}

// Only async-signal-safe calls from here on, except backtrace(), whose library install()
// has loaded already (its first call allocates).
void on_fatal_signal(int sig) {
    if (!g_reporting.exchange(true)) {
        write_text("tilescope: crashed (");
        write_text(sigdescr_np(sig) ? sigdescr_np(sig) : "a fatal signal");
        write_text("). This is a bug in tilescope: please report it with the command you ran and the lines below.\n");
        void* frames[64];
        const int n = backtrace(frames, 64);
        backtrace_symbols_fd(frames, n, STDERR_FILENO);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

}  // namespace

void install() {
#ifdef __SANITIZE_ADDRESS__
    return;  // the sanitizers' own handler reports more (the build of scripts/test_sanitizers.sh)
#endif
    static bool installed = false;
    if (installed) return;
    installed = true;
    void* warm[1];
    backtrace(warm, 1);  // loads libgcc now, not inside the handler
    static char alt_stack[64 * 1024];
    stack_t ss{};
    ss.ss_sp = alt_stack;
    ss.ss_size = sizeof alt_stack;
    sigaltstack(&ss, nullptr);
    struct sigaction sa{};
    sa.sa_handler = on_fatal_signal;
    sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &sa, nullptr);
}

}  // namespace tilescope::crash_report
