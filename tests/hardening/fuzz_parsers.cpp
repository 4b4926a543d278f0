// A deterministic fuzzer for every parser of user input: expressions, --arg specs, the
// --check spec, sizes, --param, --groups, tuning files, lesson files, saved traces, the GUI's
// control file and GUI scene files. Inputs are mutations of a seed
// corpus (tests/hardening/corpus/<target>.txt, one seed per line) plus generated bombs
// (deep nesting, long runs, extreme numbers, control bytes), drawn from a fixed seed so a
// failure is reproduced by rerunning the same command.
//
// The promise checked for every input: the parser returns, or throws InputError with a
// one-line message of at most 2,000 characters; nothing else escapes, nothing takes longer
// than 2 seconds of CPU or 10 of wall time (a hang). --min-refused R also asks that each command-line parser refused at least
// R of its inputs (so the run really was hostile). A signal
// (stack overflow, SIGFPE) ends this process, which the caller reports as the failure.
//
// With the GUI built, `gui --scene FILE` is fuzzed too (target "scene").
//
//   tilescope_fuzz --corpus DIR [--target NAME[,NAME..]|all] [--runs N] [--runs-of NAME=N] [--seed S]
//                  [--seconds S] [--seconds-of NAME=S] [--min-refused R] [--min-inputs I] [--show-refusals N]
// --runs-of gives one target its own count (repeatable): cheap targets can run many
// more inputs than a saved trace, which is traced and rendered.
// --seconds gives the whole run a time budget instead of a count (CI runs on machines that
// differ several-fold in speed): the chosen targets share it equally, each running inputs
// until its share is spent; --seconds-of gives one target its own share. With a budget, a
// --runs or --runs-of given too is a cap. The same seed gives the same inputs in the same
// order, so a failure is reproduced with --target NAME --runs COUNT, COUNT the line's inputs.
// prints one line per target: inputs, accepted, refused, failures, slowest input.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <algorithm>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/kernel/catalog.h"
#include "core/base/errors.h"
#include "core/base/expr.h"
#include "core/kernel/kernel_spec.h"
#include "core/kernel/launch_config.h"
#include "core/teach/lesson.h"
#include "core/emulator/trace_runner.h"
#include "core/tuning/tuning.h"
#include "core/base/untrusted_file.h"
#include "core/caches/cache_trace.h"
#include "core/io/html_export.h"
#include "core/caches/cache_trace.h"
#include "core/io/trace_file.h"
#include "core/trace/view_model.h"
#include <sys/resource.h>  // the peak-memory check, in every build (the sanitizer one has no GUI)
#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "ui/shell/control_file.h"  // compiled in even without the GUI (it needs only the core)
#ifdef TILESCOPE_FUZZ_SCENES
#include "ui/shell/gui_options.h"
#endif

using namespace tilescope;

namespace {

using Rng = std::mt19937_64;

// Far beyond any option value or tuning file a person writes; larger inputs only make the
// run slower, not more thorough.
constexpr size_t kMaxInput = 64 * 1024;
// A hang is judged on the CPU time the input took, so a loaded machine (CI's two cores
// shared with the sanitizer build) does not turn a 0.2 s input into a 2 s one; an input that
// waits rather than computes is caught by the wall-clock bound (the 10 s).
constexpr double kHangSeconds = 2.0;
constexpr double kHangWallSeconds = 10.0;

double thread_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

// Pieces the mutator inserts: the grammar's own tokens and the values that break
// arithmetic and parsers.
const std::vector<std::string> kTokens = {
    "(", ")", "+", "-", "*", "/", "M", "N", "K", "TS", "TSK", "WPTM", " ", "x", ":", "=", ",", ";",
    "0", "1", "-1", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "3037000500",
    "2147483648", "4611686018427387904", "65536", "local", "int", "matrix", "rowmajor", "colmajor", "in", "out",
    "\n", "\t", "\x1b[2J", "\x7f", "\xff", "\xc3\xa9", "{", "}", "[", "]", "\"", "null", "true", "1e999", "-0",
    "\"kernels\"", "\"tile\"", "\"params\"", "\"results\"", "\"size\"", "\\u0000"};

std::string pick(Rng& rng, const std::vector<std::string>& v) { return v[rng() % v.size()]; }

std::string mutate(Rng& rng, std::string s, const std::vector<std::string>& seeds) {
    const int steps = 1 + static_cast<int>(rng() % 6);
    for (int i = 0; i < steps; ++i) {
        const size_t at = s.empty() ? 0 : rng() % (s.size() + 1);
        switch (rng() % 9) {
        case 0: s.insert(at, pick(rng, kTokens)); break;
        case 1: if (!s.empty()) s.erase(at == s.size() ? at - 1 : at, 1 + rng() % 4); break;
        case 2: s.insert(at, 1, static_cast<char>(rng() % 256)); break;
        case 3: {  // repeat a span: runs of operators, nesting bombs
            if (s.empty()) break;
            const size_t from = rng() % s.size(), len = 1 + rng() % std::min<size_t>(8, s.size() - from);
            const std::string span = s.substr(from, len);
            const size_t times = rng() % 4 == 0 ? 1000 + rng() % 40000 : 1 + rng() % 300;
            std::string rep;
            for (size_t t = 0; t < times && rep.size() < kMaxInput; ++t) rep += span;
            s.insert(from, rep);
            break;
        }
        case 4: {  // wrap in parentheses many times
            const size_t depth = rng() % 3 == 0 ? 200 + rng() % 400 : 1 + rng() % 20;
            s = std::string(depth, '(') + s + std::string(depth, ')');
            break;
        }
        case 5: s += pick(rng, seeds); break;  // splice
        case 6: if (!s.empty()) s[rng() % s.size()] = pick(rng, kTokens)[0]; break;
        case 7: s = s.substr(0, at); break;
        default: s.insert(at, pick(rng, kTokens) + pick(rng, kTokens)); break;
        }
        if (s.size() > kMaxInput) s.resize(kMaxInput);
    }
    return s;
}

struct Counts {
    uint64_t inputs = 0, accepted = 0, refused = 0, failures = 0;
    double slowest_s = 0, slowest_cpu_s = 0;
    std::string slowest_input;
};

std::string printable(const std::string& s) { return shown(s, 120); }

// The marks of a library's exception text in a message (nlohmann, libstdc++, std::filesystem).
const char* library_text(const std::string& m) {
    for (const char* mark : {"json.exception", "basic_string::", "vector::_M", "map::at", "filesystem error:"})
        if (m.find(mark) != std::string::npos) return mark;
    return nullptr;
}

// Runs one input through `parse`; records how it ended.
// --show-refusals N: the first N refusals of each target on stderr (what a generator of
// valid files still gets wrong, or what the readers say).
uint64_t g_show_refusals = 0;
// What a generator of valid files made for the input in hand (its input string is empty),
// named in a failure's line.
std::string g_generated;

void run_one(const std::string& target, const std::string& input, const std::function<void(const std::string&)>& parse,
             Counts& c) {
    ++c.inputs;
    g_generated.clear();
    const auto t0 = std::chrono::steady_clock::now();
    const double cpu0 = thread_cpu_seconds();
    try {
        parse(input);
        ++c.accepted;
    } catch (const InputError& e) {
        ++c.refused;
        const std::string m = e.what();
        if (c.refused <= g_show_refusals) std::fprintf(stderr, "refused %s: %s\n", target.c_str(), printable(m).c_str());
        if (m.find('\n') != std::string::npos || m.find('\r') != std::string::npos || m.empty() || m.size() > 2000) {
            ++c.failures;
            std::fprintf(stderr, "FAIL %s: message not one short line (%zu chars) for input '%s': %s\n", target.c_str(),
                         m.size(), printable(input).c_str(), printable(m).c_str());
        }
        // Item 6 of issue 32: a refusal says what was wrong in its own words, never a library's.
        if (const char* lib = library_text(m)) {
            ++c.failures;
            std::fprintf(stderr, "FAIL %s: message quotes a library ('%s') for input '%s': %s\n", target.c_str(), lib,
                         printable(input).c_str(), printable(m).c_str());
        }
    } catch (const std::exception& e) {
        ++c.failures;
        std::fprintf(stderr, "FAIL %s: %s escaped for input '%s'%s\n", target.c_str(), e.what(), printable(input).c_str(),
                     g_generated.empty() ? "" : (" generated: " + g_generated).c_str());
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double cpu = thread_cpu_seconds() - cpu0;
    if (s > c.slowest_s) {
        c.slowest_s = s;
        c.slowest_input = g_generated.empty() ? printable(input) : g_generated;
    }
    c.slowest_cpu_s = std::max(c.slowest_cpu_s, cpu);
    if (cpu > kHangSeconds || s > kHangWallSeconds) {
        ++c.failures;
        std::fprintf(stderr, "FAIL %s: %.2f s of CPU, %.2f s of wall time (a hang) for input '%s'%s\n", target.c_str(), cpu, s,
                     printable(input).c_str(), g_generated.empty() ? "" : (" generated: " + g_generated).c_str());
    }
}

SizeVars random_vars(Rng& rng) {
    static const int64_t extremes[] = {1, 2, 3, 16, 64, 65536, 0, -1, INT64_MAX, INT64_MIN};
    auto v = [&] { return rng() % 4 == 0 ? extremes[rng() % 10] : static_cast<int64_t>(1 + rng() % 1024); };
    SizeVars s{v(), v(), v(), v()};
    s.params["TSK"] = v();
    s.params["WPTM"] = v();
    return s;
}

const KernelSpec& rung_with_params() {
    for (const KernelSpec& k : ladder())
        if (!k.params.empty() && k.library.empty()) return k;
    return ladder().front();
}

// A saved trace to attack (issue 23): a small real one, traced once per process.
const TraceFile& base_trace() {
    static const TraceFile f = [] {
        TraceFile t;
        t.launch = LaunchConfig{*find_kernel("tiled"), {16, 12, 8}, 4};
        TraceOptions to;
        to.cache_requests = true;  // and the cache model's report, which travels with it (issue 24)
        t.trace = run_trace(t.launch, to);
        t.trace.caches = model_trace_caches(t.trace, load_cache_profile("h200"));
        t.trace.cache_requests.reset();
        return t;
    }();
    return f;
}

// Re-seals a body with a valid version-2 header: a hostile author can always do this, so
// half the attacks get past the checksum to the structure and the validation behind it.
std::string seal(const std::string& body) {
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a64(body)));
    return "tilescope trace file, version 2\nfnv1a64 " + std::string(hex) + " " + std::to_string(body.size()) + "\n" + body;
}

// One hostile .tstrace: byte mutations, truncations, length-field and nesting attacks on
// the CBOR, or semantic edits of the trace's fields serialized properly.
std::string hostile_trace(Rng& rng) {
    static const std::string bytes = serialize_trace_file(base_trace());
    static const size_t body_at = bytes.find('\n', bytes.find('\n') + 1) + 1;
    std::string body = bytes.substr(body_at);
    auto at = [&] { return body.empty() ? size_t(0) : size_t(rng() % body.size()); };
    static const int64_t wild[] = {0, -1, 1, 2, 65536, int64_t(1) << 31, int64_t(1) << 32, int64_t(1) << 62, INT64_MAX, INT64_MIN};
    auto any = [&] { return rng() % 2 ? wild[rng() % 10] : int64_t(rng() % 64); };
    switch (rng() % 7) {
    case 0:  // flipped bytes; the checksum alone must catch them
        for (int i = 0, n = 1 + int(rng() % 4); i < n; ++i) body[at()] = char(rng() % 256);
        return bytes.substr(0, body_at) + body;
    case 1:  // flipped bytes, resealed: the CBOR reader and the validation must catch them
        for (int i = 0, n = 1 + int(rng() % 8); i < n; ++i) body[at()] = char(rng() % 256);
        return seal(body);
    case 2:  // truncated anywhere, header included
        return bytes.substr(0, rng() % bytes.size());
    case 3: {  // a length field: a container or string head with a huge length
        static const char heads[] = {'\x9b', '\xbb', '\x5b', '\x7b', '\x9a', '\xba'};
        std::string len(1, heads[rng() % 6]);
        const int n = (len[0] & 31) == 27 ? 8 : 4;
        for (int i = 0; i < n; ++i) len += char(rng() % 2 ? 0xff : rng() % 256);
        body.insert(at(), len);
        return seal(body);
    }
    case 4: {  // nesting: arrays or maps opened thousands deep
        const size_t depth = 1 + rng() % 200000;
        const std::string open = rng() % 2 ? std::string("\x81") : std::string("\xa1\x61\x61");
        std::string nest;
        for (size_t i = 0; i < depth; ++i) nest += open;
        body.insert(at(), nest);
        return rng() % 4 ? seal(body) : "tilescope trace file, version 1\n" + body;
    }
    default: {  // semantic: one field of the trace set to a wild value, then saved properly
        TraceFile f = base_trace();
        Trace& t = f.trace;
        GroupTrace& g = t.detail.front();
        BufferIntervalAccess& a = g.intervals.front().buffers.front();
        CacheReport& c = *t.caches;
        switch (rng() % 21) {
        case 0: g.size[rng() % 3] = uint32_t(any()); break;
        case 1: a.loaded.push_back(Rect{any(), any(), any(), any()}); break;
        case 2: t.buffers[rng() % t.buffers.size()].rows = any(); break;
        case 3: t.buffers[rng() % t.buffers.size()].elements = uint64_t(any()); break;
        case 4: t.local_buffers.push_back({"L", uint64_t(any()), uint64_t(any()), uint64_t(any())}); break;
        case 5: t.size.M = any(); break;
        case 6: t.tile = int(any()); break;
        case 7: t.seconds = rng() % 2 ? std::nan("") : -1e300; break;
        case 8: t.groups[rng() % 3] = uint64_t(any()); break;
        case 9: t.local[rng() % 3] = uint64_t(any()); break;
        case 10: a.loads.push_back({uint32_t(any()), uint32_t(any())}); break;
        case 11: t.wrong_cells.push_back({any(), any()}); break;
        case 12: t.kernel = std::string(1 + rng() % 5, char(0x80 + rng() % 0x80)); break;
        case 13: t.group_totals.push_back({{uint32_t(any()), 0, 0}, 0, {}, {}}); break;
        case 14: g.intervals.front().work_items.push_back({uint32_t(any()), {}, {}}); break;
        case 16: {
            static uint64_t CacheCounts::*const counts[] = {
                &CacheCounts::l1_requests,    &CacheCounts::l1_sectors,        &CacheCounts::l1_hit_sectors,
                &CacheCounts::l2_sectors,     &CacheCounts::l2_load_sectors,   &CacheCounts::l2_hit_sectors,
                &CacheCounts::l2_merged_sectors, &CacheCounts::dram_read_bytes, &CacheCounts::dram_write_bytes};
            c.totals.*counts[rng() % 9] = uint64_t(any());
            break;
        }
        case 17: c.buffers[rng() % c.buffers.size()].first = std::string(1 + rng() % 3, char('A' + rng() % 26)); break;
        case 18: c.lines[rng() % c.lines.size()].first = int32_t(any()); break;
        case 19:
            if (rng() % 2) c.dram_reads[rng() % c.dram_reads.size()].second = uint32_t(any());
            else c.params.ways = uint32_t(any());
            break;
        default: if (t.result) t.result->rows = any(); break;
        }
        return serialize_trace_file(f);
    }
    }
}


std::vector<std::string> read_seeds(const std::string& path);

// ---- Files written to pass the checks (issue 32, item 7) ----
// The mutations above mostly make files the readers refuse. A stranger who wants to hurt
// writes files that are valid: every field in range and consistent with the others, the
// checksum recomputed, but extreme: many steps, phases, groups, records, long texts, names
// that are markup. These generators write such files; the targets below take them exactly
// as the byte-mutated ones (return or refuse in one line, within the time and memory bounds).

// Texts a page or a terminal must show as text: markup, quotes, spaces, multibyte UTF-8.
const std::vector<std::string> kMarkupTexts = {
    "</script><img src=x onerror=alert(1)>", "a b", "\"'`${x}\\", "<b>&amp;</b>", "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",
    "-->", "]]>", "x\u2028y"};
// What the hand-out must never contain verbatim: the tag a name above would plant.
constexpr const char* kPlantedTag = "<img src=x";

std::string markup_text(Rng& rng, size_t max_chars) {
    std::string s = pick(rng, kMarkupTexts);
    const size_t want = rng() % 4 == 0 ? max_chars : 1 + rng() % 40;
    while (s.size() + 40 < want) s += pick(rng, kMarkupTexts);
    return s;
}

// A count drawn towards the extremes: small, at a round limit, or just past it.
uint64_t extreme_count(Rng& rng, uint64_t limit) {
    switch (rng() % 4) {
    case 0: return 1 + rng() % 8;
    case 1: return limit;
    case 2: return limit + 1;
    default: return 1 + rng() % (limit + 1);
    }
}

// Real traces to start from, traced once per process: the small tiled one, one with many
// phases (C is 1x1, K steps of tile 1) and one with many work-groups of one work-item.
const TraceFile& traced_base(int which) {
    static const TraceFile phases = [] {
        TraceFile t;
        t.launch = LaunchConfig{*find_kernel("tiled"), {1, 1, 512}, 1};
        t.trace = run_trace(t.launch, TraceOptions{});
        return t;
    }();
    static const TraceFile groups = [] {
        TraceFile t;
        t.launch = LaunchConfig{*find_kernel("naive"), {32, 32, 2}, 1};
        t.trace = run_trace(t.launch, TraceOptions{});
        return t;
    }();
    return which == 0 ? base_trace() : which == 1 ? phases : groups;
}

std::string consistent_trace(Rng& rng) {
    const int base = int(rng() % 3);
    TraceFile f = traced_base(base);
    Trace& t = f.trace;
    g_generated = std::string("a trace of ") + (base == 0 ? "tiled 16x12x8" : base == 1 ? "tiled 1x1x512 TS 1" : "naive 32x32x2 TS 1");
    static const char* const names[] = {"every group in detail", "measurements", "markup names", "long source", "every cell wrong"};
    for (int edits = 1 + int(rng() % 3); edits > 0; --edits) {
        const int edit = int(rng() % 5);
        g_generated += std::string(", ") + names[edit];
        switch (edit) {
        case 0: {  // every work-group in detail, each a copy of the first moved to its place
            if (t.detail.empty()) break;
            const GroupTrace first = t.detail.front();
            t.detail.clear();
            for (const GroupTotals& g : t.group_totals) {
                GroupTrace copy = first;
                copy.group = g.group;
                t.detail.push_back(std::move(copy));
            }
            break;
        }
        case 1: {  // measurements: many well-formed bench records, or many empty ones
            const bool empty = rng() % 2;
            const uint64_t n = empty ? 1 + rng() % 400000 : extreme_count(rng, 20000);
            nlohmann::json rec = empty ? nlohmann::json::object()
                                       : nlohmann::json{{"kernel", t.kernel}, {"device", "pocl"}, {"M", t.size.M},
                                                        {"N", t.size.N}, {"K", t.size.K}, {"tile", t.tile},
                                                        {"reps", 5}, {"median_s", 1e-3}, {"min_s", 1e-3},
                                                        {"gflops", 1.0}, {"max_rel_error", 0.0}, {"verified", true}};
            f.measurements = nlohmann::json::array();
            for (uint64_t i = 0; i < n; ++i) f.measurements.push_back(rec);
            g_generated += " (" + std::to_string(n) + (empty ? " empty)" : ")");
            break;
        }
        case 2:  // texts a page must escape: the device, and the names of local arrays everywhere they appear
            t.device = markup_text(rng, 1024);
            for (LocalBuffer& l : t.local_buffers) {
                const std::string old = l.name, now = markup_text(rng, 60);
                l.name = now;
                for (GroupTrace& g : t.detail)
                    for (BarrierInterval& iv : g.intervals)
                        for (BufferIntervalAccess& a : iv.local_buffers)
                            if (a.buffer == old) a.buffer = now;
            }
            break;
        case 3:  // a source of many lines, a comment of markup on each (the barrier lines stay put)
            for (uint64_t i = 0, n = extreme_count(rng, 5000); i < n; ++i)
                f.launch.kernel.source += "// " + markup_text(rng, 180) + "\n";
            break;
        default:  // every cell of C wrong
            t.wrong_cells.clear();
            for (int64_t r = 0; r < t.size.M; ++r)
                for (int64_t c = 0; c < t.size.N; ++c) t.wrong_cells.push_back({r, c});
            break;
        }
    }
    return serialize_trace_file(f);
}

// A lesson of the built-in lessons' own steps: many of them, long scripts, markup titles.
std::string consistent_lesson(Rng& rng) {
    static const std::vector<nlohmann::json> steps = [] {
        std::vector<nlohmann::json> all;
        for (const std::string& line : read_seeds(std::string(TILESCOPE_FUZZ_CORPUS) + "/lesson.txt")) {
            const nlohmann::json doc = nlohmann::json::parse(line, nullptr, false);
            if (!doc.is_object() || !doc.contains("steps") || !doc["steps"].is_array()) continue;
            for (const nlohmann::json& st : doc["steps"]) {
                try {  // the seeds' odd lessons hold steps that are not valid ones
                    const nlohmann::json one{{"title", "t"}, {"steps", nlohmann::json::array({st})}};
                    for (const LessonStep& step : parse_lesson(one.dump(), "seed.json").steps) resolve(step_launch(step));
                    all.push_back(st);
                } catch (const InputError&) {
                }
            }
        }
        return all;
    }();
    nlohmann::json lesson{{"title", markup_text(rng, kMaxLessonTitleChars)}, {"steps", nlohmann::json::array()}};
    if (steps.empty()) return lesson.dump();
    for (uint64_t i = 0, n = extreme_count(rng, 1000); i < n; ++i) {
        nlohmann::json st = steps[rng() % steps.size()];
        if (rng() % 2) st["title"] = markup_text(rng, kMaxLessonTitleChars);
        if (rng() % 2) st["script"] = markup_text(rng, kMaxLessonScriptChars);
        lesson["steps"].push_back(std::move(st));
    }
    return lesson.dump();
}

// A tuning file naming every rung of the catalog, each with many measured points.
std::string consistent_tuning(Rng& rng) {
    nlohmann::json kernels = nlohmann::json::object();
    for (const KernelSpec& k : ladder()) {
        nlohmann::json params = nlohmann::json::object();
        for (const auto& p : k.params) params[p.name] = p.default_value;
        nlohmann::json results = nlohmann::json::array();
        for (uint64_t i = 0, n = extreme_count(rng, 2000); i < n; ++i)
            results.push_back({{"tile", k.default_tile}, {"params", params}, {"status", "ok"},
                               {"gflops", rng() % 8 == 0 ? 1e308 : double(1 + rng() % 100000)}, {"median_s", 1e-6}});
        kernels[k.name] = {{"tile", k.default_tile}, {"params", params}, {"gflops", 1.0},
                           {"size", std::to_string(int64_t(1) << (rng() % 14))}, {"results", results}};
    }
    // A "fastest" table (--kernel fastest; a remembered pick's file is one): every rung with its
    // default point at shapes from 1 to 2^20 along each side, past the 512 rows that are read.
    nlohmann::json fastest = nlohmann::json::array();
    const std::vector<KernelSpec>& rungs = ladder();
    for (uint64_t i = 0, n = extreme_count(rng, 600); i < n; ++i) {
        const KernelSpec& k = rungs[rng() % rungs.size()];
        nlohmann::json params = nlohmann::json::object();
        for (const auto& p : k.params) params[p.name] = p.default_value;
        const auto side = [&] { return std::to_string(int64_t(1) << (rng() % 21)); };
        fastest.push_back({{"kernel", k.name}, {"size", side() + "x" + side() + "x" + side()}, {"tile", k.default_tile},
                           {"params", params}, {"gflops", rng() % 8 == 0 ? 1e308 : double(1 + rng() % 100000)}});
    }
    return nlohmann::json{{"device", markup_text(rng, 200)}, {"slug", "fuzz"}, {"kernels", kernels}, {"fastest", fastest}}.dump();
}

// A control file of well-formed commands, up to its size limit and one byte past it.
std::string consistent_control(Rng& rng) {
    static const std::vector<std::string> commands = [] {  // the seeds that are one command each
        std::vector<std::string> ok;
        for (const std::string& line : read_seeds(std::string(TILESCOPE_FUZZ_CORPUS) + "/control.txt")) {
            const std::string verb = line.substr(0, line.find(' '));
            const bool printable = std::all_of(line.begin(), line.end(), [](char ch) { return ch >= 0x20 && ch != 0x7f; });
            const bool takes_arg = verb == "screenshot" || verb == "measure" || verb == "state" || verb == "text";
            if (printable && (verb == "quit" || verb == "reveal" || (takes_arg && line.size() > verb.size() + 1)))
                ok.push_back(line);
        }
        if (ok.empty()) ok.push_back("quit");
        return ok;
    }();
    const size_t want = rng() % 2 ? ui::kMaxControlFileBytes + (rng() % 2) : 16 + rng() % 4096;
    std::string text;
    for (std::string next = pick(rng, commands) + "\n"; text.size() + next.size() + 6 <= want; next = pick(rng, commands) + "\n")
        text += next;
    // The last command padded with spaces to the exact size: at the limit, or one byte past it.
    return text + "quit" + std::string(want - text.size() - 5, ' ') + "\n";
}

// The parsers, each given one input.
std::map<std::string, std::function<void(const std::string&, Rng&)>> targets() {
    std::map<std::string, std::function<void(const std::string&, Rng&)>> t;
    t["expr"] = [](const std::string& in, Rng& rng) {
        check_expr(in, {"TSK", "WPTM"}, "--global");
        eval_expr(in, random_vars(rng), "--global");
    };
    t["argspec"] = [](const std::string& in, Rng& rng) {
        // Parsed, then resolved at sizes: the byte counts of what it describes are checked too.
        KernelSpec k;
        k.name = k.entry = "fuzz";
        k.custom = true;
        k.global = {"N"};
        k.local = {"1"};
        k.args.push_back(parse_arg_spec(in));
        validate(k);
        static const int64_t sizes[] = {1, 7, 64, 65536};
        resolve(LaunchConfig{k, ProblemSize{sizes[rng() % 4], sizes[rng() % 4], sizes[rng() % 4]},
                             static_cast<int>(1 + rng() % 1024)});
    };
    t["check"] = [](const std::string& in, Rng&) { parse_check_spec(in); };
    t["size"] = [](const std::string& in, Rng&) { parse_size(in); };
    t["param"] = [](const std::string& in, Rng&) {
        const KernelSpec& k = rung_with_params();
        LaunchConfig c{k, parse_size("64"), k.default_tile};
        const auto [name, value] = parse_param(k, in);
        c.params[name] = value;
        resolve(c);
    };
    t["groups"] = [](const std::string& in, Rng&) { parse_groups(in); };
    t["tuning"] = [](const std::string& in, Rng& rng) {
        // A tuning file brought from elsewhere: looked up, and merged into by `tune`.
        tuned_choice_in(in, "tiled");
        // Its "fastest" table, as --kernel fastest reads it, and a pick bench timed at a shape
        // merged into it, as into <device>.timed.json (a refusal there is an InputError too;
        // caught here so that merge_tuning below still meets the same file).
        fastest_entries_in(in);
        // Its "also_try" points, as a defaults-<type>.json's are read for tune --quick.
        also_try_in(in, "cpu_panel", "small");
        also_try_in(in, "tiled", "large");
        try {
            merge_fastest_row(in, "fuzz / device", "tiled", ProblemSize{45, 45, 45}, 16, {}, 1.0, "fuzz");
        } catch (const InputError&) {
        }
        TuneResult r;
        r.tile = 16;
        r.status = "ok";
        r.gflops = 1;
        merge_tuning(in, "fuzz / device", rng() % 2 ? "tiled" : "reg2d", ProblemSize{64, 64, 64}, {r}, "fuzz");
    };
    t["lesson"] = [](const std::string& in, Rng&) {
        // `gui --lesson FILE`: the lesson, then every step's set-up as the GUI opens it.
        const Lesson lesson = parse_lesson(in, "fuzz.json");
        for (const LessonStep& step : lesson.steps) {
            resolve(step_launch(step));
            if (const auto other = step_compare_launch(step)) resolve(*other);
#ifdef TILESCOPE_FUZZ_SCENES
            ui::lesson_step_options(lesson, static_cast<int>(&step - lesson.steps.data()));
#endif
        }
    };
    // A saved trace from someone else, as `export --html` and `gui --open` take it: read,
    // then (when accepted) the hand-out and every detail group's view model built from it.
    // No text of the file may become markup in the page.
    auto take_trace = [](const std::string& bytes) {
        const TraceFile f = parse_trace_file(bytes, "fuzz.tstrace");
        if (handout_html(f).find(kPlantedTag) != std::string::npos)
            throw std::logic_error("a text of the trace became markup in the hand-out");
        const MatrixRoles roles = matrix_roles(f.trace, f.launch.kernel.check);
        for (const GroupTrace& g : f.trace.detail)
            for (int i = 0; i < interval_count(f.trace, g.group); ++i) (void)group_phase_view(f.trace, roles, g.group, i);
    };
    t["tstrace"] = [take_trace](const std::string&, Rng& rng) { take_trace(hostile_trace(rng)); };
    t["tstrace_valid"] = [take_trace](const std::string&, Rng& rng) { take_trace(consistent_trace(rng)); };
    t["control"] = [](const std::string& in, Rng& rng) {
        // `gui --control FILE` (issue 23): someone else's command file, as the running GUI takes
        // it. What it says on stderr must be one short printable line per complaint, and the
        // file must be gone afterwards (taken once, never read twice).
        static const std::string path = (std::filesystem::temp_directory_path() /
                                         ("tilescope-fuzz-control-" + std::to_string(getpid()))).string();
        std::string text = in;
        if (rng() % 64 == 0) text.append(ui::kMaxControlFileBytes + 1 - std::min<size_t>(text.size(), ui::kMaxControlFileBytes), 'x');
        std::filesystem::remove(path);
        std::ofstream(path, std::ios::binary) << text;
        std::ostringstream said;
        std::streambuf* const old = std::cerr.rdbuf(said.rdbuf());
        std::vector<ui::ControlCommand> commands;
        try {
            commands = ui::ControlFile(path).take();
        } catch (...) {
            std::cerr.rdbuf(old);
            throw;
        }
        std::cerr.rdbuf(old);
        std::error_code ec;
        if (std::filesystem::exists(path, ec) || std::filesystem::exists(path + ".taken", ec))
            throw std::logic_error("the control file or its .taken copy was left behind");
        for (const ui::ControlCommand& c : commands)
            if (c.argument.find('\n') != std::string::npos) throw std::logic_error("a command's argument spans lines");
        const std::string out = said.str();
        if (out.empty()) return;  // every line a command
        std::istringstream lines(out);
        std::string first;
        for (std::string line; std::getline(lines, line);) {
            if (first.empty()) first = line;
            if (line.size() > 2000 || line.empty()) throw std::logic_error("stderr line of " + std::to_string(line.size()) + " characters");
            for (const char ch : line)
                if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f)
                    throw std::logic_error("a raw control byte on stderr: " + shown(line, 200));
        }
        if (out.back() != '\n') throw std::logic_error("stderr does not end its line");
        throw InputError(first);  // counted as refused: it said why
    };
#ifdef TILESCOPE_FUZZ_SCENES
    t["scene"] = [](const std::string& in, Rng&) {
        // `gui --scene FILE`: the file becomes options, checked before any window opens.
        static const std::string path = (std::filesystem::temp_directory_path() /
                                         ("tilescope-fuzz-scene-" + std::to_string(getpid()) + ".json")).string();
        // A new file each time: truncating one in place makes ext4 flush it, 100x slower.
        std::filesystem::remove(path);
        std::ofstream(path, std::ios::binary) << in;
        ui::parse_gui_options({"--scene", path}, ui::Settings{});
    };
#endif
    // Valid files with extreme fields, taken as their readers take any file.
    t["lesson_valid"] = [lesson = t.at("lesson")](const std::string&, Rng& rng) { lesson(consistent_lesson(rng), rng); };
    t["tuning_valid"] = [tuning = t.at("tuning")](const std::string&, Rng& rng) { tuning(consistent_tuning(rng), rng); };
    t["control_valid"] = [control = t.at("control")](const std::string&, Rng& rng) { control(consistent_control(rng), rng); };
    return t;
}

std::vector<std::string> read_seeds(const std::string& path) {
    std::vector<std::string> seeds;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);)
        if (!line.empty() && line[0] != '#') seeds.push_back(line);
    if (seeds.empty()) seeds.push_back("");
    return seeds;
}

int usage(const char* why) {
    std::fprintf(stderr, "tilescope_fuzz: %s; usage: tilescope_fuzz --corpus DIR [--target NAME[,NAME..]|all] [--runs N] "
                         "[--runs-of NAME=N] [--seed S] [--seconds S] [--seconds-of NAME=S] [--min-refused R] [--min-inputs I] [--show-refusals N]\n", why);
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    std::string corpus, only = "all";
    uint64_t runs = 20000, seed = 1, min_refused = 0, min_inputs = 0;
    bool runs_given = false;
    double seconds = 0;  // 0: no time budget, run counts only
    std::map<std::string, uint64_t> runs_of;
    std::map<std::string, double> seconds_of;
    // A budget in seconds: a finite, positive number of at most a week.
    auto parse_seconds = [](const std::string& text, double& out) {
        char* stop = nullptr;
        out = std::strtod(text.c_str(), &stop);
        return !text.empty() && stop && !*stop && out > 0 && out <= 7 * 24 * 3600.0;
    };
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string opt = argv[i], val = argv[i + 1];
        char* end = nullptr;
        if (opt == "--corpus") corpus = val;
        else if (opt == "--target") only = val;
        else if (opt == "--runs") { runs = std::strtoull(val.c_str(), &end, 10); runs_given = true; }
        else if (opt == "--seconds") {
            if (!parse_seconds(val, seconds)) return usage("--seconds takes a number of seconds above 0, at most a week");
        }
        else if (opt == "--seconds-of") {
            const size_t eq = val.find('=');
            if (eq == std::string::npos || eq == 0) return usage("--seconds-of takes NAME=S");
            if (!parse_seconds(val.substr(eq + 1), seconds_of[val.substr(0, eq)]))
                return usage("--seconds-of takes NAME=S with S a number of seconds above 0, at most a week");
        }
        else if (opt == "--seed") seed = std::strtoull(val.c_str(), &end, 10);
        else if (opt == "--min-refused") min_refused = std::strtoull(val.c_str(), &end, 10);
        else if (opt == "--min-inputs") min_inputs = std::strtoull(val.c_str(), &end, 10);
        else if (opt == "--show-refusals") g_show_refusals = std::strtoull(val.c_str(), &end, 10);
        else if (opt == "--runs-of") {
            const size_t eq = val.find('=');
            if (eq == std::string::npos || eq == 0) return usage("--runs-of takes NAME=N");
            runs_of[val.substr(0, eq)] = std::strtoull(val.c_str() + eq + 1, &end, 10);
        }
        else return usage(("unknown option " + opt).c_str());
        if (end && *end) return usage(("bad number for " + opt).c_str());
    }
    if (argc % 2 == 0) return usage("options come in pairs");
    if (corpus.empty()) return usage("--corpus DIR is required");
    const auto all = targets();
    std::set<std::string> chosen;
    // "hostile": every target but the generators of large valid files (*_valid), which the
    // sanitizer build leaves to the normal one: 10x slower there, they pass its time bounds.
    if (only == "hostile") {
        for (const auto& [name, parse] : all)
            if (name.find("_valid") == std::string::npos) chosen.insert(name);
        only = "some";
    }
    for (size_t at = 0; only != "all" && only != "some";) {
        const size_t comma = only.find(',', at);
        const std::string name = only.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        if (!all.count(name)) return usage(("unknown target " + name).c_str());
        chosen.insert(name);
        if (comma == std::string::npos) break;
        at = comma + 1;
    }
    for (const auto& [name, n] : runs_of)
        if (!all.count(name)) return usage(("unknown target in --runs-of: " + name).c_str());
    for (const auto& [name, s] : seconds_of)
        if (!all.count(name)) return usage(("unknown target in --seconds-of: " + name).c_str());
    size_t n_chosen = 0;
    for (const auto& [name, parse] : all) n_chosen += (only == "all" || chosen.count(name)) ? 1 : 0;

    bool ok = true;
    uint64_t total = 0, crashes = 0;
    for (const auto& [name, parse] : all) {
        if (only != "all" && !chosen.count(name)) continue;
        // With a time budget, counts are caps only where given; without one, they are the run.
        const double budget_s = seconds_of.count(name) ? seconds_of.at(name)
                                : seconds > 0          ? seconds / double(std::max<size_t>(n_chosen, 1))
                                                       : 0.0;
        const uint64_t target_runs = runs_of.count(name)          ? runs_of.at(name)
                                     : (budget_s > 0 && !runs_given) ? UINT64_MAX
                                                                     : runs;
        const std::vector<std::string> seeds = read_seeds(corpus + "/" + name + ".txt");
        Rng rng(seed ^ std::hash<std::string>{}(name));
        Counts c;
        // The trace every .tstrace is made from, traced once before the clock runs: starting
        // the emulator is not the first input's time (it once passed 2 s on a loaded machine).
        if (name == "tstrace") (void)base_trace();
        if (name == "tstrace_valid")
            for (int which = 0; which < 3; ++which) (void)traced_base(which);
        const auto t0 = std::chrono::steady_clock::now();
        auto call = [&](const std::string& in) { parse(in, rng); };
        const bool generated = name.find("_valid") != std::string::npos;  // makes its own files
        auto next_input = [&] { return generated ? std::string() : mutate(rng, pick(rng, seeds), seeds); };
        for (const std::string& s : seeds) run_one(name, s, call, c);  // the corpus itself first
        auto spent = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
        // A generator of valid files makes large ones (a second each under the sanitizers): a
        // few suffice there, the budget's count is printed either way.
        const uint64_t need = generated ? std::min<uint64_t>(min_inputs, 3) : min_inputs;
        // The budget is stretched (up to four times) until that many ran: a machine others load
        // (a valid tuning file took 3.8 s of wall clock for 0.7 s of CPU once) still tests them.
        while (c.inputs < target_runs &&
               (budget_s <= 0 || spent() < budget_s || (c.inputs < need && spent() < 4 * budget_s)))
            run_one(name, next_input(), call, c);
        const double secs = spent();
        if (c.slowest_input.size() && generated)
            std::printf("%-8s slowest: %s\n", name.c_str(), c.slowest_input.c_str());
        std::printf("%-8s inputs=%llu accepted=%llu refused=%llu failures=%llu seconds=%.1f slowest_s=%.4f slowest_cpu_s=%.4f\n",
                    name.c_str(), (unsigned long long)c.inputs, (unsigned long long)c.accepted,
                    (unsigned long long)c.refused, (unsigned long long)c.failures, secs, c.slowest_s, c.slowest_cpu_s);
        std::fflush(stdout);
        total += c.inputs;
        crashes += c.failures;
        if (c.failures) ok = false;
        // A time budget on a machine too slow or too busy to spend it is a run that tested
        // little: say so rather than pass.
        if (c.inputs < std::min(need, target_runs)) {
            std::fprintf(stderr, "FAIL %s: only %llu inputs ran, fewer than --min-inputs %llu\n", name.c_str(),
                         (unsigned long long)c.inputs, (unsigned long long)need);
            ok = false;
        }
        // Tuning files are read leniently (a bad file is ignored, never an error), so only
        // the command-line parsers must refuse; 
        // the valid files are meant to be accepted, most of them.
        const bool hostile = name != "tuning" && name != "tstrace" && name.find("_valid") == std::string::npos;
        if (hostile && c.refused < std::min(min_refused, c.inputs / 2)) {
            std::fprintf(stderr, "FAIL %s: only %llu inputs refused, fewer than --min-refused %llu\n", name.c_str(),
                         (unsigned long long)c.refused, (unsigned long long)min_refused);
            ok = false;
        }
    }
    // No input may take the process past 1 GiB (issue 23: a 108 KB trace once took 7-9 GB).
    struct rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const double peak_mib = double(usage.ru_maxrss) / 1024.0;
    if (peak_mib > 1024) {
        std::fprintf(stderr, "FAIL memory: peak resident %.0f MiB, over 1,024 MiB\n", peak_mib);
        ok = false;
    }
    std::printf("total inputs=%llu failures=%llu seed=%llu peak_rss_mib=%.0f\n", (unsigned long long)total,
                (unsigned long long)crashes, (unsigned long long)seed, peak_mib);
    return ok ? 0 : 1;
}
