#pragma once
// The one thread that does the GUI's long work: emulator traces, benchmarks, ceiling
// measurements. One thread on purpose: Oclgrind's runtime API is not thread safe, and
// every OpenCL call the GUI makes goes through here, so the UI thread never blocks.
#include <any>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "core/tasks/task.h"

namespace tilescope::ui {

// A job as the UI sees it: progress, a cancel flag, and its result or error when done.
struct JobStatus {
    std::string label;
    std::atomic<bool> cancel{false};
    std::atomic<bool> done{false};
    std::atomic<double> cancel_asked_at{0};  // steady-clock seconds of the user's Cancel (ask_cancel); 0: not asked
    std::atomic<uint64_t> units_done{0}, units_total{0};
    double started = 0;  // seconds, now_seconds() clock of the worker

    void set_message(std::string m) {
        std::lock_guard<std::mutex> lock(mutex_);
        message_ = std::move(m);
    }
    std::string message() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return message_;
    }
    // Valid once done: the error (empty on success) and the result the job stored.
    std::string error() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return error_;
    }
    template <class T>
    const T* result() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return std::any_cast<T>(&result_);
    }
    float fraction() const {
        const uint64_t t = units_total.load();
        return t ? float(double(units_done.load()) / double(t)) : 0.f;
    }

private:
    friend class Worker;
    mutable std::mutex mutex_;
    std::string message_, error_;
    std::any result_;
};
using JobHandle = std::shared_ptr<JobStatus>;

// A core task's progress and cancel (core/tasks/task.h) reported into this job: its
// cancel flag, its units done and total, its message. `job` must outlive the task.
tasks::TaskProgress task_progress(JobStatus& job);

// The user's Cancel: sets the flag and remembers when.
void ask_cancel(JobStatus& job);
// A Cancel the job has not honoured after `grace` seconds: it is inside an OpenCL call
// that cannot be interrupted (a kernel that never ends, a long build). kStuckCancelText
// says so to the user.
bool cancel_is_stuck(const JobStatus& job, double grace = 2.0);
inline constexpr const char* kStuckCancelText =
    "Still running: a kernel or a build on a device cannot be interrupted (OpenCL has no way to). "
    "It stops when it ends, or when tilescope closes.";

// The one thread may be replaced: a job blocked in a call past its deadline (a build past
// the build time limit, core/base/watchdog.h) is ended with the watchdog's line as its
// error and left behind on its thread, and a fresh thread takes the queue. OpenCL gives no
// way to stop such a call; the GUI stays live and says what happened instead of waiting.
class Worker {
public:
    // Returns the job's result (stored in the status) or throws; InputError and
    // Cancelled become the job's error text.
    using Job = std::function<std::any(JobStatus&)>;

    Worker();
    ~Worker();  // cancels what is queued and running, then joins
    JobHandle submit(std::string label, Job job);
    bool busy() const { return shared_->busy.load(); }
    void cancel_all();
    // Cancels everything and waits up to `seconds` for the thread to be idle. False when a
    // job is still running then: stuck in an OpenCL call that cannot be interrupted (a
    // kernel that never ends on a real device), which the destructor would wait for forever.
    bool cancel_and_wait(double seconds);
    // Called by the UI thread every frame: ends a running job whose thread is past a
    // watchdog Deadline (watchdog::expired_on) and starts a fresh thread. True when it did.
    bool abandon_overdue();
    // Threads left behind so far (each still inside a call that cannot be interrupted).
    int abandoned() const { return abandoned_.load(); }

private:
    // Shared with the threads, so a thread left behind can return long after the Worker
    // is gone and find what it needs to see that its job was taken from it.
    struct Shared {
        std::mutex mutex;
        std::condition_variable wake, idle;
        std::deque<std::pair<JobHandle, Job>> queue;
        JobHandle running;
        std::thread::id running_thread;
        std::atomic<bool> busy{false};
        bool stop = false;
        unsigned generation = 0;  // of the thread that serves the queue; the others were left behind
    };
    static void loop(std::shared_ptr<Shared> shared, unsigned generation);
    static void cancel_locked(Shared& s);  // every queued job and the running one; mutex held
    std::shared_ptr<Shared> shared_ = std::make_shared<Shared>();
    std::atomic<int> abandoned_{0};
    std::thread thread_;
};

}  // namespace tilescope::ui
