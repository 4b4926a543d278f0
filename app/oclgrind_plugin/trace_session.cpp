// The process-wide mailbox between the app and the plugin. Depends on trace_abi.h only:
// the plugin (trace_plugin.cpp) and the entry points (entry_points.cpp) call it, never
// the other way round.
#include "trace_session.h"

namespace tilescope::trace_plugin {

void Session::configure(const trace_abi::Config& config) {
    std::lock_guard<std::mutex> lock(mutex_);
    config_ = config;
    armed_ = true;
    has_result_ = false;
    result_ = trace_abi::Result{};
}

bool Session::claim(const std::string& kernel, trace_abi::Config& config) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!armed_ || (!config_.kernel.empty() && config_.kernel != kernel)) return false;
    armed_ = false;
    config = config_;
    return true;
}

void Session::publish(trace_abi::Result&& result) {
    std::lock_guard<std::mutex> lock(mutex_);
    result_ = std::move(result);
    has_result_ = true;
}

bool Session::take(trace_abi::Result& out) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!has_result_) return false;
    out = std::move(result_);
    result_ = trace_abi::Result{};
    has_result_ = false;
    return true;
}

Session& session() {
    static Session s;
    return s;
}

}  // namespace tilescope::trace_plugin
