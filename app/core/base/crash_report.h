#pragma once
// A crash says so on standard error before the process dies: one line naming the signal
// and asking for a report, then the call stack as glibc's backtrace() sees it (addresses
// in the binary, which `addr2line -e tilescope -f -C` turns into functions and lines).
// The signal is then raised again with its default action, so the exit status, a core
// dump and anything that waits for the process see the crash as it was.
namespace tilescope::crash_report {

// Installs the handler for SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT (on a stack of its
// own, so a stack overflow is reported too). Idempotent.
void install();

}  // namespace tilescope::crash_report
