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

class Worker {
public:
    // Returns the job's result (stored in the status) or throws; InputError and
    // Cancelled become the job's error text.
    using Job = std::function<std::any(JobStatus&)>;

    Worker();
    ~Worker();  // cancels what is queued and running, then joins
    JobHandle submit(std::string label, Job job);
    bool busy() const { return busy_.load(); }
    void cancel_all();
    // Cancels everything and waits up to `seconds` for the thread to be idle. False when a
    // job is still running then: stuck in an OpenCL call that cannot be interrupted (a
    // kernel that never ends on a real device), which the destructor would wait for forever.
    bool cancel_and_wait(double seconds);

private:
    void loop();
    void cancel_locked();  // every queued job and the running one; mutex_ held
    std::mutex mutex_;
    std::condition_variable wake_, idle_;
    std::deque<std::pair<JobHandle, Job>> queue_;
    JobHandle running_;
    std::atomic<bool> busy_{false};
    bool stop_ = false;
    std::thread thread_;
};

}  // namespace tilescope::ui
