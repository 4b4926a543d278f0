#pragma once
// Taking in what the plugin reports: its raw result (trace_abi::Result, plain structs
// handed over once per launch) becomes a Trace, with what the app knows and the plugin
// cannot (matrix shapes and layouts, the FLOP count) from a TraceContext.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/kernel/launch_config.h"
#include "core/trace/trace.h"
#include "oclgrind_plugin/trace_abi.h"

namespace tilescope {

// What the app knows about the launch that the plugin cannot: matrix shapes and layouts.
struct TraceContext {
    std::string kernel, entry;
    bool custom = false;
    ProblemSize size;
    int tile = 0;
    std::map<std::string, int64_t> params;
    int dims = 1;
    double flops = 0;
    bool checks = true;
    std::vector<ResolvedArg> args;  // from ResolvedLaunch
};
TraceContext trace_context(const LaunchConfig& config, const ResolvedLaunch& launch, bool checks);

// Pure; unit-tested with hand-made plugin results (tests/test_trace_model.cpp).
Trace build_trace(trace_abi::Result&& raw, const TraceContext& context);

}  // namespace tilescope
