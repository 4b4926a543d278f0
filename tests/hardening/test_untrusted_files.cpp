// Issue 23, "Files from other people": every reader bounded before it reads, a saved trace
// validated (and checksummed) before use, outputs that never replace what they should not.
// Each test feeds the issue's own hostile file and asserts one InputError line naming the
// file and the field.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>

#include "core/base/atomic_file.h"
#include "core/base/errors.h"
#include "core/base/untrusted_file.h"
#include "core/caches/cache_trace.h"
#include "core/emulator/trace_runner.h"
#include "core/io/html_export.h"
#include "core/io/trace_file.h"
#include "core/io/trace_file_check.h"
#include "core/kernel/catalog.h"
#include "core/tasks/caches.h"
#include "core/teach/lesson.h"
#include "core/tuning/tuning.h"

using namespace tilescope;
namespace fs = std::filesystem;

namespace {

std::string temp_dir() {
    static const std::string dir = [] {
        std::string d = (fs::temp_directory_path() / ("ts-untrusted-" + std::to_string(getpid()))).string();
        fs::create_directories(d);
        return d;
    }();
    return dir;
}

void write(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// The message of the InputError `f` throws, or "" (a failure) when it throws none.
template <class F>
std::string refusal(F f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    ADD_FAILURE() << "accepted";
    return {};
}

void expect_one_line(const std::string& what) {
    EXPECT_FALSE(what.empty());
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_LE(what.size(), 600u) << what;
}

const TraceFile& tiled32() {
    static const TraceFile file = [] {
        TraceFile f;
        f.launch = LaunchConfig{*find_kernel("tiled"), {32, 32, 32}, 8};
        f.trace = run_trace(f.launch);
        return f;
    }();
    return file;
}

// A version-2 file around any CBOR body, with the right checksum: what a hostile author
// can always write.
std::string with_header(const std::string& body) {
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a64(body)));
    return "tilescope trace file, version 2\nfnv1a64 " + std::string(hex) + " " + std::to_string(body.size()) + "\n" + body;
}

// The refusal of `file` after `edit`, serialized with a valid checksum.
template <class Edit>
std::string refusal_of_edit(Edit edit) {
    TraceFile f = tiled32();
    edit(f);
    const std::string bytes = serialize_trace_file(f);
    const std::string what = refusal([&] { parse_trace_file(bytes, "x.tstrace"); });
    expect_one_line(what);
    EXPECT_EQ(what.rfind("x.tstrace", 0), 0u) << what;
    return what;
}

}  // namespace

TEST(UntrustedFile, FifoDeviceDirectoryAndOversizeAreRefusedBeforeReading) {
    const std::string fifo = temp_dir() + "/fifo";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_NE(refusal([&] { read_untrusted_file(fifo, 1024, "F"); }).find("is a FIFO"), std::string::npos);
    EXPECT_NE(refusal([&] { read_untrusted_file("/dev/zero", 1024, "F"); }).find("character device"), std::string::npos);
    EXPECT_NE(refusal([&] { read_untrusted_file(temp_dir(), 1024, "F"); }).find("directory"), std::string::npos);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2));  // no blocking on the FIFO
    write(temp_dir() + "/big", std::string(5000, 'x'));
    const std::string what = refusal([&] { read_untrusted_file(temp_dir() + "/big", 4096, "F 'big'"); });
    EXPECT_NE(what.find("5,000 bytes; accepted: a file of at most 4 KiB"), std::string::npos) << what;
    // The head check refuses a file of the wrong kind from its first bytes.
    int seen = 0;
    EXPECT_THROW(read_untrusted_file(temp_dir() + "/big", 1 << 20, "F",
                                     [&](std::string_view head) {
                                         seen = int(head.size());
                                         throw InputError("not mine");
                                     }),
                 InputError);
    EXPECT_EQ(seen, 256);
    EXPECT_EQ(read_untrusted_file_or_empty(temp_dir() + "/missing", 10, "F"), "");
}

TEST(UntrustedFile, JsonDepthIsMeasuredWithoutRecursion) {
    EXPECT_EQ(json_depth(R"({"a": [1, {"b": "[[[[["}]})", 64), 3);
    const std::string deep = std::string(1'000'000, '[') + std::string(1'000'000, ']');
    EXPECT_EQ(json_depth(deep, 64), 65);
    EXPECT_THROW(check_json_depth(deep, 64, "L"), InputError);
}

TEST(UntrustedFile, CborChecksDepthLengthsAndUtf8) {
    std::string deep;
    for (int i = 0; i < 100'000; ++i) deep += "\xa1\x61\x61";
    EXPECT_NE(refusal([&] { check_cbor(deep, 32, "T"); }).find("nested deeper than 32"), std::string::npos);
    EXPECT_NE(refusal([&] { check_cbor("\x62\xff\xfe", 32, "T"); }).find("UTF-8"), std::string::npos);
    EXPECT_NE(refusal([&] { check_cbor(std::string_view("\x9b\x00\x00\x00\x01\x00\x00\x00\x00", 9), 32, "T"); }).find("longer than the file"),
              std::string::npos);
    EXPECT_NE(refusal([&] { check_cbor("\x01\x02", 32, "T"); }).find("trailing"), std::string::npos);
    EXPECT_NO_THROW(check_cbor("\xa1\x61\x61\x9f\x01\xff", 32, "T"));
    EXPECT_FALSE(valid_utf8("\xed\xa0\x80"));  // a surrogate
    EXPECT_TRUE(valid_utf8("phase \xe2\x86\x92 tile"));
}

TEST(TraceFileHostile, DeeplyNestedCborIsRefusedNotASegfault) {
    std::string deep;
    for (int i = 0; i < 100'000; ++i) deep += "\xa1\x61\x61";
    for (const std::string& bytes : {with_header(deep), "tilescope trace file, version 1\n" + deep}) {
        const std::string what = refusal([&] { parse_trace_file(bytes, "deep.tstrace"); });
        expect_one_line(what);
        EXPECT_NE(what.find("nested deeper"), std::string::npos) << what;
    }
}

TEST(TraceFileHostile, EveryFlippedByteIsRefusedByTheChecksum) {
    const std::string bytes = serialize_trace_file(tiled32());
    std::mt19937_64 rng(23);
    int accepted = 0;
    for (int i = 0; i < 2500; ++i) {
        std::string flipped = bytes;
        const size_t at = rng() % flipped.size();
        flipped[at] = char(flipped[at] ^ (1 << (rng() % 8)));
        try {
            parse_trace_file(flipped, "f.tstrace");
            ++accepted;
        } catch (const InputError&) {
        }
    }
    EXPECT_EQ(accepted, 0);
}

TEST(TraceFileHostile, TheIssuesSemanticEditsNameTheField) {
    EXPECT_NE(refusal_of_edit([](TraceFile& f) { f.trace.detail.front().size = {65536, 65536, 1}; }).find("size"),
              std::string::npos);
    EXPECT_NE(refusal_of_edit([](TraceFile& f) {
                  f.trace.detail.front().intervals.front().buffers.front().loaded.push_back(
                      Rect{-(int64_t(1) << 62), 0, int64_t(1) << 62, 5});
              }).find("rectangle"),
              std::string::npos);
    EXPECT_NE(refusal_of_edit([](TraceFile& f) {
                  TracedBuffer& c = f.trace.buffers.back();
                  c.rows = c.cols = int64_t(1) << 32;
                  c.elements = 0;
                  c.load_counts.clear();
                  c.store_counts.clear();
              }).find("shape"),
              std::string::npos);
    EXPECT_NE(refusal_of_edit([](TraceFile& f) { f.trace.local_buffers.push_back({"huge", 20000 * 20000 * 4, 20000, 20000}); })
                  .find("local_buffers"),
              std::string::npos);
    EXPECT_NE(refusal_of_edit([](TraceFile& f) { f.trace.seconds = std::nan(""); }).find("seconds"), std::string::npos);
    EXPECT_NE(refusal_of_edit([](TraceFile& f) { f.trace.tile = 0; }).find("tile"), std::string::npos);
    EXPECT_NE(refusal_of_edit([](TraceFile& f) { f.trace.size.M = -1; }).find("size M"), std::string::npos);
    {
        // Issue 32: the writer stores invalid bytes as U+FFFD, so what it writes reads back;
        // a hostile author's raw invalid UTF-8 (checksum right) is still refused.
        TraceFile f = tiled32();
        f.trace.device = "bad \xff\xfe name";  // free text (the kernel's name must be the launch's)
        const TraceFile back = parse_trace_file(serialize_trace_file(f), "x.tstrace");
        EXPECT_EQ(back.trace.device, "bad \xef\xbf\xbd\xef\xbf\xbd name");
        const std::string saved = serialize_trace_file(tiled32());
        std::string body = saved.substr(saved.find('\n', saved.find('\n') + 1) + 1);
        const size_t at = body.find("tiled");
        ASSERT_NE(at, std::string::npos);
        body[at] = '\xff';
        const std::string what = refusal([&] { parse_trace_file(with_header(body), "x.tstrace"); });
        EXPECT_NE(what.find("UTF-8"), std::string::npos) << what;
    }
    EXPECT_NE(refusal_of_edit([](TraceFile& f) { f.trace.wrong_cells.push_back({40, 0}); }).find("wrong_cells"),
              std::string::npos);
    EXPECT_NE(refusal_of_edit([](TraceFile& f) {
                  f.trace.detail.front().intervals.front().buffers.front().loads.push_back({1u << 30, 0});
              }).find("loads"),
              std::string::npos);
    EXPECT_NE(refusal_of_edit([](TraceFile& f) { f.trace.groups[0] = 1000; }).find("groups"), std::string::npos);
    // The untouched trace still reads back equal.
    EXPECT_TRUE(parse_trace_file(serialize_trace_file(tiled32()), "ok") == tiled32());
}

// Issue 24, item 4: the cache model's report travels with the trace. Traced with its
// requests and modelled with the h200 profile, as `trace --caches h200 --save` does.
const TraceFile& tiled32_caches() {
    static const TraceFile file = [] {
        TraceFile f;
        f.launch = LaunchConfig{*find_kernel("tiled"), {32, 32, 32}, 8};
        TraceOptions to;
        to.checks = false;
        to.cache_requests = true;
        f.trace = run_trace(f.launch, to);
        f.trace.caches = model_trace_caches(f.trace, load_cache_profile("h200"));
        f.trace.cache_requests.reset();  // not saved: the file holds the report, not the requests
        return f;
    }();
    return file;
}

std::string caches_refusal(const std::function<void(CacheReport&)>& edit) {
    TraceFile f = tiled32_caches();
    edit(*f.trace.caches);
    const std::string what = refusal([&] { parse_trace_file(serialize_trace_file(f), "c.tstrace"); });
    expect_one_line(what);
    EXPECT_EQ(what.rfind("c.tstrace", 0), 0u) << what;
    return what;
}

TEST(TraceFileCaches, TheReportAndItsProfileReadBackAsSaved) {
    const TraceFile& saved = tiled32_caches();
    ASSERT_TRUE(saved.trace.caches);
    ASSERT_GT(saved.trace.caches->totals.l1_sectors, 0u);
    ASSERT_FALSE(saved.trace.caches->lines.empty());
    ASSERT_FALSE(saved.trace.caches->dram_reads.empty());
    const TraceFile loaded = parse_trace_file(serialize_trace_file(saved), "rt.tstrace");
    ASSERT_TRUE(loaded.trace.caches);
    EXPECT_EQ(*loaded.trace.caches, *saved.trace.caches);  // every count, per buffer and line, params, profile
    EXPECT_EQ(loaded.trace.caches->profile, "h200");
    EXPECT_TRUE(loaded == saved);
    // What the GUI's memory hierarchy asks for: the saved report under its profile, no OpenCL;
    // another profile is refused in one sentence naming the saved one.
    const tasks::CacheModelOutcome same = tasks::model_caches(loaded.trace, "h200");
    ASSERT_TRUE(same.report) << same.error;
    EXPECT_EQ(*same.report, *saved.trace.caches);
    const tasks::CacheModelOutcome other = tasks::model_caches(loaded.trace, "teaching");
    EXPECT_FALSE(other.report);
    EXPECT_NE(other.error.find("h200"), std::string::npos) << other.error;
    // The hand-out embeds the same figures.
    const nlohmann::json page = handout_data(loaded);
    ASSERT_TRUE(page["caches"].is_object());
    EXPECT_EQ(page["caches"]["profile"], "h200");
    EXPECT_EQ(page["caches"]["totals"]["l2_sectors"].get<uint64_t>(), saved.trace.caches->totals.l2_sectors);
    // A trace saved without a report (as every file before issue 24) still reads, with none.
    const TraceFile plain = parse_trace_file(serialize_trace_file(tiled32()), "plain.tstrace");
    EXPECT_FALSE(plain.trace.caches);
    EXPECT_TRUE(handout_data(plain)["caches"].is_null());
}

TEST(TraceFileCaches, ADamagedReportIsRefusedNamingTheField) {
    const auto names = [](const std::string& what, const std::string& field) {
        EXPECT_NE(what.find(field), std::string::npos) << "expected '" << field << "' in: " << what;
    };
    names(caches_refusal([](CacheReport& r) { r.totals.l1_hit_sectors = r.totals.l1_sectors + 1; }), "trace.caches totals");
    names(caches_refusal([](CacheReport& r) { r.totals.l2_sectors = ~uint64_t(0); }), "trace.caches totals");
    names(caches_refusal([](CacheReport& r) { r.buffers.front().second.l2_sectors += 1; r.totals.l2_sectors += 1; }),
          "trace.caches lines");  // the buffers no longer agree with the lines
    names(caches_refusal([](CacheReport& r) { r.buffers.front().first = "nosuch"; }), "trace.caches buffers");
    names(caches_refusal([](CacheReport& r) { r.buffers.push_back(r.buffers.front()); }), "trace.caches buffers");
    names(caches_refusal([](CacheReport& r) { r.lines.front().first = -5; }), "trace.caches lines");
    names(caches_refusal([](CacheReport& r) { std::reverse(r.lines.begin(), r.lines.end()); }), "trace.caches lines");
    names(caches_refusal([](CacheReport& r) { r.params.ways = 0; }), "trace.caches params: ways 0");
    // A file's field is named as a field, not as an option nobody typed (session 57: "--cus 0").
    for (const std::string& what : {caches_refusal([](CacheReport& r) { r.params.ways = 0; }),
                                     caches_refusal([](CacheReport& r) { r.params.cus = 0; })})
        EXPECT_EQ(what.find("--"), std::string::npos) << what;
    names(caches_refusal([](CacheReport& r) { r.params.l2_bytes = uint64_t(1) << 50; }), "trace.caches params");
    names(caches_refusal([](CacheReport& r) { r.params.cluster_of.assign(200, 0); }), "trace.caches cluster_of");
    names(caches_refusal([](CacheReport& r) { r.params.drift = 2.5; }), "drift");  // issue 31: a pace that runs backwards
    names(caches_refusal([](CacheReport& r) { r.params.age_pace = -1; }), "age_pace");
    names(caches_refusal([](CacheReport& r) { r.params.l2_halves = 3; }), "l2_halves");  // issue 31, cache8
    // An invalid byte in the profile's name is written as U+FFFD (issue 32), so the file
    // reads back; the profile then names none known.
    {
        TraceFile f = tiled32_caches();
        f.trace.caches->profile = "h200 \xff\xfe";
        const TraceFile back = parse_trace_file(serialize_trace_file(f), "c.tstrace");
        ASSERT_TRUE(back.trace.caches);
        EXPECT_EQ(back.trace.caches->profile, "h200 \xef\xbf\xbd\xef\xbf\xbd");
    }
    names(caches_refusal([](CacheReport& r) { r.profile.clear(); }), "trace.caches profile");
    names(caches_refusal([](CacheReport& r) { r.dram_reads.front().second += 1; }), "trace.caches dram_reads");
    names(caches_refusal([](CacheReport& r) { r.dram_reads.front().second = 0; }), "trace.caches dram_reads");
    names(caches_refusal([](CacheReport& r) { r.bounds.distinct_sectors = r.bounds.group_distinct_sectors + 1; }),
          "trace.caches bounds");
    // A field of the wrong shape (written by hand, not by this tilescope): named too.
    TraceFile f = tiled32_caches();
    const std::vector<uint8_t> cbor = [&] {
        std::string bytes = serialize_trace_file(f);
        bytes = bytes.substr(bytes.find('\n', bytes.find('\n') + 1) + 1);
        nlohmann::json j = nlohmann::json::from_cbor(bytes);
        j["trace"]["caches"]["params"] = "h200";
        return nlohmann::json::to_cbor(j);
    }();
    const std::string what = refusal([&] { parse_trace_file(with_header(std::string(cbor.begin(), cbor.end())), "s.tstrace"); });
    expect_one_line(what);
    names(what, "s.tstrace");
    names(what, "trace.caches");
}

TEST(TraceFileHostile, LoadRefusesAFifoAndABigNonTraceFromItsFirstBytes) {
    const std::string fifo = temp_dir() + "/trace-fifo";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_NE(refusal([&] { load_trace_file(fifo, "--open"); }).find("FIFO"), std::string::npos);
    const std::string big = temp_dir() + "/notatrace.bin";
    {
        std::ofstream out(big, std::ios::binary);
        const std::string mb(1 << 20, 'z');
        for (int i = 0; i < 64; ++i) out << mb;
    }
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_NE(refusal([&] { load_trace_file(big, "--open"); }).find("not a tilescope trace file"), std::string::npos);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(500));  // the first bytes, not 64 MB
    fs::remove(big);
}

TEST(OutputFile, DevicesFifosAndDirectoriesAreRefusedSymlinksWrittenThrough) {
    const std::string dir = temp_dir();
    const std::string fifo = dir + "/out-fifo";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_NE(refusal([&] { write_file_atomically(fifo, "x"); }).find("FIFO"), std::string::npos);
    EXPECT_NE(refusal([&] { check_writable(fifo, "--json"); }).find("--json"), std::string::npos);
    EXPECT_NE(refusal([&] { write_file_atomically("/dev/zero", "x"); }).find("character device"), std::string::npos);
    EXPECT_NE(refusal([&] { write_file_atomically(dir, "x"); }).find("directory"), std::string::npos);
    struct stat st{};
    ASSERT_EQ(lstat(fifo.c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode));  // still a FIFO
    EXPECT_NO_THROW(write_file_atomically("/dev/null", "discarded"));
    ASSERT_EQ(stat("/dev/null", &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode));
    // A symlink is written through: the link stays, its target gets the text.
    const std::string target = dir + "/target.json", link = dir + "/link.json";
    fs::create_symlink(target, link);
    write_file_atomically(link, "through");
    EXPECT_TRUE(fs::is_symlink(link));
    std::ifstream in(target);
    std::string got;
    std::getline(in, got);
    EXPECT_EQ(got, "through");
    // An output that is an input is refused.
    const std::string input = dir + "/in.json";
    write(input, "keep");
    read_untrusted_file(input, 100, "in");
    EXPECT_NE(refusal([&] { write_file_atomically(input, "clobber"); }).find("is the input"), std::string::npos);
    EXPECT_NE(refusal([&] { check_not_input(link, "--html", target, "FILE"); }).find("--html"), std::string::npos);
    std::ifstream again(input);
    std::getline(again, got);
    EXPECT_EQ(got, "keep");
}

TEST(LessonHostile, DeepStatesLongScriptsAndUnknownQuestionKeysAreOneLine) {
    const std::string deep = R"({"title": "t", "steps": [{"title": "s", "script": "x", "state": {"group": )" +
                             std::string(1'000'000, '[') + std::string(1'000'000, ']') + "}}]}";
    EXPECT_NE(refusal([&] { parse_lesson(deep, "deep.json"); }).find("nested deeper"), std::string::npos);
    const std::string longer = R"({"title": "t", "steps": [{"title": "s", "state": {}, "script": ")" +
                               std::string(17000, 'a') + "\"}]}";
    EXPECT_NE(refusal([&] { parse_lesson(longer, "long.json"); }).find("'script' of 17000 characters"), std::string::npos);
    const std::string question =
        R"({"title": "t", "steps": [{"title": "s", "state": {}, "script": "x",
            "question": {"text": "q", "quantity": "barriers", "answer": 3}}]})";
    EXPECT_NE(refusal([&] { parse_lesson(question, "q.json"); }).find("question key 'answer'"), std::string::npos);
    const std::string fifo = temp_dir() + "/lesson-fifo";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_NE(refusal([&] { load_lesson(fifo); }).find("--lesson"), std::string::npos);
}

TEST(TuningHostile, ADeepOrDamagedTuningFileIsSkippedNotFatal) {
    const std::string deep = R"({"kernels": {"tiled": {"tile": 8, "params": )" + std::string(2'000'000, '[') +
                             std::string(2'000'000, ']') + "}}}";
    EXPECT_FALSE(tuned_choice_in(deep, "tiled").has_value());
    TuneResult ok;
    ok.tile = 8;
    ok.status = "ok";
    ok.gflops = 1;
    EXPECT_NO_THROW(merge_tuning("", "dev", "tiled", {64, 64, 64}, {ok}, "tune"));
    // A damaged file is not silently replaced by the new results.
    EXPECT_NE(refusal([&] { merge_tuning("{not json", "dev", "tiled", {64, 64, 64}, {ok}, "tune"); }).find("not JSON"),
              std::string::npos);
}

TEST(TuningHostile, ANumberThatWouldWrapOrIsNoWholeNumberIsNotReadAsAnother) {
    // Session 50: a tile of 2^32 + 4 was read as TS 4 "[tuned here]"; a parameter of 1e300
    // went through get<int64_t>(), which is undefined there. Each entry is now skipped whole.
    EXPECT_FALSE(tuned_choice_in(R"({"kernels": {"tiled": {"tile": 4294967300, "gflops": 1}}})", "tiled").has_value());
    EXPECT_FALSE(tuned_choice_in(R"({"kernels": {"reg2d": {"tile": 64, "params": {"TSK": 1e300}, "gflops": 1}}})", "reg2d").has_value());
    EXPECT_FALSE(tuned_choice_in(R"({"kernels": {"tiled": {"tile": 8.5, "gflops": 1}}})", "tiled").has_value());
    const auto kept = tuned_choice_in(R"({"kernels": {"reg2d": {"tile": 64, "params": {"TSK": 16}, "gflops": 1}}})", "reg2d");
    ASSERT_TRUE(kept.has_value());
    EXPECT_EQ(kept->tile, 64);
    EXPECT_EQ(kept->params.at("TSK"), 16);
}
