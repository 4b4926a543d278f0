// `tilescope trace --caches` as a user runs it: the JSON's names (issue 11's contract),
// the table, bad values (exit 2, one line naming the option, nothing written), and
// `devices` showing what OpenCL reports beside the profile.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
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
                                                          "inflight_rounds", "merge_clusters", "hashed_sets", "drift",
                                                          "age_pace", "l2_halves", "l2_copy_ways", "deal"}));
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

namespace {

std::string slurp_binary(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The hand-out's embedded data (the page escapes only <, > and &, as \u sequences).
nlohmann::json handout_json(const std::string& page) {
    const std::string open = "<script id=\"tilescope-data\" type=\"application/json\">";
    const size_t a = page.find(open);
    if (a == std::string::npos) return nullptr;
    const size_t b = page.find("</script>", a);
    return nlohmann::json::parse(page.substr(a + open.size(), b - a - open.size()));
}

// A .tstrace rewritten with `edit` applied to its content and a correct checksum: what
// a stranger can always hand over (the checksum catches damage, not intent).
std::string edited_trace_file(const std::string& bytes, const std::function<void(nlohmann::json&)>& edit) {
    const size_t body_at = bytes.find('\n', bytes.find('\n') + 1) + 1;
    nlohmann::json j = nlohmann::json::from_cbor(bytes.substr(body_at));
    edit(j);
    const std::vector<uint8_t> cbor = nlohmann::json::to_cbor(j);
    const std::string body(cbor.begin(), cbor.end());
    uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a, 64 bits, as version 2 files carry
    for (const char c : body) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    return "tilescope trace file, version 2\nfnv1a64 " + std::string(hex) + " " + std::to_string(body.size()) + "\n" + body;
}

}  // namespace

// Issue 24, item 4: `trace --caches h200 --save` keeps the report and its profile, and the
// hand-out made from the file shows the same figures with no OpenCL.
TEST(CacheCli, ASavedTraceCarriesTheReportToTheHandout) {
    const fs::path dir = fs::temp_directory_path() / ("tilescope-caches-save-" + std::to_string(getpid()));
    fs::create_directories(dir);
    const fs::path saved = dir / "t.tstrace", json = dir / "t.json";
    const Result r = run("trace --kernel tiled --size 48x32x40 --tile 8 --no-checks --caches h200 --json " + json.string() +
                         " --save " + saved.string());
    ASSERT_EQ(r.status, 0) << r.err;
    std::ifstream jin(json);
    const nlohmann::json traced = nlohmann::json::parse(jin)["caches"];
    ASSERT_EQ(traced["profile"], "h200");
    ASSERT_GT(traced["totals"]["l2_sectors"].get<uint64_t>(), 0u);
    const Result page = run("export --html - " + saved.string());
    ASSERT_EQ(page.status, 0) << page.err;
    const nlohmann::json shown = handout_json(page.out);
    ASSERT_TRUE(shown.is_object());
    ASSERT_TRUE(shown["caches"].is_object());
    EXPECT_EQ(shown["caches"], traced);  // profile, params, totals, bounds, per buffer and per line
    EXPECT_NE(page.out.find("id=\"caches\""), std::string::npos);

    // A report whose counts contradict each other is refused: exit 2, one line naming the
    // file and the field, nothing written. So is one of the wrong shape.
    const std::string bytes = slurp_binary(saved);
    const fs::path out = dir / "out.html";
    const std::vector<std::function<void(nlohmann::json&)>> edits = {
        [](nlohmann::json& j) {
            auto& t = j["trace"]["caches"]["totals"];
            t[2] = t[1].get<uint64_t>() + 1;  // more L1 hits than L1 sectors
        },
        [](nlohmann::json& j) { j["trace"]["caches"]["profile"] = 42; },
        [](nlohmann::json& j) { j["trace"]["caches"]["buffers"][0][0] = "Q"; },
        // The h200 profile's recorded deal order travels in the file; a unit past the GPU's is refused.
        [](nlohmann::json& j) { j["trace"]["caches"]["deal_order"][0] = 999; },
    };
    for (size_t i = 0; i < edits.size(); ++i) {
        const fs::path bad = dir / ("bad" + std::to_string(i) + ".tstrace");
        std::ofstream(bad, std::ios::binary) << edited_trace_file(bytes, edits[i]);
        const Result e = run("export --html " + out.string() + " " + bad.string());
        EXPECT_EQ(e.status, 2) << i << ": " << e.err;
        EXPECT_EQ(std::count(e.err.begin(), e.err.end(), '\n'), 1) << i << ": " << e.err;
        EXPECT_NE(e.err.find(bad.filename().string()), std::string::npos) << i << ": " << e.err;
        EXPECT_NE(e.err.find("trace.caches"), std::string::npos) << i << ": " << e.err;
        EXPECT_FALSE(fs::exists(out)) << i;
    }
    // The same file with the report taken out (as saved before issue 24) still exports.
    const fs::path old = dir / "old.tstrace";
    std::ofstream(old, std::ios::binary) << edited_trace_file(bytes, [](nlohmann::json& j) { j["trace"].erase("caches"); });
    const Result o = run("export --html - " + old.string());
    ASSERT_EQ(o.status, 0) << o.err;
    EXPECT_TRUE(handout_json(o.out)["caches"].is_null());
    fs::remove_all(dir);
}

// Issue 24, item 3: trace --sample, the cache model past a whole trace. At 128^3 the
// model can replay every group, so its figures must be the whole trace's, and the JSON
// says how many groups were traced, checked and modelled.
// A kernel from a file is traced in a child process; sampled, the child ran a block of the
// launch's groups and its answer must read back (it was refused as a damaged trace file: the
// launch's NDRange against the block's). The check kernel of issue 31, naive with B transposed.
TEST(CacheCli, ASampledKernelFromAFileStandsInForTheWholeLaunch) {
    const std::string source = std::string("trace --source ") + TILESCOPE_VALIDATION +
                               "/naive_bt.cl --entry mm_naive_bt --global '((N+15)/16)*16,((M+15)/16)*16' "
                               "--local 16,16 --arg M=int:M --arg N=int:N --arg K=int:K --arg A=matrix:MxK:in "
                               "--arg B=matrix:NxK:in --arg C=matrix:MxN:out --size 64 --no-checks --caches teaching ";
    const Result whole = run(source + "--json -");
    ASSERT_EQ(whole.status, 0) << whole.err;
    const Result sampled = run(source + "--sample 3 --model-groups all --json -");
    ASSERT_EQ(sampled.status, 0) << sampled.err;
    const auto w = nlohmann::json::parse(whole.out), s = nlohmann::json::parse(sampled.out);
    EXPECT_EQ(s["sample"]["groups_total"], 16);
    EXPECT_EQ(s["sample"]["groups_traced"], 9);
    EXPECT_EQ(s["caches"]["totals"], w["caches"]["totals"]);
}

// Oclgrind reports 128 MiB per buffer, but keeps buffers in host memory: a sampled launch whose C is
// 128.3 MiB (issue 31, cache8: 6,144^3's A is 144 MiB) is traced, not refused; K = 16 keeps it cheap.
// The h200 profile's L2 is two halves (cache8): an --l2 of one set leaves a half with none, which
// is refused in one line, exit 2 (it crashed on a division by zero sets before the check).
TEST(CacheCli, AnL2TooSmallForTwoHalvesIsRefused) {
    const Result r = run("trace --kernel naive --size 32 --no-checks --caches h200 --l2 2");
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("--l2 2 KB: the profile's L2 is two halves; accepted: 4 KB"), std::string::npos) << r.err;
    EXPECT_EQ(run("trace --kernel naive --size 32 --no-checks --caches h200 --l2 4").status, 0);
}

TEST(CacheCli, ASampleMayHoldABufferPastTheEmulatorsNominal128MiB) {
    const Result r = run("trace --kernel naive --size 8200x4100x16 --sample 2 --no-checks --caches teaching "
                         "--model-groups 64 --json -");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["sample"]["groups_traced"], 4);
    EXPECT_EQ(j["sample"]["groups_modelled"], 64);
}

TEST(CacheCli, ASampleStandsInForTheWholeLaunch) {
    const Result whole = run("trace --kernel tiled --size 128 --tile 16 --no-checks --caches teaching --json -");
    ASSERT_EQ(whole.status, 0) << whole.err;
    const Result sampled = run("trace --kernel tiled --size 128 --tile 16 --caches teaching --sample 3 "
                               "--model-groups all --json -");
    ASSERT_EQ(sampled.status, 0) << sampled.err;
    const auto w = nlohmann::json::parse(whole.out), s = nlohmann::json::parse(sampled.out);
    EXPECT_EQ(s["sample"]["groups_total"], 64);
    EXPECT_EQ(s["sample"]["groups_traced"], 9);
    EXPECT_EQ(s["sample"]["groups_checked"], 6);
    EXPECT_EQ(s["sample"]["groups_modelled"], 64);
    EXPECT_EQ(s["sample"]["kind"], "modelled from a traced sample");
    EXPECT_EQ(s["caches"]["totals"], w["caches"]["totals"]);
    EXPECT_EQ(s["sample"]["whole_dram_read_bytes"].get<double>(), w["caches"]["totals"]["dram_read_bytes"].get<double>());
    // Half the groups modelled: the whole launch's DRAM is theirs doubled, and the text says it is scaled.
    const Result half = run("trace --kernel tiled --size 128 --tile 16 --caches teaching --sample 3 --model-groups 32");
    ASSERT_EQ(half.status, 0) << half.err;
    EXPECT_NE(half.out.find("modelled from a traced sample"), std::string::npos) << half.out;
    EXPECT_NE(half.out.find("scaled x2.00"), std::string::npos) << half.out;
}

TEST(CacheCli, BadSamplesExitTwoWithOneLine) {
    for (const std::string& bad : {"--sample 0 --caches", "--sample 3", "--sample 3,x --caches", "--sample 1 --caches",
                                   "--sample 3 --caches --save x.tstrace", "--sample 99 --caches",
                                   "--sample 3 --caches --model-groups 0", "--kernel splitk --sample 2 --caches"}) {
        const Result r = run("trace --size 64 " + bad);
        EXPECT_EQ(r.status, 2) << bad << ": " << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << bad << ": " << r.err;
    }
}

// Issue 31: where a hardware profile's figures stay outside the held-out targets, the table
// says so beside them, for the kernel traced (from the compiled-in held-out table); not once
// options override the profile, nor for a profile never held to a measurement.
TEST(CacheCli, HeldOutCheckSitsBesideTheModelledFigures) {
    const Result h200 = run("trace --kernel naive --size 32 --no-checks --caches h200");
    ASSERT_EQ(h200.status, 0) << h200.err;
    const size_t total = h200.out.find("  total "), l2 = h200.out.find("L2 sectors, held to the hardware: "),
                 l1 = h200.out.find("L1 hit, held to the hardware: ");
    ASSERT_NE(total, std::string::npos) << h200.out;
    ASSERT_NE(l2, std::string::npos) << h200.out;
    ASSERT_NE(l1, std::string::npos) << h200.out;
    EXPECT_LT(total, l2);
    EXPECT_NE(h200.out.find("Nsight Compute", l2), std::string::npos) << h200.out;
    EXPECT_NE(h200.out.find("for naive at", l2), std::string::npos) << h200.out;  // this kernel's check
    EXPECT_NE(h200.out.find("NVIDIA H200, 2026-11-28", l2), std::string::npos) << h200.out;
    const Result h100 = run("trace --kernel naive --size 32 --no-checks --caches h100");
    EXPECT_NE(h100.out.find("L2 sectors, held to the hardware: "), std::string::npos) << h100.out;
    // DRAM past the L2 (issue 31, cache8): naive and tiled carry their own line; other rungs none.
    EXPECT_NE(h100.out.find("DRAM reads past the L2, held to the hardware: the model is "), std::string::npos) << h100.out;
    EXPECT_NE(h100.out.find("in two halves"), std::string::npos) << h100.out;
    const Result row = run("trace --kernel row --size 32 --no-checks --caches h200");
    EXPECT_EQ(row.out.find("DRAM reads past the L2"), std::string::npos) << row.out;
    for (const std::string args : {"--caches h200 --l1 0", "--caches teaching"}) {
        const Result r = run("trace --kernel naive --size 32 --no-checks " + args);
        ASSERT_EQ(r.status, 0) << args << ": " << r.err;
        EXPECT_EQ(r.out.find("held to the hardware"), std::string::npos) << args << ": " << r.out;
    }
}

// Issue 33: `occupancy` prints the slides' shared-memory table from the slide profile
// (8 blocks of 2 KB and 2 of 8 KB by local memory, 1 of 1024 threads), its JSON carries
// each limit, and bad values exit 2 with one line naming the option.
TEST(OccupancyCli, TheSlidesTableAndBadValues) {
    const Result r = run("occupancy --profile slide --group 16,32 --json -");
    ASSERT_EQ(r.status, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    const auto& rows = j.at("profiles").at(0).at("rows");
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].at("by_local"), 8);
    EXPECT_EQ(rows[1].at("by_local"), 2);
    EXPECT_EQ(rows[1].at("groups_per_cu"), 1);
    EXPECT_EQ(rows[1].at("limit"), "threads");
    const Result table = run("occupancy --profile slide,cpu --group 16");
    ASSERT_EQ(table.status, 0) << table.err;
    EXPECT_NE(table.out.find("slide:"), std::string::npos);
    EXPECT_NE(table.out.find("cpu:"), std::string::npos);
    for (const char* bad : {"occupancy --profile nope", "occupancy --group 0", "occupancy --group 16x", "occupancy --group 99999",
                            "occupancy --group x16", "occupancy --bogus 1"}) {
        const Result b = run(bad);
        EXPECT_EQ(b.status, 2) << bad;
        EXPECT_EQ(std::count(b.err.begin(), b.err.end(), '\n'), 1) << bad << ": " << b.err;
        EXPECT_TRUE(b.out.empty()) << bad;
    }
}
