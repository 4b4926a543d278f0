// Issue 32, items 4-6: every output through one writer (fresh O_EXCL temporary in the
// target's folder, symlinks written through, inputs/devices/FIFOs/directories refused,
// short writes an error that leaves nothing half-written), environment values checked
// like options, and messages that name what the user gave. Real FIFOs, symlinks,
// /dev/full and RLIMIT_FSIZE; the CLI cases run the real binary.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include "core/base/atomic_file.h"
#include "core/base/environment.h"
#include "core/base/errors.h"
#include "core/base/untrusted_file.h"
#include "core/device/device_info.h"
#include "core/kernel/launch_config.h"
#include "core/tuning/tuning.h"

namespace fs = std::filesystem;
using namespace tilescope;

namespace {

const std::string kBin = TILESCOPE_BIN;
const std::string kData = TILESCOPE_HARDENING_DATA;

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void put(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

fs::path scratch(const std::string& name) {
    const fs::path d = fs::temp_directory_path() / ("tilescope-outputs-" + name + "-" + std::to_string(getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

// Files in `dir` other than the expected ones: a left-behind temporary shows up here.
std::vector<std::string> entries(const fs::path& dir) {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

struct CliRun {
    int status = -1;  // exit code, or 128 + signal
    std::string out, err;
};

// The binary with argv as given; `env` entries added; stdout to `stdout_path` (a file
// in the scratch folder when empty); `fsize` > 0 limits file sizes (RLIMIT_FSIZE).
CliRun run(const std::vector<std::string>& args, const fs::path& dir, const std::vector<std::string>& env = {},
        const std::string& stdout_path = "", rlim_t fsize = 0) {
    const fs::path out = stdout_path.empty() ? dir / "stdout.txt" : fs::path(stdout_path), err = dir / "stderr.txt";
    const pid_t pid = fork();
    if (pid == 0) {
        const int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(o, 1), dup2(e, 2);
        for (const std::string& kv : env) putenv(const_cast<char*>(kv.c_str()));
        if (fsize) {
            signal(SIGXFSZ, SIG_IGN);  // a write past the limit fails with EFBIG, as on a full disk
            const rlimit lim{fsize, fsize};
            setrlimit(RLIMIT_FSIZE, &lim);
        }
        std::vector<char*> argv{const_cast<char*>(kBin.c_str())};
        for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execv(kBin.c_str(), argv.data());
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    CliRun r;
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    if (stdout_path.empty()) r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

int lines(const std::string& s) { return int(std::count(s.begin(), s.end(), '\n')); }

// Runs `f` in a child; returns its exit code (f's return value), 99 on an uncaught exception.
int in_child(const std::function<int()>& f, rlim_t fsize = 0) {
    const pid_t pid = fork();
    if (pid == 0) {
        if (fsize) {
            signal(SIGXFSZ, SIG_IGN);
            const rlimit lim{fsize, fsize};
            setrlimit(RLIMIT_FSIZE, &lim);
        }
        try {
            _exit(f());
        } catch (...) {
            _exit(99);
        }
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

template <class E>
std::string thrown(const std::function<void()>& f) {
    try {
        f();
    } catch (const E& e) {
        return e.what();
    }
    return "(nothing thrown)";
}

}  // namespace

// ---- the writer itself (core/base/atomic_file) ----

TEST(OneWriter, ASymlinkIsWrittenThroughAndStaysALink) {
    const fs::path d = scratch("link");
    fs::create_directories(d / "real");
    put(d / "real" / "target.json", "old");
    fs::create_symlink("real/target.json", d / "link.json");
    write_file_atomically((d / "link.json").string(), "new", "--json");
    EXPECT_TRUE(fs::is_symlink(d / "link.json"));
    EXPECT_EQ(slurp(d / "real" / "target.json"), "new");
    // The temporary lived in the target's folder and is gone.
    EXPECT_EQ(entries(d / "real"), std::vector<std::string>{"target.json"});
    EXPECT_EQ(entries(d), (std::vector<std::string>{"link.json", "real"}));
    fs::remove_all(d);
}

TEST(OneWriter, APlantedTemporaryNameIsNeverFollowed) {
    // The screenshot's old fixed NAME.tmp followed a planted link and overwrote its target.
    const fs::path d = scratch("planted");
    put(d / "victim", "precious");
    for (const char* name : {"out.png.tmp", ".out.png.tmp", "out.png.tmp-1"}) fs::create_symlink(d / "victim", d / name);
    write_file_atomically((d / "out.png").string(), "PNG", "--screenshot");
    EXPECT_EQ(slurp(d / "victim"), "precious");
    EXPECT_EQ(slurp(d / "out.png"), "PNG");
    EXPECT_EQ(entries(d).size(), 5u) << "a temporary file was left behind";
    fs::remove_all(d);
}

TEST(OneWriter, FifosDevicesSocketsAndDirectoriesAreRefusedNotReplaced) {
    const fs::path d = scratch("kinds");
    ASSERT_EQ(mkfifo((d / "fifo").c_str(), 0644), 0);
    fs::create_directories(d / "dir");
    const int sock = socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const std::string sp = (d / "sock").string();
    std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", sp.c_str());
    ASSERT_EQ(bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    fs::create_symlink(d / "fifo", d / "link-to-fifo");
    for (const auto& [path, kind] : std::vector<std::pair<std::string, std::string>>{
             {(d / "fifo").string(), "a FIFO"},
             {(d / "link-to-fifo").string(), "a FIFO"},
             {(d / "dir").string(), "a directory"},
             {sp, "a socket"},
             {"/dev/zero", "a character device"}}) {
        const std::string why = thrown<InputError>([&] { write_file_atomically(path, "x", "--control screenshot"); });
        EXPECT_NE(why.find("--control screenshot '" + path + "': is " + kind), std::string::npos) << why;
    }
    struct stat st{};
    ASSERT_EQ(lstat((d / "fifo").c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode));
    ASSERT_EQ(lstat(sp.c_str(), &st), 0);
    EXPECT_TRUE(S_ISSOCK(st.st_mode));
    close(sock);
    fs::remove_all(d);
}

TEST(OneWriter, AFileThisRunReadIsRefusedAsAnOutput) {
    const fs::path d = scratch("input");
    put(d / "in.json", "{}");
    fs::create_symlink(d / "in.json", d / "alias.json");
    const int code = in_child([&] {
        (void)read_untrusted_file((d / "in.json").string(), 1024, "--lesson");
        const std::string why = thrown<InputError>([&] { write_file_atomically((d / "alias.json").string(), "x", "--record"); });
        if (why.find("--record '") == std::string::npos || why.find("is the input") == std::string::npos) return 1;
        note_input_file((d / "tuning.json").string());  // a tuning file in use
        put(d / "tuning.json", "t");
        const std::string why2 = thrown<InputError>([&] { write_file_atomically((d / "tuning.json").string(), "x", "--json"); });
        if (why2.find("--json '") == std::string::npos) return 2;
        // Read-merge-write of a tuning file may replace the file it read.
        update_file_locked((d / "tuning.json").string(), [](const std::string& cur) { return cur + "+"; });
        return slurp(d / "tuning.json") == "t+" ? 0 : 3;
    });
    EXPECT_EQ(code, 0);
    EXPECT_EQ(slurp(d / "in.json"), "{}");
    fs::remove_all(d);
}

TEST(OneWriter, AShortWriteIsAnOutputErrorAndLeavesTheOldFileAndNoTemporary) {
    const fs::path d = scratch("short");
    put(d / "out.json", "old");
    const int code = in_child(
        [&] {
            try {
                write_file_atomically((d / "out.json").string(), std::string(1 << 20, 'x'), "--json");
            } catch (const OutputError& e) {
                return std::string(e.what()).find("--json '") == 0 ? 0 : 2;
            }
            return 1;
        },
        4096);
    EXPECT_EQ(code, 0);
    EXPECT_EQ(slurp(d / "out.json"), "old");
    EXPECT_EQ(entries(d), std::vector<std::string>{"out.json"});
    fs::remove_all(d);
}

TEST(OneWriter, TwoOutputsOfOneRunNamingOneFileAreRefused) {
    const fs::path d = scratch("distinct");
    put(d / "x.html", "");
    fs::create_symlink(d / "x.html", d / "y.html");
    EXPECT_NE(thrown<InputError>([&] { check_distinct_outputs({{"--html", (d / "x.html").string()}, {"--sheet", (d / "y.html").string()}}); })
                  .find("--sheet '"),
              std::string::npos);
    EXPECT_NE(thrown<InputError>([&] { check_distinct_outputs({{"--json", "-"}, {"--csv", "/dev/stdout"}}); }).find("--csv"),
              std::string::npos);
    EXPECT_NE(thrown<InputError>([&] { check_distinct_outputs({{"--json", (d / "new.json").string()}, {"--save", (d / "new.json").string()}}); })
                  .find("--save"),
              std::string::npos);
    EXPECT_NO_THROW(check_distinct_outputs({{"--json", (d / "a").string()}, {"--csv", (d / "b").string()}, {"--save", ""}}));
    fs::remove_all(d);
}

TEST(OneWriter, JsonAndCborTextIsValidUtf8) {
    EXPECT_EQ(utf8_replaced("k\xe9.cl"), "k\xef\xbf\xbd.cl");
    EXPECT_EQ(utf8_replaced("ok \xc3\xa9"), "ok \xc3\xa9");
    EXPECT_TRUE(valid_utf8(utf8_replaced("\xff\xfe\xed\xa0\x80\xf4\x90\x80\x80")));
}

// ---- environment values (core/base/environment) ----

TEST(Environment, NumbersAreCheckedLikeOptions) {
    for (const char* bad : {"inf", "1e300", "nan", "-1", "abc", "0x10", " 5", "0"}) {
        setenv("TILESCOPE_BUILD_TIMEOUT_S", bad, 1);
        const std::string why = thrown<InputError>([] { (void)env_number("TILESCOPE_BUILD_TIMEOUT_S", 0.1, 3600, "seconds"); });
        EXPECT_NE(why.find("TILESCOPE_BUILD_TIMEOUT_S='" + std::string(bad) + "'"), std::string::npos) << why;
        EXPECT_NE(why.find("from 0.10 to 3600"), std::string::npos) << why;
    }
    setenv("TILESCOPE_BUILD_TIMEOUT_S", "2.5", 1);
    EXPECT_EQ(env_number("TILESCOPE_BUILD_TIMEOUT_S", 0.1, 3600, "seconds").value_or(0), 2.5);
    unsetenv("TILESCOPE_BUILD_TIMEOUT_S");
    EXPECT_FALSE(env_number("TILESCOPE_BUILD_TIMEOUT_S", 0.1, 3600, "seconds"));
}

TEST(Environment, TemporaryFilesGoUnderTmpdirWhenItIsAFolder) {
    const char* was = std::getenv("TMPDIR");
    const std::string saved = was ? was : "";
    const fs::path dir = fs::temp_directory_path() / ("tilescope-tmpdir-" + std::to_string(getpid()));
    fs::create_directories(dir);
    setenv("TMPDIR", dir.c_str(), 1);
    EXPECT_EQ(temp_template("tilescope-icd"), dir.string() + "/tilescope-icd-XXXXXX");
    setenv("TMPDIR", (dir / "missing").c_str(), 1);  // not a folder: /tmp, so the device list still works
    EXPECT_EQ(temp_template("tilescope-icd"), "/tmp/tilescope-icd-XXXXXX");
    unsetenv("TMPDIR");
    EXPECT_EQ(temp_template("tilescope-trace"), "/tmp/tilescope-trace-XXXXXX");
    if (!saved.empty()) setenv("TMPDIR", saved.c_str(), 1);
    fs::remove_all(dir);
}

TEST(Environment, TheTuningFolderIsReadWithinItsBudget) {
    // Sixty 1 MiB tuning files: one look reads at most kMaxTuningFolderBytes of them.
    const fs::path d = scratch("tuning-budget");
    const std::string filler = "{\"comment\": \"" + std::string((1u << 20) - 64, 'x') + "\", \"kernels\": {}}";
    for (int i = 0; i < 60; ++i) put(d / ("f" + std::to_string(100 + i) + ".json"), filler);
    const int code = in_child([&] {
        setenv("TILESCOPE_TUNING_DIR", d.c_str(), 1);
        DeviceInfo device;  // a PoCL device with a family, so similar devices' files are looked through
        device.platform = "Portable Computing Language";
        device.name = "cpu-testtarget-Intel(R) Test CPU";
        (void)lookup_tuning(device, "tiled", ProblemSize{64, 64, 64});
        // Each look reads the same first files; over all looks, no more than one look's budget.
        std::set<std::string> read;
        for (const std::string& p : input_files_read())
            if (p.find(d.string()) == 0) read.insert(p);
        uint64_t bytes = 0;
        for (const std::string& p : read) bytes += fs::file_size(p);
        return read.empty() ? 2 : bytes <= kMaxTuningFolderBytes ? 0 : 1;
    });
    EXPECT_EQ(code, 0);
    fs::remove_all(d);
}

// ---- the real binary ----

TEST(OutputsCli, JsonToAFullDiskExitsOne) {
    const fs::path d = scratch("full");
    const CliRun r = run({"trace", "--size", "8", "--tile", "4", "--json", "-"}, d, {}, "/dev/full");
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("--json '-': cannot write standard output (No space left on device)"), std::string::npos) << r.err;
    fs::remove_all(d);
}

TEST(OutputsCli, AJsonFilePastTheFileSizeLimitExitsOneAndLeavesNothing) {
    const fs::path d = scratch("fsize");
    put(d / "out.json", "old");
    const CliRun r = run({"trace", "--size", "8", "--tile", "4", "--json", (d / "out.json").string()}, d, {}, "/dev/null", 512);
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("--json '"), std::string::npos) << r.err;
    EXPECT_EQ(slurp(d / "out.json"), "old");
    EXPECT_EQ(entries(d), (std::vector<std::string>{"out.json", "stderr.txt"}));
    fs::remove_all(d);
}

TEST(OutputsCli, TheHandOutAndTheSheetCannotBeOneFile) {
    const fs::path d = scratch("sheet");
    put(d / "x.html", "hand-out");
    fs::create_symlink(d / "x.html", d / "y.html");
    const std::string lesson = std::string(TILESCOPE_SOURCE_DIR) + "/assets/lessons/1_naive.json";
    for (const std::string& sheet : {(d / "x.html").string(), (d / "y.html").string()}) {
        const CliRun r = run({"export", "--html", (d / "x.html").string(), "--sheet", sheet, "--lesson", lesson}, d);
        EXPECT_EQ(r.status, 2) << r.err;
        EXPECT_EQ(lines(r.err), 1) << r.err;
        EXPECT_NE(r.err.find("--sheet"), std::string::npos) << r.err;
    }
    EXPECT_EQ(slurp(d / "x.html"), "hand-out");
    fs::remove_all(d);
}

#ifdef TILESCOPE_TEST_GUI  // the sanitizer build has no GUI; the normal build runs this
TEST(OutputsCli, TheOpenedTraceAndTheLessonAreNeverReplacedByARecording) {
    const fs::path d = scratch("record");
    const fs::path saved = d / "t.tstrace";
    const CliRun made = run({"trace", "--size", "8", "--tile", "4", "--save", saved.string()}, d);
    ASSERT_EQ(made.status, 0) << made.err;
    const std::string before = slurp(saved);
    fs::create_symlink(saved, d / "alias.gif");
    for (const std::string& target : {saved.string(), (d / "alias.gif").string()}) {
        const CliRun r = run({"gui", "--open", saved.string(), "--record", target}, d);
        EXPECT_EQ(r.status, 2) << r.err;
        EXPECT_NE(r.err.find("--record '" + target + "'"), std::string::npos) << r.err;
        EXPECT_EQ(lines(r.err), 1) << r.err;
    }
    EXPECT_EQ(slurp(saved), before);
    // export of the trace onto itself (through a link) is refused too.
    const CliRun e = run({"export", "--html", (d / "alias.gif").string(), saved.string()}, d);
    EXPECT_EQ(e.status, 2) << e.err;
    EXPECT_EQ(slurp(saved), before);
    fs::remove_all(d);
}
#endif

TEST(EnvironmentCli, BadValuesAreOneLineAndExitTwo) {
    const fs::path d = scratch("env");
    ASSERT_EQ(mkfifo((d / "vendor.icd").c_str(), 0644), 0);
    fs::create_symlink("/dev/zero", d / "zero.icd");
    put(d / "afile", "x");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"TILESCOPE_BUILD_TIMEOUT_S=inf", "TILESCOPE_BUILD_TIMEOUT_S='inf'"},
        {"TILESCOPE_BUILD_TIMEOUT_S=1e300", "from 0.10 to 3600"},
        {"TILESCOPE_BUILD_TIMEOUT_S=nan", "TILESCOPE_BUILD_TIMEOUT_S='nan'"},
        {"TILESCOPE_BUILD_TIMEOUT_S=-1", "TILESCOPE_BUILD_TIMEOUT_S='-1'"},
        {"TILESCOPE_BUILD_TIMEOUT_S=abc", "TILESCOPE_BUILD_TIMEOUT_S='abc'"},
        {"TILESCOPE_ICDS=" + (d / "vendor.icd").string(), "a FIFO"},
        {"TILESCOPE_ICDS=" + (d / "zero.icd").string(), "a character device"},
        {"TILESCOPE_TUNING_DIR=" + (d / "afile").string(), "TILESCOPE_TUNING_DIR="},
        // dlopen of a FIFO blocks for ever; a plugin that is not a file was ignored in silence
        {"TILESCOPE_TRACE_PLUGIN=" + (d / "vendor.icd").string(), "TILESCOPE_TRACE_PLUGIN='" + (d / "vendor.icd").string() + "': is a FIFO"},
        {"TILESCOPE_TRACE_PLUGIN=" + (d / "none.so").string(), "': no such file; accepted: the path of the trace plugin"},
        {"TILESCOPE_TEST_PAUSE_BEFORE_RENAME_MS=1e9", "TILESCOPE_TEST_PAUSE_BEFORE_RENAME_MS='1e9'"},
        // Oclgrind aborts the process on these (text, 0, a fraction; 99,999 threads cannot start)
        {"OCLGRIND_NUM_THREADS=x", "OCLGRIND_NUM_THREADS='x': not a whole number; accepted: a whole number from 1 to 1024"},
        {"OCLGRIND_NUM_THREADS=0", "OCLGRIND_NUM_THREADS='0': out of range"},
        {"OCLGRIND_NUM_THREADS=2.5", "OCLGRIND_NUM_THREADS='2.5'"},
        {"OCLGRIND_NUM_THREADS=99999", "OCLGRIND_NUM_THREADS='99999': out of range"},
        {"OCLGRIND_MAX_ERRORS=-1", "OCLGRIND_MAX_ERRORS='-1': not a whole number; accepted: a whole number from 0 to"},
    };
    for (const auto& [kv, what] : cases) {
        const CliRun r = run({"devices"}, d, {kv});
        EXPECT_EQ(r.status, 2) << kv << ": " << r.err;
        EXPECT_EQ(lines(r.err), 1) << kv << ": " << r.err;
        EXPECT_NE(r.err.find(what), std::string::npos) << kv << ": " << r.err;
    }
    fs::remove_all(d);
}

TEST(EnvironmentCli, TheEmulatorsOwnSettingsAreCheckedBeforeItAbortsOnThem) {
    // Oclgrind aborts the process on a thread count it cannot use: the trace used to end
    // in "crashed (Aborted)". A good count runs; an empty one reads as unset, as ours do.
    const fs::path d = scratch("oclgrind-env");
    for (const std::string& kv : {std::string("OCLGRIND_NUM_THREADS=x"), std::string("OCLGRIND_NUM_THREADS=4097")}) {
        const CliRun r = run({"trace", "--size", "8", "--tile", "4"}, d, {kv});
        EXPECT_EQ(r.status, 2) << kv << ": " << r.err;
        EXPECT_EQ(lines(r.err), 1) << kv << ": " << r.err;
        EXPECT_EQ(r.err.find("crashed"), std::string::npos) << kv << ": " << r.err;
    }
    for (const std::string& kv : {std::string("OCLGRIND_NUM_THREADS=1"), std::string("OCLGRIND_NUM_THREADS="),
                                  std::string("OCLGRIND_MAX_ERRORS=")}) {
        const CliRun r = run({"trace", "--size", "8", "--tile", "4"}, d, {kv});
        EXPECT_EQ(r.status, 0) << kv << ": " << r.err;
        EXPECT_NE(r.out.find("verified"), std::string::npos) << kv << ": " << r.out;
    }
    fs::remove_all(d);
}

TEST(MessagesCli, APluginThatIsNoLibraryIsSaidInOurWordsNotTheLoaders) {
    // A regular file that is no shared library passes the start-up check; dlopen's own text
    // ("invalid ELF header", "file too short") is not what the user is told.
    const fs::path d = scratch("plugin");
    put(d / "plugin.so", "not a library");
    const CliRun r = run({"trace", "--size", "8"}, d, {"TILESCOPE_TRACE_PLUGIN=" + (d / "plugin.so").string()});
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("plugin.so' cannot be loaded: it is not a shared library for this machine"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("ELF"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("too short"), std::string::npos) << r.err;
    fs::remove_all(d);
}

TEST(MessagesCli, ALessonGroupOfTextNamesTheFileTheStepAndTheField) {
    const fs::path d = scratch("lesson");
    put(d / "l.json", R"({"title": "t", "steps": [{"title": "s", "state": {"group": ["a"]}, "script": "x"}]})");
    const CliRun r = run({"export", "--html", (d / "o.html").string(), "--lesson", (d / "l.json").string()}, d);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    for (const std::string& part : {(d / "l.json").string(), std::string("step 1"), std::string("'group'")})
        EXPECT_NE(r.err.find(part), std::string::npos) << part << ": " << r.err;
    EXPECT_EQ(r.err.find("json.exception"), std::string::npos) << r.err;
    fs::remove_all(d);
}

TEST(MessagesCli, ALessonTooLargeToTraceNamesTheLessonNotSizeOrNoChecks) {
    // Round 3's find: a lesson whose set-up passes the lesson's time bound but not a trace's
    // memory was refused as "--size 700: ...; use a smaller --size such as 350, or --no-checks".
    const fs::path d = scratch("lesson-size");
    put(d / "l.json", R"({"title": "t", "steps": [{"title": "s", "state": {"kernel": "tiled", "size": "700", "tile": 16}, "script": "x"}]})");
    const CliRun r = run({"export", "--html", (d / "o.html").string(), "--lesson", (d / "l.json").string()}, d);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_LE(lines(r.err), 2) << r.err;  // the progress line "export: tracing tiled 700 16 ...", then the refusal
    EXPECT_NE(r.err.find("tilescope export: --lesson '" + (d / "l.json").string() + "': the trace of 'tiled' at 700 on the emulator needs"),
              std::string::npos) << r.err;
    for (const std::string& option : {"--size", "--no-checks", "--groups"}) EXPECT_EQ(r.err.find(option), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(d / "o.html"));
    fs::remove_all(d);
}

TEST(MessagesCli, ALatin1SourceNameIsSavedAndReadBack) {
    const fs::path d = scratch("latin1");
    const fs::path src = d / "k\xe9.cl";
    fs::copy_file(kData + "/../../data/custom_cab.cl", src);
    const CliRun r = run({"trace", "--size", "16", "--source", src.string(), "--entry", "matmul_cab", "--global", "M,N", "--local",
                       "16,16", "--arg", "C=matrix:MxN:out", "--arg", "A=matrix:MxK", "--arg", "B=matrix:KxN", "--arg",
                       "wA=int:K", "--arg", "wB=int:N", "--arg", "hA=int:M", "--json", (d / "t.json").string(), "--save",
                       (d / "t.tstrace").string()},
                      d);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
    const CliRun e = run({"export", "--html", (d / "h.html").string(), (d / "t.tstrace").string()}, d);
    EXPECT_EQ(e.status, 0) << e.err;
    EXPECT_TRUE(valid_utf8(slurp(d / "t.json")));
    fs::remove_all(d);
}
