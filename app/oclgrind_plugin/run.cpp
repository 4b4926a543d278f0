// A run's identity (its epoch) and each worker thread's state for it.
// Depends on run.h only.
#include "run.h"

namespace tilescope::trace_plugin {
namespace {

std::atomic<uint64_t> g_next_epoch{1};

// initial-exec: two words of static TLS spare a __tls_get_addr call on every access.
__attribute__((tls_model("initial-exec"))) thread_local ThreadState* t_state = nullptr;
__attribute__((tls_model("initial-exec"))) thread_local uint64_t t_epoch = 0;

}  // namespace

Run::Run() : epoch(g_next_epoch.fetch_add(1)) {}

ThreadState& Run::thread_state() {
    if (t_epoch == epoch) return *t_state;
    auto ts = std::make_unique<ThreadState>(epoch, slots.size(), config.banks);
    t_state = ts.get();
    t_epoch = epoch;
    std::lock_guard<std::mutex> lock(mutex);
    threads.push_back(std::move(ts));
    return *t_state;
}

}  // namespace tilescope::trace_plugin
