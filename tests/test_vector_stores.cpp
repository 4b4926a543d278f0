// The plugin counts what a store writes (issue 12, a fix): LLVM's optimiser turns a store
// of a vector built from scalars into a store of an undefined vector followed by scalar
// stores; the first is not traffic. Every way of storing four floats moves 16 bytes per
// work-item, and the loads are untouched.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

namespace {

nlohmann::json trace(const std::string& entry) {
    const std::string cmd = std::string(TILESCOPE_BIN) + " trace --source " + TILESCOPE_TEST_DATA + "/vector_stores.cl --entry " +
                            entry + " --size 8x8x8 --global 16 --local 8 --arg C=matrix:MxN:out --arg A=matrix:MxN --json - 2>&1";
    std::string out;
    if (FILE* p = popen(cmd.c_str(), "r")) {
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
        pclose(p);
    }
    return nlohmann::json::parse(out, nullptr, false);
}

}  // namespace

TEST(VectorStores, EveryWayOfStoringFourFloatsMovesSixteenBytes) {
    for (const std::string entry : {"built", "with_vstore", "copied"}) {
        const nlohmann::json j = trace(entry);
        ASSERT_TRUE(j.is_object() && j.contains("totals")) << entry << ": " << j.dump();
        // 16 work-items x 16 bytes = C's 8x8 floats, each written once.
        EXPECT_EQ(j["totals"]["global_store_bytes"].get<uint64_t>(), 16u * 16u) << entry;
        EXPECT_EQ(j["totals"]["global_load_bytes"].get<uint64_t>(), 16u * 16u) << entry;
    }
}
