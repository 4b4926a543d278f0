// Runs the tilescope binary as a user would and checks exit codes, stderr and outputs.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace fs = std::filesystem;

namespace {

struct Result {
    int status = -1;
    std::string out, err;
};

// Runs `tilescope ARGS` through the shell; stdout and stderr captured separately.
Result run(const std::string& args) {
    const fs::path dir = fs::temp_directory_path() / ("tilescope-cli-" + std::to_string(getpid()));
    fs::create_directories(dir);
    const std::string out = (dir / "out").string(), err = (dir / "err").string();
    const std::string cmd = std::string(TILESCOPE_BIN) + " " + args + " >" + out + " 2>" + err;
    const int raw = std::system(cmd.c_str());
    Result r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    auto slurp = [](const std::string& p) { std::ifstream in(p); std::stringstream s; s << in.rdbuf(); return s.str(); };
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

int lines(const std::string& s) {
    int n = 0;
    for (char c : s) n += c == '\n';
    return n;
}

const std::string kData = TILESCOPE_TEST_DATA;

}  // namespace

TEST(Cli, DevicesJsonListsEmulatorAndPocl) {
    const Result r = run("devices --json");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    bool emulator = false, pocl = false;
    for (const auto& d : j) {
        emulator |= d["emulator"].get<bool>();
        pocl |= d["platform"].get<std::string>().find("Portable") != std::string::npos && d["type"] == "CPU";
        for (const char* key : {"name", "vendor", "type", "compute_units", "clock_mhz", "global_mem_bytes",
                                "local_mem_bytes", "max_work_group_size", "opencl_c_version"})
            EXPECT_TRUE(d.contains(key)) << key;
    }
    EXPECT_TRUE(emulator);
    EXPECT_TRUE(pocl);
}

TEST(Cli, BenchFiveRungsJsonContract) {
    const Result r = run("bench --device pocl --kernel naive,row,row_private,row_private_local,tiled --size 128 --tile 16 "
                         "--reps 2 --json -");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j.size(), 5u);
    for (const auto& rec : j) {
        for (const char* key : {"kernel", "device", "M", "N", "K", "tile", "global", "local", "reps", "median_s", "min_s",
                                "gflops", "max_rel_error", "verified"})
            EXPECT_TRUE(rec.contains(key)) << key;
        EXPECT_TRUE(rec["verified"].get<bool>()) << rec["kernel"];
        EXPECT_GT(rec["gflops"].get<double>(), 0) << rec["kernel"];
        EXPECT_EQ(rec["M"], 128);
        EXPECT_EQ(rec["reps"], 2);
        EXPECT_LE(rec["min_s"].get<double>(), rec["median_s"].get<double>());
    }
}

TEST(Cli, BenchNonMultipleSizesVerifyEveryRung) {
    const Result r = run("bench --device pocl --kernel naive,row,row_private,row_private_local,tiled --size 37x29x45 "
                         "--tile 8 --reps 1 --csv -");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(lines(r.out), 6) << r.out;  // header + five rows
    std::istringstream in(r.out);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "kernel,device,M,N,K,tile,global,local,reps,median_s,min_s,gflops,max_rel_error,verified");
    while (std::getline(in, line)) EXPECT_NE(line.find(",37,29,45,8,"), std::string::npos) << line;
    while (std::getline(in, line)) EXPECT_EQ(line.substr(line.size() - 4), "true") << line;
}

// The table's tile column shows TS only where the launch names it: a custom kernel whose
// NDRange, defines and arguments never say TS ran with no tile size, so it shows "-".
TEST(Cli, ATablesTileColumnShowsTSOnlyWhereTheLaunchNamesIt) {
    const std::string base = "bench --device pocl --size 33x20x17 --reps 1 --warmup 0 --source " + kData +
                             "/custom_colmajor.cl --entry matmul_colmajor --global M,N --arg M=int:M --arg N=int:N "
                             "--arg K=int:K --arg A=matrix:MxK:colmajor --arg B=matrix:KxN:colmajor "
                             "--arg C=matrix:MxN:colmajor:out --check 'C=A*B'";
    auto tile_column = [](const std::string& out) {
        std::istringstream in(out);
        std::string line, kernel, size, tile;
        while (std::getline(in, line))
            if (line.rfind("custom_colmajor", 0) == 0) {
                std::istringstream(line) >> kernel >> size >> tile;
                return tile;
            }
        return std::string("(no row)");
    };
    Result r = run(base + " --local 1,1");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(tile_column(r.out), "-") << r.out;
    r = run(base + " --local TS,1 --tile 1");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(tile_column(r.out), "1") << r.out;
}

TEST(Cli, CustomKernelsVerifyAndAWrongOneDoesNot) {
    Result r = run("bench --device pocl --size 40x24x56 --source " + kData + "/custom_cab.cl --entry matmul_cab "
                   "--global '((N+15)/16)*16,((M+15)/16)*16' --local 16,16 --define BLOCK=16 --arg C=matrix:MxN:out "
                   "--arg A=matrix:MxK --arg B=matrix:KxN --arg wA=int:K --arg wB=int:N --arg hA=int:M --check 'C=A*B' "
                   "--json -");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(nlohmann::json::parse(r.out)[0]["verified"].get<bool>());

    r = run("bench --device pocl --size 33x20x17 --source " + kData + "/custom_colmajor.cl --entry matmul_colmajor "
            "--global M,N --local 1,1 --arg M=int:M --arg N=int:N --arg K=int:K --arg A=matrix:MxK:colmajor "
            "--arg B=matrix:KxN:colmajor --arg C=matrix:MxN:colmajor:out --check 'C=A*B' --json -");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(nlohmann::json::parse(r.out)[0]["verified"].get<bool>());

    r = run("bench --device pocl --size 48x40x64 --source " + kData + "/wrong_product.cl --entry mm_wrong "
            "--global '((N+7)/8)*8,((M+7)/8)*8' --local 8,8 --arg M=int:M --arg N=int:N --arg K=int:K "
            "--arg A=matrix:MxK --arg B=matrix:KxN --arg C=matrix:MxN:out --check 'C=A*B' --json -");
    EXPECT_EQ(r.status, 1) << r.err;
    const auto rec = nlohmann::json::parse(r.out)[0];
    EXPECT_FALSE(rec["verified"].get<bool>());
    EXPECT_TRUE(rec["gflops"].is_null());
}

// Every bad input: exit 2, exactly one line on stderr, nothing written.
struct BadInput {
    const char* name;
    std::string args;
    const char* must_mention;
};

// gtest prints a parameter in test listings: the case's name and command, not its bytes.
void PrintTo(const BadInput& b, std::ostream* os) { *os << b.name << ": tilescope " << b.args; }

class CliBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(CliBadInput, ExitsTwoWithOneLineAndWritesNothing) {
    const BadInput& b = GetParam();
    const fs::path out = fs::temp_directory_path() / ("tilescope-bad-" + std::to_string(getpid()) + ".json");
    fs::remove(out);
    const Result r = run(b.args + " --json " + out.string());
    EXPECT_EQ(r.status, 2) << b.name << ": " << r.err;
    EXPECT_EQ(lines(r.err), 1) << b.name << ": " << r.err;
    EXPECT_NE(r.err.find(b.must_mention), std::string::npos) << b.name << ": " << r.err;
    EXPECT_FALSE(fs::exists(out)) << b.name;
}

INSTANTIATE_TEST_SUITE_P(
    Bench, CliBadInput,
    ::testing::Values(
        BadInput{"zero_size", "bench --device pocl --size 0", "--size"},
        BadInput{"negative_size", "bench --device pocl --size -5", "--size"},
        BadInput{"malformed_size", "bench --device pocl --size 12xx4", "--size"},
        BadInput{"tile_beyond_device", "bench --device pocl --kernel tiled --size 256 --tile 128", "at most"},
        BadInput{"zero_tile", "bench --device pocl --tile 0", "--tile"},
        BadInput{"unknown_kernel", "bench --device pocl --kernel quickest", "accepted"},
        BadInput{"unknown_device", "bench --device quantum", "--device"},
        BadInput{"negative_reps", "bench --device pocl --reps -1", "--reps"},
        // 65536^2 floats per matrix: refused before any buffer, since the rungs index with 32-bit ints.
        BadInput{"matrix_beyond_32bit_indices", "bench --device pocl --kernel naive --size 65536", "--size '65536': A (MxK)"},
        BadInput{"side_beyond_2_20", "bench --device pocl --kernel splitk --size 64x64x1048577", "up to 1048576"},
        BadInput{"malformed_arg", "bench --device pocl --source " + kData + "/custom_cab.cl --entry matmul_cab --global N,M "
                                  "--local 1,1 --arg C=matrx:MxN", "--arg"},
        BadInput{"kernel_does_not_build", "bench --device pocl --size 8 --source " + kData + "/does_not_build.cl --entry "
                                          "mm_broken --global N --local 1 --arg M=int:M --arg N=int:N --arg K=int:K "
                                          "--arg A=matrix:MxK --arg B=matrix:KxN --arg C=matrix:MxN:out", "does not build"},
        BadInput{"unknown_option", "bench --device pocl --fast", "unknown option"},
        BadInput{"emulator_for_timing", "bench --device emulator", "emulator"},
        BadInput{"json_dir_missing", "bench --device pocl --csv /no/such/dir/out.csv", "does not exist"}),
    [](const ::testing::TestParamInfo<BadInput>& i) { return std::string(i.param.name); });

INSTANTIATE_TEST_SUITE_P(
    Trace, CliBadInput,
    ::testing::Values(
        BadInput{"library_rung", "trace --kernel clblast --size 16", "library"},
        BadInput{"two_kernels", "trace --kernel naive,tiled --size 16", "one kernel"},
        BadInput{"malformed_groups", "trace --kernel tiled --size 32 --tile 8 --groups 1,x", "--groups"},
        BadInput{"too_large", "trace --kernel naive --size 4096", "--size"},
        BadInput{"zero_warp", "trace --kernel tiled --size 16 --tile 8 --warp 0", "--warp"},
        BadInput{"unknown_exercise", "trace --kernel tiled_missing_everything --size 16", "exercises"}),
    [](const ::testing::TestParamInfo<BadInput>& i) { return std::string(i.param.name); });

// The exercises under kernels/exercises/ are found by name and show what they teach.
TEST(Cli, ExercisesShowTheirMistakes) {
    struct Case {
        const char* args;
        const char* kind;
        bool always_wrong;  // false: the wrong values race with right ones between work-groups
    };
    // naive_no_bounds: a work-item right of C's edge writes into the next row of C, racing the
    // work-item whose element that is; the emulator runs work-groups on several threads, so which
    // write lands last (and so whether C verifies) depends on the order of the day. Its diagnostic
    // does not; that is what the exercise teaches (its note: "read the diagnostics").
    for (const Case& c : {Case{"--kernel tiled_missing_barrier --size 16 --tile 8", "race", true},
                          Case{"--kernel tiled_divergent_barrier --size 12x12x16 --tile 8", "divergence", true},
                          Case{"--kernel naive_no_bounds --size 12x12x16 --tile 8", "out_of_bounds", false}}) {
        const Result r = run(std::string("trace ") + c.args + " --json -");
        ASSERT_EQ(r.status, 0) << c.args << ": " << r.err;
        const auto j = nlohmann::json::parse(r.out);
        bool found = false;
        for (const auto& d : j["diagnostics"])
            if (d["kind"] == c.kind) {
                found = true;
                EXPECT_GT(d["line"].get<int>(), 0) << c.args;
            }
        EXPECT_TRUE(found) << c.args << " should report " << c.kind;
        if (c.always_wrong) EXPECT_FALSE(j["verified"].get<bool>()) << c.args;
        // verified or not, the wrong cells listed are what the verdict says
        EXPECT_EQ(j["verified"].get<bool>(), j["wrong_cells"].empty()) << c.args;
    }
    // --kernel all never includes them.
    const Result all = run("bench --device pocl --kernel all --size 4 --tile 4 --reps 1 --warmup 0 --csv -");
    EXPECT_EQ(all.out.find("missing_barrier"), std::string::npos);
}

TEST(Cli, TraceReportsTheLessonsCounts) {
    const Result naive = run("trace --kernel naive --size 64 --no-checks --json -");
    ASSERT_EQ(naive.status, 0) << naive.err;
    const auto n = nlohmann::json::parse(naive.out);
    EXPECT_EQ(n["totals"]["global_load_bytes"].get<uint64_t>(), 2097152u);
    for (int ts : {8, 16}) {
        const Result tiled = run("trace --kernel tiled --size 64 --no-checks --tile " + std::to_string(ts) + " --json -");
        ASSERT_EQ(tiled.status, 0) << tiled.err;
        const auto t = nlohmann::json::parse(tiled.out);
        EXPECT_EQ(t["totals"]["global_load_bytes"].get<uint64_t>(), 2097152u / ts);
        const uint64_t groups = (64 / ts) * (64 / ts), phases = 64 / ts;
        EXPECT_EQ(t["groups"].get<uint64_t>(), groups);
        EXPECT_EQ(t["totals"]["barriers"].get<uint64_t>(), groups * phases * 2);
    }
}

TEST(Cli, CeilingsAreMeasuredOnTheDevice) {
    const Result r = run("ceilings --device pocl --reps 2 --json -");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_GT(j["peak_gflops"].get<double>(), 0.5);
    EXPECT_GT(j["bandwidth_gbs"].get<double>(), 0.1);
    EXPECT_EQ(run("ceilings --device emulator").status, 2);
}

// A rung beyond the lesson is shown against its predecessor: the change it teaches.
TEST(Cli, TraceShowsANewRungAgainstTheOneBefore) {
    const Result r = run("trace --kernel reg2d_dbuf --size 32 --no-checks");
    ASSERT_EQ(r.status, 0) << r.err;
    const size_t at = r.out.find("against the rung before (reg2d_tpad");
    ASSERT_NE(at, std::string::npos) << r.out;
    const size_t barriers = r.out.find("barriers per work-group", at);
    ASSERT_NE(barriers, std::string::npos);
    const std::string line = r.out.substr(barriers, r.out.find('\n', barriers) - barriers);
    const double ratio = std::stod(line.substr(line.rfind(' ') + 1));
    EXPECT_LT(ratio, 1.0) << line;  // double buffering: fewer barriers per work-group
    EXPECT_EQ(run("trace --kernel tiled --size 16 --tile 8").out.find("against the rung before"), std::string::npos);
}

TEST(Cli, UnknownSubcommandExitsTwo) {
    const Result r = run("benchmark");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(lines(r.err), 1);
}

TEST(Cli, EverySubcommandHasHelp) {
    for (const char* cmd : {"devices", "bench", "trace", "tour", "ceilings", "occupancy"}) {
        const Result r = run(std::string(cmd) + " --help");
        EXPECT_EQ(r.status, 0) << cmd;
        EXPECT_NE(r.out.find("usage"), std::string::npos) << cmd;
    }
}
