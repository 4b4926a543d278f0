#pragma once
// Process-wide state of the plugin library: the configuration the app armed it with and
// the last finished trace, waiting to be taken. Oclgrind creates one plugin per context;
// they all share this. Depends on trace_abi.h only; trace_plugin.cpp and entry_points.cpp
// call it.
#include <mutex>
#include <string>

#include "trace_abi.h"

namespace tilescope::trace_plugin {

class Session {
public:
    void configure(const trace_abi::Config& config);
    // True (and disarms) when a launch of `kernel` is to be traced; copies the config.
    bool claim(const std::string& kernel, trace_abi::Config& config);
    void publish(trace_abi::Result&& result);
    bool take(trace_abi::Result& out);

private:
    std::mutex mutex_;
    bool armed_ = false;
    trace_abi::Config config_;
    bool has_result_ = false;
    trace_abi::Result result_;
};

Session& session();

}  // namespace tilescope::trace_plugin
