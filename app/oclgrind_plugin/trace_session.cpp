#include "trace_session.h"

#include <map>

#include "trace_plugin.h"  // includes oclgrind/Context.h, which has no include guard

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

// ---- Entry points: Oclgrind's (initializePlugins/releasePlugins) and the app's. ----

namespace {
std::mutex g_plugins_mutex;
std::map<oclgrind::Context*, tilescope::trace_plugin::TracePlugin*> g_plugins;
}  // namespace

#define TILESCOPE_EXPORT extern "C" __attribute__((visibility("default")))

TILESCOPE_EXPORT void initializePlugins(oclgrind::Context* context) {
    auto* plugin = new tilescope::trace_plugin::TracePlugin(context);
    {
        std::lock_guard<std::mutex> lock(g_plugins_mutex);
        g_plugins[context] = plugin;
    }
    context->registerPlugin(plugin);
}

TILESCOPE_EXPORT void releasePlugins(oclgrind::Context* context) {
    tilescope::trace_plugin::TracePlugin* plugin = nullptr;
    {
        std::lock_guard<std::mutex> lock(g_plugins_mutex);
        auto it = g_plugins.find(context);
        if (it == g_plugins.end()) return;
        plugin = it->second;
        g_plugins.erase(it);
    }
    context->unregisterPlugin(plugin);
    delete plugin;
}

TILESCOPE_EXPORT bool tilescope_trace_configure(const tilescope::trace_abi::Config* config) {
    if (!config || config->version != tilescope::trace_abi::kVersion) return false;
    tilescope::trace_plugin::session().configure(*config);
    return true;
}

TILESCOPE_EXPORT bool tilescope_trace_take(tilescope::trace_abi::Result* out) {
    if (!out) return false;
    return tilescope::trace_plugin::session().take(*out);
}
