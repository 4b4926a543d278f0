// The plugin library's entry points: Oclgrind's (initializePlugins / releasePlugins, one
// TracePlugin per Oclgrind context) and the app's (tilescope_trace_configure /
// tilescope_trace_take, see trace_abi.h). Nothing else is exported.
// Depends on trace_plugin.h and trace_session.h; nothing in the plugin depends on it.
#include <map>
#include <mutex>

#include "trace_plugin.h"  // includes oclgrind/Context.h, which has no include guard
#include "trace_session.h"

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
