#pragma once
// The plugin's traced global requests, turned into the cache model's input: every
// buffer placed in one flat address space as the device would, sectors numbered in it.
#include "core/caches/cache_model.h"
#include "oclgrind_plugin/trace_abi.h"

namespace tilescope {

CacheRequestStream cache_stream(const trace_abi::Result& raw);

}  // namespace tilescope
