#pragma once
// Parameters for suites that say "every rung": taken from the catalog (kernels/ladder.json),
// never from a hand list, so a new rung is covered the moment it is added; and test names
// that print the rung's name, not the parameter's bytes.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "core/kernel/catalog.h"

namespace tilescope::test {

// The names of the catalog's rungs for which `keep` holds, in ladder order.
inline std::vector<std::string> rungs_where(const std::function<bool(const KernelSpec&)>& keep) {
    std::vector<std::string> names;
    for (const KernelSpec& k : ladder())
        if (keep(k)) names.push_back(k.name);
    return names;
}
inline std::vector<std::string> every_rung() {
    return rungs_where([](const KernelSpec&) { return true; });
}
// Rungs written in OpenCL C (not a library call): those the emulator can trace.
inline std::vector<std::string> opencl_rungs() {
    return rungs_where([](const KernelSpec& k) { return k.library.empty(); });
}

// A gtest name from any text: every character outside [A-Za-z0-9_] becomes '_'.
inline std::string test_name(std::string text) {
    for (char& c : text)
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) c = '_';
    return text.empty() ? "_" : text;
}

// INSTANTIATE_TEST_SUITE_P(..., ::testing::ValuesIn(every_rung()), RungName()): ".../tiled".
struct RungName {
    std::string operator()(const ::testing::TestParamInfo<std::string>& info) const { return test_name(info.param); }
};

}  // namespace tilescope::test
