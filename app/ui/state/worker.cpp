#include "ui/state/worker.h"

#include <chrono>

#include "core/base/errors.h"

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

Worker::Worker() : thread_([this] { loop(); }) {}

Worker::~Worker() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
        cancel_locked();
    }
    wake_.notify_all();
    thread_.join();
}

JobHandle Worker::submit(std::string label, Job job) {
    auto status = std::make_shared<JobStatus>();
    status->label = std::move(label);
    {
        std::lock_guard<std::mutex> lock(mutex_);
        queue_.emplace_back(status, std::move(job));
        busy_ = true;
    }
    wake_.notify_one();
    return status;
}

void Worker::cancel_locked() {
    for (auto& q : queue_) q.first->cancel = true;
    if (running_) running_->cancel = true;
}

void Worker::cancel_all() {
    std::lock_guard<std::mutex> lock(mutex_);
    cancel_locked();
}

bool Worker::cancel_and_wait(double seconds) {
    std::unique_lock<std::mutex> lock(mutex_);
    cancel_locked();
    return idle_.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return !running_ && queue_.empty(); });
}

void Worker::loop() {
    for (;;) {
        std::pair<JobHandle, Job> item;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [&] { return stop_ || !queue_.empty(); });
            if (queue_.empty()) return;  // stopping
            item = std::move(queue_.front());
            queue_.pop_front();
            running_ = item.first;
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
        {
            std::lock_guard<std::mutex> lock(s.mutex_);
            s.result_ = std::move(result);
            s.error_ = std::move(error);
        }
        s.done = true;
        std::lock_guard<std::mutex> lock(mutex_);
        running_.reset();
        busy_ = !queue_.empty();
        idle_.notify_all();
    }
}

}  // namespace tilescope::ui
