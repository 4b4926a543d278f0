#include "ui/state/worker.h"

#include <chrono>

#include "core/base/errors.h"
#include "core/base/watchdog.h"

namespace tilescope::ui {

namespace {
double steady_seconds() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
}  // namespace

tasks::TaskProgress task_progress(JobStatus& job) {
    tasks::TaskProgress p;
    p.cancelled = [&job] { return job.cancel.load(); };
    p.message = [&job](const std::string& line) { job.set_message(line); };
    p.units = [&job](uint64_t done, uint64_t total) {
        job.units_done = done;
        job.units_total = total;
    };
    return p;
}

void ask_cancel(JobStatus& job) {
    if (!job.cancel.exchange(true)) job.cancel_asked_at = steady_seconds();
}

bool cancel_is_stuck(const JobStatus& job, double grace) {
    const double asked = job.cancel_asked_at.load();
    return job.cancel && !job.done && asked > 0 && steady_seconds() - asked > grace;
}

Worker::Worker() : thread_(loop, shared_, 0u) {}

Worker::~Worker() {
    {
        std::lock_guard<std::mutex> lock(shared_->mutex);
        shared_->stop = true;
        cancel_locked(*shared_);
    }
    shared_->wake.notify_all();
    thread_.join();  // threads left behind are detached; they hold `shared_` themselves
}

JobHandle Worker::submit(std::string label, Job job) {
    auto status = std::make_shared<JobStatus>();
    status->label = std::move(label);
    {
        std::lock_guard<std::mutex> lock(shared_->mutex);
        shared_->queue.emplace_back(status, std::move(job));
        shared_->busy = true;
    }
    shared_->wake.notify_one();
    return status;
}

void Worker::cancel_locked(Shared& s) {
    for (auto& q : s.queue) q.first->cancel = true;
    if (s.running) s.running->cancel = true;
}

void Worker::cancel_all() {
    std::lock_guard<std::mutex> lock(shared_->mutex);
    cancel_locked(*shared_);
}

bool Worker::cancel_and_wait(double seconds) {
    std::unique_lock<std::mutex> lock(shared_->mutex);
    cancel_locked(*shared_);
    return shared_->idle.wait_for(lock, std::chrono::duration<double>(seconds),
                                  [&] { return !shared_->running && shared_->queue.empty(); });
}

bool Worker::abandon_overdue() {
    Shared& s = *shared_;
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.running) return false;
    const std::optional<std::string> expired = watchdog::expired_on(s.running_thread);
    if (!expired) return false;
    JobStatus& job = *s.running;
    job.cancel = true;  // a trace that gets out of the call stops at its next check
    {
        std::lock_guard<std::mutex> job_lock(job.mutex_);
        job.error_ = *expired + " (left running in the background: OpenCL cannot stop it)";
    }
    job.done = true;
    s.running.reset();
    s.busy = !s.queue.empty();
    ++s.generation;
    thread_.detach();
    thread_ = std::thread(loop, shared_, s.generation);
    ++abandoned_;
    s.idle.notify_all();
    return true;
}

void Worker::loop(std::shared_ptr<Shared> shared, unsigned generation) {
    Shared& w = *shared;
    for (;;) {
        std::pair<JobHandle, Job> item;
        {
            std::unique_lock<std::mutex> lock(w.mutex);
            w.wake.wait(lock, [&] { return w.stop || !w.queue.empty() || w.generation != generation; });
            if (w.generation != generation || w.queue.empty()) return;  // stopping, or replaced
            item = std::move(w.queue.front());
            w.queue.pop_front();
            w.running = item.first;
            w.running_thread = std::this_thread::get_id();
        }
        JobStatus& s = *item.first;
        std::any result;
        std::string error;
        if (s.cancel) {
            error = "cancelled";
        } else {
            try {
                result = item.second(s);
            } catch (const Cancelled&) {
                error = "cancelled";
            } catch (const std::exception& e) {
                error = e.what();
            } catch (...) {
                error = "unknown failure";
            }
        }
        std::lock_guard<std::mutex> lock(w.mutex);
        if (w.generation != generation) return;  // left behind: the job was ended for us, a new thread serves the queue
        {
            std::lock_guard<std::mutex> job_lock(s.mutex_);
            s.result_ = std::move(result);
            s.error_ = std::move(error);
        }
        s.done = true;
        w.running.reset();
        w.busy = !w.queue.empty();
        w.idle.notify_all();
    }
}

}  // namespace tilescope::ui
