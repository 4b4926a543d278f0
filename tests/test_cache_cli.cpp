// `tilescope trace --caches` as a user runs it: the JSON's names (issue 11's contract),
// the table, bad values (exit 2, one line naming the option, nothing written), and
// `devices` showing what OpenCL reports beside the profile.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace {

struct Result {
    int status = -1;
    std::string out, err;
};

Result run(const std::string& args) {
    const fs::path dir = fs::temp_directory_path() / ("tilescope-caches-cli-" + std::to_string(getpid()));
    fs::create_directories(dir);
    const std::string out = (dir / "out").string(), err = (dir / "err").string();
    const int raw = std::system((std::string(TILESCOPE_BIN) + " " + args + " >" + out + " 2>" + err).c_str());
    Result r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    auto slurp = [](const std::string& p) { std::ifstream in(p); std::stringstream s; s << in.rdbuf(); return s.str(); };
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

std::set<std::string> keys(const nlohmann::json& j) {
    std::set<std::string> k;
    for (const auto& [key, value] : j.items()) k.insert(key);
    return k;
}

}  // namespace

TEST(CacheCli, JsonCarriesTheContractsNamesAndConsistentSums) {
    const Result r = run("trace --kernel tiled --size 37x29x45 --tile 8 --no-checks --caches teaching --l2 4 --json -");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_TRUE(j.contains("caches"));
    const auto& c = j["caches"];
    EXPECT_EQ(keys(c), (std::set<std::string>{"profile", "params", "totals", "bounds", "buffers", "lines"}));
    EXPECT_EQ(keys(c["params"]), (std::set<std::string>{"l1_kb", "l2_kb", "line", "sector", "ways", "cus", "resident",
                                                          "inflight_rounds", "merge_clusters", "hashed_sets"}));
    const std::set<std::string> counts = {"l1_sectors",      "l1_hit_sectors",  "l2_sectors",
                                          "l2_hit_sectors", "l2_merged_sectors", "dram_read_bytes", "dram_write_bytes"};
    EXPECT_EQ(keys(c["totals"]), counts);
    EXPECT_EQ(keys(c["bounds"]), (std::set<std::string>{"distinct_sectors", "group_distinct_sectors"}));
    EXPECT_EQ(c["profile"], "teaching + overrides");
    EXPECT_EQ(c["params"]["l2_kb"], 4);
    for (const char* name : {"A", "B", "C"}) {
        ASSERT_TRUE(c["buffers"].contains(name)) << name;
        EXPECT_EQ(keys(c["buffers"][name]), counts) << name;
    }
    for (const std::string& k : counts) {
        uint64_t by_buffer = 0, by_line = 0;
        for (const auto& [name, b] : c["buffers"].items()) by_buffer += b[k].get<uint64_t>();
        for (const auto& l : c["lines"]) by_line += l[k].get<uint64_t>();
        EXPECT_EQ(by_buffer, c["totals"][k].get<uint64_t>()) << k;
        EXPECT_EQ(by_line, c["totals"][k].get<uint64_t>()) << k;
    }
    // Every load sector the trace counted reaches L1; the L1 sees what coalescing counted.
    EXPECT_LE(c["totals"]["l1_sectors"].get<uint64_t>(), j["coalescing"]["sectors"].get<uint64_t>());
    EXPECT_GE(c["totals"]["dram_read_bytes"].get<uint64_t>(), c["bounds"]["distinct_sectors"].get<uint64_t>() * 32);
}

TEST(CacheCli, TableFollowsTheTracedCountsAndSaysModelled) {
    const Result r = run("trace --kernel naive --size 32 --no-checks --cache-profile teaching --l1 0");
    ASSERT_EQ(r.status, 0) << r.err;
    const size_t traced = r.out.find("coalescing:"), table = r.out.find("caches (MODELLED");
    ASSERT_NE(table, std::string::npos) << r.out;
    EXPECT_LT(traced, table);
    EXPECT_NE(r.out.find("L1 none"), std::string::npos);
}

TEST(CacheCli, BadValuesExitTwoWithOneLineAndWriteNothing) {
    const fs::path json = fs::temp_directory_path() / ("tilescope-caches-bad-" + std::to_string(getpid()) + ".json");
    for (const std::string& bad : {"--caches nosuch", "--cache-profile nosuch", "--l1 -1", "--l1 1", "--l2 0",
                                   "--ways 0", "--cus x", "--resident 0", "--line 48", "--caches cpu --sector 128"}) {
        const Result r = run("trace --size 16 --json " + json.string() + " " + bad);
        EXPECT_EQ(r.status, 2) << bad;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << bad << ": " << r.err;
        const std::string option = bad.substr(0, bad.find(' ', 2));
        EXPECT_NE(r.err.find(option == "--caches" && bad.find("sector") != std::string::npos ? "--sector" : option),
                  std::string::npos) << bad << ": " << r.err;
        EXPECT_FALSE(fs::exists(json)) << bad;
    }
}

TEST(CacheCli, DevicesShowsTheCpuProfileBesideWhatOpenClReports) {
    const Result r = run("devices --json");
    ASSERT_EQ(r.status, 0) << r.err;
    bool cpu = false;
    for (const auto& d : nlohmann::json::parse(r.out))
        if (d["type"] == "CPU" && !d["emulator"].get<bool>()) {
            cpu = true;
            EXPECT_EQ(d.value("cache_profile", ""), "cpu");
            // Shown only where the driver reports it (PoCL here reports nothing without sysfs).
            if (d.contains("global_mem_cache_bytes")) EXPECT_TRUE(d.contains("global_mem_cacheline_bytes"));
        }
    EXPECT_TRUE(cpu);
    const Result text = run("devices");
    EXPECT_NE(text.out.find("cache model profile cpu: L1"), std::string::npos) << text.out;
}
