#pragma once
// OpenCL calls cannot be interrupted: building a huge kernel, or waiting for a kernel
// that never ends, blocks the calling thread inside the driver. A process that enables
// the watchdog (the CLI does) still keeps two promises:
//  - Ctrl-C ends it within about a second: after request_cancel() the work has
//    kCancelGraceSeconds to reach a cancellation point and throw Cancelled; if it does
//    not, the watchdog's thread removes the registered temporary files, prints one line
//    and ends the process with status 130. Outputs are written atomically at the end, so
//    no output file exists then.
//  - A Deadline around a blocking call (a build) ends the process with status 2 and one
//    line naming the limit when the call outlives it.
// Without enable() (tests) both are inert: cancel_requested() still answers.
// The GUI calls enable_reporting() instead: a Deadline that expires does not end the
// process; the GUI's worker asks expired_on() for its thread and leaves the call behind
// with the same line as its job's error (ui/state/worker.h), so the window stays live.
#include <optional>
#include <string>
#include <thread>

namespace tilescope::watchdog {

inline constexpr double kCancelGraceSeconds = 1.0;

// Starts the watchdog thread; `program` prefixes its messages ("tilescope bench").
void enable(const std::string& program);

// Deadlines are kept and reported by expired_on(), never acted on (the GUI).
void enable_reporting();
// "<what> took more than <limit> s; <advice>" for an expired Deadline made on `thread`.
std::optional<std::string> expired_on(std::thread::id thread);

// Async-signal-safe: may be called from a SIGINT handler.
void request_cancel();
bool cancel_requested();

// A file or directory removed if the watchdog ends the process while this is alive.
class TempPath {
public:
    explicit TempPath(std::string path);
    ~TempPath();
    TempPath(const TempPath&) = delete;
    TempPath& operator=(const TempPath&) = delete;

private:
    std::string path_;
};

// While alive, the process ends (status 2, "<what> took more than <limit> s; <advice>")
// once `seconds` have passed. seconds <= 0: no limit.
class Deadline {
public:
    Deadline(std::string what, double seconds, std::string advice);
    ~Deadline();
    Deadline(const Deadline&) = delete;
    Deadline& operator=(const Deadline&) = delete;

private:
    unsigned long id_ = 0;
};

// The build time limit in seconds: $TILESCOPE_BUILD_TIMEOUT_S, else 120.
double build_limit_seconds();

}  // namespace tilescope::watchdog
