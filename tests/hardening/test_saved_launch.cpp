// Issue 32, item 3: every field of a saved launch validated against the others by one
// function (validate_launch), which the GUI and export both reach through the trace file's
// reader; item 1's core side: a kernel a file carries is marked, and no device builds or
// runs it until it is trusted. Each hostile file is written with a valid checksum.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>

#include "core/base/errors.h"
#include "core/base/plain_errors.h"
#include "core/base/untrusted_file.h"
#include "core/device/contained_measure.h"
#include "core/device/contained_trial.h"
#include "core/device/opencl_env.h"
#include "core/device/runner.h"
#include "core/emulator/trace_runner.h"
#include "core/io/trace_file.h"
#include "core/kernel/catalog.h"
#include "core/teach/lesson.h"
#include "core/trace/frame_replay.h"
#include "hardening/carried_kernel.h"

using namespace tilescope;
namespace fs = std::filesystem;

namespace {

fs::path scratch() {
    static const fs::path d = [] {
        const fs::path p = fs::temp_directory_path() / ("ts-saved-launch-" + std::to_string(getpid()));
        fs::create_directories(p);
        return p;
    }();
    return d;
}

// The scratch folder goes when the program ends normally (a test main that leaves with _Exit keeps it).
const struct ScratchCleanup {
    ~ScratchCleanup() {
        std::error_code ec;
        fs::remove_all(fs::temp_directory_path() / ("ts-saved-launch-" + std::to_string(getpid())), ec);
    }
} scratch_cleanup;

const TraceFile& tiled32() {
    static const TraceFile file = [] {
        TraceFile f;
        f.launch = LaunchConfig{*find_kernel("tiled"), {32, 32, 32}, 8};
        f.trace = run_trace(f.launch);
        return f;
    }();
    return file;
}

// The one line parse_trace_file refuses `tiled32()` with after `edit` (saved with a valid
// checksum); a failure when it is accepted, more than one line or not naming the file.
std::string refusal_of(const std::function<void(TraceFile&)>& edit) {
    TraceFile f = tiled32();
    edit(f);
    const std::string bytes = serialize_trace_file(f);
    try {
        parse_trace_file(bytes, "hostile.tstrace");
    } catch (const InputError& e) {
        const std::string what = e.what();
        EXPECT_EQ(what.rfind("hostile.tstrace", 0), 0u) << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
        return what;
    }
    ADD_FAILURE() << "accepted";
    return {};
}

#define EXPECT_NAMES(text, field) EXPECT_NE((text).find(field), std::string::npos) << (text)

}  // namespace

TEST(SavedLaunch, TheIssuesCrashesAreRefusedNamingTheField) {
    // A local store flagged as carrying a value but of size 0: the replay read a word of an
    // empty list (SIGSEGV in export and the GUI).
    EXPECT_NAMES(refusal_of([](TraceFile& f) {
                     bool edited = false;
                     for (GroupTrace& g : f.trace.detail)
                         for (BarrierInterval& in : g.intervals)
                             for (WorkItemAccesses& w : in.access_log)
                                 for (MemoryAccess& a : w.accesses)
                                     if (!edited && a.has_value()) {
                                         a.size = 0;
                                         edited = true;
                                     }
                     ASSERT_TRUE(edited) << "the traced tiled kernel logged no local store with its value";
                 }),
                 "a store of 0 bytes");
    // Global and local lists of different lengths; 4 and 5 dimensions.
    EXPECT_NAMES(refusal_of([](TraceFile& f) { f.launch.kernel.local.pop_back(); }), "launch.kernel.local");
    EXPECT_NAMES(refusal_of([](TraceFile& f) { f.launch.kernel.global.push_back("1"); }), "launch.kernel.local");
    for (int extra : {2, 3})
        EXPECT_NAMES(refusal_of([&](TraceFile& f) {
                         for (int i = 0; i < extra; ++i) {
                             f.launch.kernel.global.push_back("1");
                             f.launch.kernel.local.push_back("1");
                         }
                     }),
                     "launch.kernel.global: " + std::to_string(2 + extra) + " sizes; accepted: 1 to 3");
    // Check names and the argument list missing.
    EXPECT_NAMES(refusal_of([](TraceFile& f) { f.launch.kernel.check = CheckSpec{"", "", ""}; }), "launch.kernel.check");
    EXPECT_NAMES(refusal_of([](TraceFile& f) { f.launch.kernel.check->a = "nowhere"; }), "launch.kernel.check");
    EXPECT_NAMES(refusal_of([](TraceFile& f) { f.launch.kernel.args.clear(); }), "launch.kernel.args: none");
}

TEST(SavedLaunch, EveryFieldIsCheckedAgainstTheOthers) {
    // an argument the kernel function has no parameter for, and a parameter left unbound
    EXPECT_NAMES(refusal_of([](TraceFile& f) { f.launch.kernel.args.front().name = "Q"; }), "has no parameter of that name");
    EXPECT_NAMES(refusal_of([](TraceFile& f) { f.launch.kernel.args.pop_back(); }), "none for parameter");
    EXPECT_NAMES(refusal_of([](TraceFile& f) { f.launch.kernel.args.push_back(f.launch.kernel.args.front()); }), "given twice");
    // a local size that does not divide its global size, one of 0, a group past 1024 items
    EXPECT_NAMES(refusal_of([](TraceFile& f) { f.launch.kernel.local[0] = "3"; }), "launch.kernel.local[0]");
    EXPECT_NAMES(refusal_of([](TraceFile& f) { f.launch.kernel.local[1] = "0"; }), "launch.kernel.local[1]");
    EXPECT_NAMES(refusal_of([](TraceFile& f) {
                     f.launch.kernel.local = {"64", "32"};
                     f.launch.kernel.global = {"64", "32"};
                 }),
                 "launch.kernel.local");
    // an expression that does not parse, an entry the source lacks, a parameter the kernel lacks
    EXPECT_NAMES(refusal_of([](TraceFile& f) { f.launch.kernel.global[0] = "N+"; }), "launch.kernel.global[0]");
    EXPECT_NAMES(refusal_of([](TraceFile& f) { f.launch.kernel.entry = "elsewhere"; }), "launch.kernel.entry");
    EXPECT_NAMES(refusal_of([](TraceFile& f) { f.launch.params["NOPE"] = 1; }), "launch.params 'NOPE'");
    // a matrix of no cells, an NDRange other than the one traced
    EXPECT_NAMES(refusal_of([](TraceFile& f) {
                     for (ArgSpec& a : f.launch.kernel.args)
                         if (a.name == f.launch.kernel.check->a) a.rows = "M-M";
                 }), "launch.kernel.args");
    EXPECT_NAMES(refusal_of([](TraceFile& f) { f.launch.kernel.global = {"N", "M*2"}; }), "launch.kernel.global");
    // the file's own launch is accepted as it was saved
    EXPECT_TRUE(parse_trace_file(serialize_trace_file(tiled32()), "ok.tstrace") == tiled32());
}

// A session-57 tester's files, each resealed: the trace's own copies of its kernel, parameters
// and flops said another kernel than the launch (the page then judged tiled's counts by naive's
// closed forms), "verified" sat beside a C of wrong cells or NaNs, an access named source line
// 2^31 (past any source), and a launch of a
// library's GEMM, which nothing can trace, skipped every check of its NDRange.
TEST(SavedLaunch, TheTracesOwnCopiesOfItsLaunchAreTheLaunchs) {
    EXPECT_NAMES(refusal_of([](TraceFile& f) { f.trace.kernel = "naive"; }), "trace.kernel: 'naive', but the launch's kernel is 'tiled'");
    EXPECT_NAMES(refusal_of([](TraceFile& f) { f.trace.custom = true; }), "trace.custom");
    EXPECT_NAMES(refusal_of([](TraceFile& f) { f.trace.entry = "naive"; }), "trace.entry");
    EXPECT_NAMES(refusal_of([](TraceFile& f) { f.trace.params["WPT"] = 8; }), "trace.params: WPT=8, but the launch's in effect are");
    EXPECT_NAMES(refusal_of([](TraceFile& f) { f.trace.totals.flops = 1e300; }), "trace.flops");
    EXPECT_NAMES(refusal_of([](TraceFile& f) { f.launch.kernel.library = "clblast"; }), "launch.kernel.library");
    EXPECT_NAMES(refusal_of([](TraceFile& f) { f.launch.params_source = std::string(100000, 'x'); }), "launch.params_source");
    EXPECT_NAMES(refusal_of([](TraceFile& f) {
                     ASSERT_TRUE(f.trace.verification && f.trace.verification->verified);
                     f.trace.wrong_cells.push_back({1, 2});
                 }),
                 "true, but the trace lists 1 wrong cells");
    EXPECT_NAMES(refusal_of([](TraceFile& f) {
                     ASSERT_TRUE(f.trace.result && !f.trace.result->data.empty());
                     f.trace.result->data[5] = std::nanf("");
                 }),
                 "a NaN or an infinity");
    EXPECT_NAMES(refusal_of([&](TraceFile& f) {
                     bool edited = false;
                     for (GroupTrace& g : f.trace.detail)
                         for (BarrierInterval& in : g.intervals)
                             for (WorkItemAccesses& w : in.access_log)
                                 for (MemoryAccess& a : w.accesses)
                                     if (!edited && !a.local() && a.store()) {
                                         a.line = 0x7ffffff0u;
                                         edited = true;
                                     }
                     ASSERT_TRUE(edited) << "the traced tiled kernel logged no global store";
                 }),
                 "an access at line 2147483632");
}

// A launch no trace could be made of: tiled at 2048^3 with the race check needs about 9 GB on the
// emulator (its shadow of the matrices), which refuses it; a file declaring it, every field made
// consistent, is refused too (a tester's 3.6 KB file at 8192^3 made the GUI paint 2^26-cell grids).
TEST(SavedLaunch, ALaunchTooLargeForAnyTraceIsRefused) {
    const std::string why = refusal_of([](TraceFile& f) {
        const int64_t n = 2048;
        f.launch.size = f.trace.size = {n, n, n};
        for (TracedBuffer& b : f.trace.buffers) {
            b.rows = b.cols = n;
            b.elements = uint64_t(n * n);
            b.load_counts.clear();
            b.store_counts.clear();
            b.distinct_elements_loaded = b.distinct_elements_stored = 0;
        }
        const uint64_t local = f.trace.local[0];
        f.trace.global = {uint64_t(n), uint64_t(n), 1};
        f.trace.groups = {uint64_t(n) / local, uint64_t(n) / f.trace.local[1], 1};
        f.trace.totals.flops = 2.0 * double(n) * double(n) * double(n);
        f.trace.result.reset();
        f.trace.verification.reset();
        f.trace.wrong_cells.clear();
    });
    EXPECT_NAMES(why, "launch.size: 2048: a trace of 'tiled' there needs about");
    EXPECT_NAMES(why, "no trace of it could be made");
}

TEST(SavedLaunch, ALocalStoreOfNoFloatsIsRefused) {
    // A kernel with a __local argument (tests/hardening/data/local_arg.cl), its size 0.
    CustomKernelOptions o;
    o.source_path = std::string(TILESCOPE_HARDENING_DATA) + "/local_arg.cl";
    o.entry = "with_local";
    o.global = {"16"};
    o.local = {"16"};
    o.args = {"C=matrix:1x16:out", "t=local:TS"};
    LaunchConfig c{load_custom_kernel(o), {16, 16, 16}, 16};
    EXPECT_NO_THROW(validate_launch(c));
    c.kernel.args[1].value = "TS-16";
    try {
        validate_launch(c);
        ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
        EXPECT_NAMES(std::string(e.what()), "launch.kernel.args 't': a local store of 0 floats");
    }
}

TEST(SavedLaunch, ResolveRefusesAMalformedSpecInsteadOfCrashing) {
    // What the GUI's resolve() met in a file: every other path that resolves a spec is safe too.
    for (const std::function<void(KernelSpec&)>& edit : std::vector<std::function<void(KernelSpec&)>>{
             [](KernelSpec& k) { k.local.pop_back(); },
             [](KernelSpec& k) { k.global = k.local = {"1", "1", "1", "1", "1"}; },
             [](KernelSpec& k) { k.global.clear(); k.local.clear(); },
             [](KernelSpec& k) { k.check = CheckSpec{"", "", ""}; },
         }) {
        LaunchConfig c{*find_kernel("tiled"), {32, 32, 32}, 8};
        edit(c.kernel);
        EXPECT_THROW(resolve(c), InputError);
    }
}

TEST(SavedLaunch, TheReplayReadsNoWordAStoreDoesNotCarry) {
    // Past the reader (a trace made in memory): the replay itself stays inside the words kept.
    Trace t = tiled32().trace;
    for (GroupTrace& g : t.detail)
        for (BarrierInterval& in : g.intervals)
            for (WorkItemAccesses& w : in.access_log) {
                for (MemoryAccess& a : w.accesses)
                    if (a.has_value()) a.size = 0;
                w.stored_words.clear();
            }
    ASSERT_FALSE(t.detail.empty());
    const frame_replay::GroupReplay r = frame_replay::replay(t, matrix_roles(t), t.detail.front());
    EXPECT_TRUE(r.has_log);
}

TEST(KernelParameters, NamesAreReadFromTheEntrysDefinition) {
    const std::string src =
        "// void k(int commented)\n"
        "#define TS 4\n"
        "__kernel __attribute__((reqd_work_group_size(4, 4, 1)))\n"
        "void k(__global const float* restrict A, /* int B */ const int N,\n"
        "       __local float t[TS*TS], __global float *C) { }\n"
        "__kernel void other(void) { }\n";
    EXPECT_EQ(kernel_parameter_names(src, "k"), (std::vector<std::string>{"A", "N", "t", "C"}));
    EXPECT_EQ(kernel_parameter_names(src, "other"), std::vector<std::string>{});
    EXPECT_EQ(kernel_parameter_names(src, "missing"), std::nullopt);
    EXPECT_EQ(kernel_parameter_names(src, "commented"), std::nullopt);
    // every rung's arguments are its kernel function's parameters
    for (const std::vector<KernelSpec>* list : {&ladder(), &exercises()})
        for (const KernelSpec& k : *list)
            if (k.library.empty()) EXPECT_NO_THROW(validate_launch(LaunchConfig{k, {64, 64, 64}, k.default_tile})) << k.name;
}

TEST(CarriedKernel, AFilesOwnSourceIsMarkedAndRunsNowhereUntilTrusted) {
    // the catalog's rung, as saved: not carried
    EXPECT_TRUE(parse_trace_file(serialize_trace_file(tiled32()), "own.tstrace").launch.kernel.carried_by.empty());
    // a rung's name around other source, or other arguments: carried by the file
    TraceFile edited = tiled32();
    edited.launch.kernel.source += "\n// changed\n";
    EXPECT_EQ(parse_trace_file(serialize_trace_file(edited), "--open 'e.tstrace'").launch.kernel.carried_by, "--open 'e.tstrace'");
    // a custom kernel: carried; refused by the trace runner and by every device's runner
    const std::string path = tilescope::testing::carried_kernel_trace(scratch(), "oob.tstrace",
                                                           tilescope::testing::slurp_text(std::string(TILESCOPE_HARDENING_DATA) + "/out_of_bounds.cl"));
    const LaunchConfig c = load_trace_file(path, "--open").launch;
    EXPECT_NE(c.kernel.carried_by.find("oob.tstrace"), std::string::npos);
    EXPECT_FALSE(c.kernel.trusted);
    auto refused = [&](const std::function<void()>& f) {
        try {
            f();
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    const std::string traced = refused([&] { run_trace(c); });
    EXPECT_NAMES(traced, "--trust-source");
    EXPECT_NAMES(traced, "oob.tstrace");
    for (const DeviceInfo& d : all_devices()) {
        Runner runner(d);
        RunOptions ro;
        ro.reps = 1;
        ro.warmup = 0;
        EXPECT_NAMES(refused([&] { runner.measure(c, ro); }), "--trust-source");
        EXPECT_NAMES(refused([&] { runner.run_once(c); }), "--trust-source");
        EXPECT_NAMES(refused([&] { runner.validate(c); }), "--trust-source");
        if (!d.is_emulator) {  // trusted, it still never runs in this process on a real device
            LaunchConfig trusted = c;
            trusted.kernel.trusted = true;
            EXPECT_NAMES(refused([&] { runner.run_once(trusted); }), "only in a child process");
        }
    }
}

// Issue 32, item 6: a file's bad argument is named by its field, not as the option `--arg`,
// which the user never typed.
TEST(SavedLaunch, ABadArgumentIsNamedByItsFieldNotByAnOption) {
    const std::string what = refusal_of([](TraceFile& t) { t.launch.kernel.args[1].name = "not a name"; });
    EXPECT_NAMES(what, "launch.kernel.args[1] 'not a name=");
    EXPECT_EQ(what.find("--arg"), std::string::npos) << what;
}

namespace {

// `tiled32()` with its CBOR document edited by `edit` and resealed with a valid checksum,
// as a hostile author would: what the reader says of it.
std::string refusal_of_document(const std::function<void(nlohmann::json&)>& edit) {
    const std::string bytes = serialize_trace_file(tiled32());
    const size_t second = bytes.find('\n', bytes.find('\n') + 1);
    const std::string body = bytes.substr(second + 1);
    nlohmann::json doc = nlohmann::json::from_cbor(body);
    edit(doc);
    const std::vector<uint8_t> cbor = nlohmann::json::to_cbor(doc);
    const std::string new_body(cbor.begin(), cbor.end());
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a64(new_body)));
    const std::string sealed =
        bytes.substr(0, bytes.find('\n') + 1) + "fnv1a64 " + hex + " " + std::to_string(new_body.size()) + "\n" + new_body;
    try {
        parse_trace_file(sealed, "hostile.tstrace");
    } catch (const InputError& e) {
        return e.what();
    }
    ADD_FAILURE() << "accepted";
    return {};
}

}  // namespace

TEST(LibraryText, AFilesWrongTypeOrMissingFieldIsSaidInOurWordsNotTheLibrarys) {
    // Issue 32 item 6: nlohmann's "[json.exception.type_error.302] type must be number, but is
    // string" never reaches the user; the file and what it held do.
    const std::string wrong_type = refusal_of_document([](nlohmann::json& d) { d["trace"]["seconds"] = "soon"; });
    EXPECT_EQ(wrong_type.rfind("hostile.tstrace: damaged trace file (a string where a number belongs)", 0), 0u) << wrong_type;
    const std::string missing = refusal_of_document([](nlohmann::json& d) { d["trace"].erase("seconds"); });
    EXPECT_EQ(missing.rfind("hostile.tstrace: damaged trace file (no field 'seconds')", 0), 0u) << missing;
    for (const std::string& m : {wrong_type, missing}) EXPECT_EQ(m.find("json.exception"), std::string::npos) << m;

    try {
        parse_lesson("{\"title\": \"t\", \"steps\": [}", "--lesson 'l.json'");
        ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
        EXPECT_STREQ(e.what(), "--lesson 'l.json': not JSON (not valid at byte 26)");
    }
}

TEST(LibraryText, AnUnexpectedFailureNamesWhatWasGivenNotTheLibrarysText) {
    // The command line's last catch (cli/main_cli.cpp): a library exception no reader turned
    // into an InputError is said as what the user gave and what went wrong, in our words.
    try {
        (void)nlohmann::json("caf\xe9").dump();
        ADD_FAILURE() << "no exception";
    } catch (const nlohmann::json::exception& e) {
        const std::string m = unexpected_failure({"--open", "caf\xe9.tstrace"}, e);
        EXPECT_NE(m.find("what was given (--open"), std::string::npos) << m;
        EXPECT_NE(m.find("text that is not valid UTF-8"), std::string::npos) << m;
        EXPECT_EQ(m.find("json.exception"), std::string::npos) << m;
        EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    }
    try {
        (void)std::string("abc").substr(9);
        ADD_FAILURE() << "no exception";
    } catch (const std::exception& e) {
        const std::string m = unexpected_failure({"export", "x"}, e);
        EXPECT_NE(m.find("an unexpected failure"), std::string::npos) << m;
        EXPECT_EQ(m.find("basic_string"), std::string::npos) << m;
    }
}

TEST(LibraryText, TheGuisCatchesKeepOurWordsAndSayALibrarysInOurs) {
    // The window's outputs (--screenshot, --text, the control file's state/text/screenshot,
    // F12) end no process; their catches say our own errors as they are and anything else
    // as the output named and what went wrong, never the library's text.
    EXPECT_EQ(said_plainly(OutputError("--text 'x.txt': the disk is full; nothing was written"), "--text 'x.txt'"),
              "--text 'x.txt': the disk is full; nothing was written");
    const std::filesystem::filesystem_error fs("filesystem error: cannot rename", std::filesystem::path("/nowhere/shot.png"),
                                               std::make_error_code(std::errc::no_such_file_or_directory));
    const std::string m = said_plainly(fs, "--screenshot 'shot.png'");
    EXPECT_EQ(m.rfind("--screenshot 'shot.png': a file operation on '/nowhere/shot.png' failed", 0), 0u) << m;
    EXPECT_EQ(m.find("filesystem error"), std::string::npos) << m;
    try {
        (void)std::string("abc").substr(9);
        ADD_FAILURE() << "no exception";
    } catch (const std::exception& e) {
        EXPECT_EQ(said_plainly(e, "F12 screenshot 'a.png'"), "F12 screenshot 'a.png': an unexpected failure");
    }
}

TEST(LibraryText, ALessonsGroupOutsideItsNdRangeNamesTheStepNotAnOption) {
    // Round 3's find: export said "--groups 9,0: ..." and the GUI "--group 9,0: ..." for a
    // lesson's state; the user typed --lesson. The lesson's reader now checks the group.
    const std::string lesson = R"({"title": "t", "steps": [{"title": "s", "state": {"kernel": "tiled", "size": "32", "tile": 8,
                                   "group": [9, 0]}, "script": "x"}]})";
    try {
        parse_lesson(lesson, "--lesson 'g.json'");
        ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
        EXPECT_STREQ(e.what(), "--lesson 'g.json', step 1: state key 'group' [9,0] lies outside the step's 4x4 work-groups; "
                               "accepted: X < 4, Y < 4");
    }
    std::string inside = lesson;
    inside.replace(inside.find("[9, 0]"), 6, "[3, 3]");
    EXPECT_NO_THROW(parse_lesson(inside, "--lesson 'g.json'"));
}

TEST(LibraryText, ALessonsTileOrCompareTheEmulatorCannotRunNamesTheStepNotAnOption) {
    // Round 3's finds: the GUI said "--tile 1000: kernel 'reg2d' needs work-groups of 62500
    // work-items ..." and "--compare '0': ..." for a lesson's state.
    const auto refusal = [](const std::string& state) {
        try {
            parse_lesson(R"({"title": "t", "steps": [{"title": "s", "state": {)" + state + R"(}, "script": "x"}]})", "--lesson 'q.json'");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(refusal(R"("kernel": "reg2d", "size": "32", "tile": 1000)"),
              "--lesson 'q.json', step 1: state key 'tile': kernel 'reg2d' at tile 1000 needs work-groups of 62500 work-items; "
              "accepted: a tile whose work-groups have at most 1024 (the emulator's limit)");
    EXPECT_EQ(refusal(R"("kernel": "tiled", "size": "32", "compare": "naive:0")"),
              "--lesson 'q.json', step 1: state key 'compare': tile 0; accepted: a tile from 1 to 1024");
    EXPECT_EQ(refusal(R"("kernel": "tiled", "size": "32", "compare": "naive:4")"), "accepted");
}

// Session 50's round of files that pass every check: each is refused, or read as safe.
TEST(SavedLaunch, ARungsCandidateListsComeFromTheCatalogNeverFromTheFile) {
    // The file named a point the catalog does not list (it crashed PoCL in-process) and added
    // it to its own copy of the rung's candidate tiles and values, so the point looked known
    // and skipped the child process that tries unknown points first.
    TraceFile f = tiled32();
    f.launch.kernel.tiles.push_back(1024);
    f.launch.kernel.default_tile = 1024;
    const LaunchConfig read = parse_trace_file(serialize_trace_file(f), "lists.tstrace").launch;
    const KernelSpec& catalog = *find_kernel("tiled");
    EXPECT_TRUE(read.kernel.carried_by.empty());  // the rung's source and launch: the catalog's rung
    EXPECT_EQ(read.kernel.tiles, catalog.tiles);
    EXPECT_EQ(read.kernel.default_tile, catalog.default_tile);
    // and the trial is decided from the catalog's lists whatever a config carries
    DeviceInfo cpu;
    cpu.is_cpu = true;
    LaunchConfig point = read;
    point.tile = 1024;
    point.kernel.tiles.push_back(1024);
    EXPECT_TRUE(needs_contained_trial(point, cpu));
    point.tile = catalog.default_tile;
    EXPECT_FALSE(needs_contained_trial(point, cpu));
}

TEST(SavedLaunch, NumbersThatWrapOrAreNotNumbersAndBuffersOfAnotherShapeAreRefused) {
    // 2^32 + 4 was read as tile 4; a NaN error as "verified: max relative error nan".
    EXPECT_NAMES(refusal_of_document([](nlohmann::json& d) { d["launch"]["tile"] = (uint64_t(1) << 32) + 8; }),
                 "4294967304 where a number belongs; accepted: a whole number from -2147483648 to 2147483647");
    EXPECT_NAMES(refusal_of_document([](nlohmann::json& d) { d["trace"]["dims"] = 2.5; }), "a fraction where a number belongs");
    EXPECT_NAMES(refusal_of_document([](nlohmann::json& d) { d["launch"]["params"]["TS"] = "8"; }), "a string where parameter 'TS'");
    EXPECT_NAMES(refusal_of([](TraceFile& f) { f.trace.verification->max_rel_error = std::nan(""); }),
                 "trace.verification max_rel_error");
    EXPECT_NAMES(refusal_of([](TraceFile& f) { f.trace.verification->max_rel_error = 1.0; }),
                 "trace.verification verified: true, but the error");
    // a launch at a size its buffers were never traced at (the file claimed 8192^3 with 16 x 16 buffers)
    EXPECT_NAMES(refusal_of([](TraceFile& f) {
                     TracedBuffer& a = f.trace.buffers.front();
                     a.rows = 16;
                     a.elements = 16 * 32;
                     a.load_counts.clear();
                     a.store_counts.clear();
                     a.distinct_elements_loaded = std::min<uint64_t>(a.distinct_elements_loaded, a.elements);
                     f.trace.detail.clear();
                 }),
                 "trace.buffers A: 16 x 32, but the launch's A is 32 x 32");
    EXPECT_NAMES(refusal_of([](TraceFile& f) {
                     f.trace.detail.clear();
                     f.trace.buffers.front().name = "Q";
                 }),
                 "no buffer for the launch's matrix A");
    // a group that ran through no interval left the views no part to open
    EXPECT_NAMES(refusal_of([](TraceFile& f) { f.trace.detail.front().intervals.clear(); }), "intervals: none");
}

TEST(LessonHostileValues, EveryStateValueIsCheckedWhenTheLessonIsRead) {
    const auto refusal = [](const std::string& state, const std::string& question = "") {
        try {
            parse_lesson(R"({"title": "t", "steps": [{"title": "s", "state": {)" + state + R"(}, "script": "x")" +
                             (question.empty() ? "" : R"(, "question": )" + question) + "}]}",
                         "--lesson 'v.json'");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    const std::string base = R"("kernel": "tiled", "size": "32", "tile": 8, )";
    EXPECT_EQ(refusal(base + R"("view": "\u001b[2Jbogus")"),
              "--lesson 'v.json', step 1: state key 'view' must be a view: emulation, heatmap, source, performance, compare, ladder");
    EXPECT_EQ(refusal(base + R"("part": "usage")"),
              "--lesson 'v.json', step 1: state key 'part' must be a part's name: load, use, 'load + use', store, compute");
    EXPECT_EQ(refusal(base + R"("naming": "<script>")"), "--lesson 'v.json', step 1: state key 'naming' must be \"slides\" or \"abc\"");
    EXPECT_NAMES(refusal(base + R"("device": "\u001b[2J")"), "state key 'device' holds a control character");
    EXPECT_NAMES(refusal(base + R"("phase": -9223372036854775808)"), "state key 'phase' must be an integer from 0 to 16777216");
    EXPECT_NAMES(refusal(base + R"("iteration": 16777217)"), "state key 'iteration' must be an integer from 0 to 16777216");
    EXPECT_NAMES(refusal(base + R"("phase": 1, "interval": 2)"), "give one of them");
    EXPECT_EQ(refusal(base + R"("item": [2147483647, 0])"),
              "--lesson 'v.json', step 1: state key 'item' [2147483647,0] lies outside the step's work-groups of 8x8 work-items; "
              "accepted: X < 8, Y < 8");
    EXPECT_EQ(refusal(R"("kernel": "clblast", "size": "32")"),
              "--lesson 'v.json', step 1: state key 'kernel': kernel 'clblast' is a library call (clblast), which the emulator "
              "cannot trace; accepted: a ladder rung or an exercise");
    EXPECT_NAMES(refusal(base + R"("compare": "clblast:8")"), "state key 'compare': kernel 'clblast' is a library call");
    EXPECT_EQ(refusal(base + R"("view": "emulation")", R"({"text": "q", "quantity": "traffic_factor"})"),
              "--lesson 'v.json', step 1: question quantity 'traffic_factor' compares two set-ups; accepted with a state key "
              "'compare' (\"KERNEL:TILE\")");
    // what the shipped lessons say stays accepted
    EXPECT_EQ(refusal(base + R"("view": "load + use")"), refusal(base + R"("view": "nope")"));
    EXPECT_EQ(refusal(base + R"("part": "load + use", "phase": 3, "item": [7, 7], "naming": "abc", "device": "pocl", "view": "heatmap")"),
              "accepted");
    EXPECT_EQ(refusal(base + R"("compare": "naive:8")", R"({"text": "q", "quantity": "traffic_factor"})"), "accepted");
}
