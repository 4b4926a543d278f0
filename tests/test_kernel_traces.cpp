// Kernel trace tests as data: every tests/kernels/*.json is a run description (a ladder
// rung or a .cl beside it, sizes, options) plus the figures its trace must show. One
// test per file; adding a case means adding a file. The runner's limits, cancellation
// and group selection are tested at the end.
//
//   "kernel": rung name           or "source", "entry", "global", "local", "defines", "args", "check"
//   "size", "tile", "checks", "warp", "sector", "banks", "groups"
//   "expect": {
//     "totals" / "buffers" / "coalescing" / "bank_conflicts": subsets of trace --json
//     "closed_form": true          every expected-vs-traced row matches
//     "verified": true             the emulator's C equals the CPU reference
//     "no_diagnostics": true | "diagnostics": [{kind, line, work_items: true, message_contains}]
//     "detail_groups": n
//     "intervals": [{group, index, loaded: {NAME: [[r0,c0,r1,c1]..]}, stored: {...}}]
//     "every_group": [{index, loaded: {NAME: {rects, shape: [rows, cols], rows: [a,b], cols: [a,b]}}}]
//   }
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <nlohmann/json.hpp>

#include "catalog_params.h"
#include "core/trace/analysis.h"
#include "core/kernel/catalog.h"
#include "core/base/errors.h"
#include "core/kernel/kernel_spec.h"
#include "core/io/trace_export.h"
#include "core/emulator/trace_runner.h"
#include "test_support.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace tilescope;

namespace {

const fs::path kDir = TILESCOPE_KERNEL_TESTS;

std::vector<std::string> descriptions() {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(kDir))
        if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

std::vector<std::string> strings(const json& j, const char* key) {
    std::vector<std::string> v;
    if (j.contains(key))
        for (const auto& s : j[key]) v.push_back(s.get<std::string>());
    return v;
}

LaunchConfig config_from(const json& d) {
    LaunchConfig c;
    if (d.contains("kernel")) {
        const KernelSpec* rung = find_rung(d["kernel"].get<std::string>());
        if (!rung) throw std::runtime_error("no rung " + d["kernel"].dump());
        c.kernel = *rung;
    } else {
        CustomKernelOptions o;
        o.source_path = (kDir / d["source"].get<std::string>()).string();
        o.entry = d["entry"].get<std::string>();
        o.global = strings(d, "global");
        o.local = strings(d, "local");
        o.defines = strings(d, "defines");
        o.args = strings(d, "args");
        o.check = d.value("check", "");
        c.kernel = load_custom_kernel(o);
    }
    c.size = parse_size(d["size"].get<std::string>());
    c.tile = d.value("tile", c.kernel.default_tile);
    return c;
}

TraceOptions options_from(const json& d) {
    TraceOptions o;
    o.checks = d.value("checks", true);
    o.geometry.warp = d.value("warp", 32u);
    o.geometry.sector_bytes = d.value("sector", 32u);
    o.geometry.banks = d.value("banks", 32u);
    if (d.contains("groups")) o.groups = parse_groups(d["groups"].get<std::string>());
    return o;
}

// Every member of `want` is in `got` with the same value (numbers compared as numbers).
void expect_subset(const json& want, const json& got, const std::string& path) {
    if (want.is_object()) {
        ASSERT_TRUE(got.is_object()) << path << " is " << got.dump();
        for (auto it = want.begin(); it != want.end(); ++it) {
            ASSERT_TRUE(got.contains(it.key())) << path << "." << it.key() << " is missing";
            expect_subset(it.value(), got[it.key()], path + "." + it.key());
        }
    } else if (want.is_number_float() || got.is_number_float()) {
        ASSERT_TRUE(got.is_number()) << path;
        EXPECT_NEAR(want.get<double>(), got.get<double>(), 1e-9 * std::max(1.0, std::fabs(want.get<double>()))) << path;
    } else {
        EXPECT_EQ(want, got) << path;
    }
}

const json* find_interval(const json& trace, const json& group, int index) {
    for (const auto& g : trace["per_group"])
        if (g["group"] == group)
            for (const auto& iv : g["intervals"])
                if (iv["index"] == index) return &iv;
    return nullptr;
}

class KernelTrace : public ::testing::TestWithParam<std::string> {};

TEST_P(KernelTrace, MatchesExpectedFigures) {
    std::ifstream in(kDir / (GetParam() + ".json"));
    const json d = json::parse(in);
    SCOPED_TRACE(d.value("description", GetParam()));
    const LaunchConfig config = config_from(d);
    const Trace t = run_trace(config, options_from(d));
    const json j = trace_to_json(t);
    const json& e = d["expect"];
    EXPECT_TRUE(t.complete);

    for (const char* key : {"totals", "buffers", "coalescing", "bank_conflicts"})
        if (e.contains(key)) expect_subset(e[key], j[key], key);

    if (e.value("closed_form", false)) {
        const auto rows = expected_vs_traced(t);
        ASSERT_FALSE(rows.empty()) << "no closed form for " << t.kernel;
        for (const auto& r : rows) EXPECT_EQ(r.expected, r.traced) << r.quantity << " (" << r.formula << ")";
    }
    if (e.contains("verified")) {
        ASSERT_TRUE(t.verification.has_value());
        EXPECT_EQ(e["verified"].get<bool>(), t.verification->verified) << t.verification->summary();
    }
    if (e.value("no_diagnostics", false)) {
        for (const Diagnostic& diag : t.diagnostics) {
            ADD_FAILURE() << "unexpected " << to_string(diag.kind) << ": " << diag.message;
        }
    }
    if (e.contains("diagnostics")) {
        for (const auto& want : e["diagnostics"]) {
            const std::string kind = want["kind"].get<std::string>();
            const int line = want.value("line", 0);
            auto it = std::find_if(t.diagnostics.begin(), t.diagnostics.end(), [&](const Diagnostic& diag) {
                return to_string(diag.kind) == kind && (line == 0 || diag.line == line);
            });
            std::string seen;
            for (const Diagnostic& diag : t.diagnostics)
                seen += "\n  " + std::string(to_string(diag.kind)) + " line " + std::to_string(diag.line) + ": " + diag.message;
            ASSERT_NE(it, t.diagnostics.end()) << "no " << kind << " diagnostic at line " << line << "; got:" << seen;
            EXPECT_FALSE(it->message.empty());
            if (want.value("work_items", false)) {
                EXPECT_FALSE(it->work_items.empty()) << it->message;
            }
            if (want.contains("message_contains")) {
                EXPECT_NE(it->message.find(want["message_contains"].get<std::string>()), std::string::npos) << it->message;
            }
        }
    }
    if (e.contains("detail_groups")) {
        EXPECT_EQ(e["detail_groups"].get<size_t>(), t.detail.size());
    }

    if (e.contains("intervals")) {
        for (const auto& want : e["intervals"]) {
            const json* iv = find_interval(j, want["group"], want["index"].get<int>());
            ASSERT_NE(iv, nullptr) << "no interval " << want["index"] << " of group " << want["group"];
            for (const char* key : {"loaded", "stored"}) {
                if (want.contains(key)) {
                    EXPECT_EQ(want[key], (*iv)[key]) << key << " in interval " << want["index"] << " of group " << want["group"];
                }
            }
        }
    }
    if (e.contains("every_group")) {
        ASSERT_FALSE(t.detail.empty());
        for (const auto& want : e["every_group"]) {
            for (const GroupTrace& g : t.detail) {
                const std::string where = "interval " + want["index"].dump() + " of group (" + std::to_string(g.group[0]) +
                                          "," + std::to_string(g.group[1]) + ")";
                ASSERT_LT(want["index"].get<size_t>(), g.intervals.size()) << where;
                const BarrierInterval& iv = g.intervals[want["index"].get<size_t>()];
                size_t global_buffers_loaded = 0;
                for (const auto& b : iv.buffers) global_buffers_loaded += b.loaded.empty() ? 0 : 1;
                EXPECT_EQ(want["loaded"].size(), global_buffers_loaded) << where;
                for (auto it = want["loaded"].begin(); it != want["loaded"].end(); ++it) {
                    const BufferIntervalAccess* a = iv.find(it.key());
                    ASSERT_NE(a, nullptr) << where << ": nothing of " << it.key();
                    const json& w = it.value();
                    ASSERT_EQ(w["rects"].get<size_t>(), a->loaded.size()) << where << ", " << it.key();
                    const Rect& r = a->loaded.front();
                    if (w.contains("shape")) {
                        EXPECT_EQ(w["shape"][0].get<int64_t>(), r.rows()) << where << ", " << it.key();
                        EXPECT_EQ(w["shape"][1].get<int64_t>(), r.cols()) << where << ", " << it.key();
                    }
                    if (w.contains("rows")) {
                        EXPECT_EQ(w["rows"][0].get<int64_t>(), r.r0) << where << ", " << it.key();
                        EXPECT_EQ(w["rows"][1].get<int64_t>(), r.r1) << where << ", " << it.key();
                    }
                    if (w.contains("cols")) {
                        EXPECT_EQ(w["cols"][0].get<int64_t>(), r.c0) << where << ", " << it.key();
                        EXPECT_EQ(w["cols"][1].get<int64_t>(), r.c1) << where << ", " << it.key();
                    }
                }
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Data, KernelTrace, ::testing::ValuesIn(descriptions()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return test::test_name(info.param); });

}  // namespace


// Beyond the data: the runner's limits, cancellation and group selection.
namespace {

LaunchConfig rung(const char* name, const char* size, int tile) {
    LaunchConfig c;
    c.kernel = *find_rung(name);
    c.size = parse_size(size);
    c.tile = tile;
    return c;
}

TEST(TraceRunner, RefusesBeyondTheBoundWithTheEstimate) {
    TraceOptions o;
    o.max_seconds = 0.01;
    try {
        run_trace(rung("naive", "128", 16), o);
        FAIL() << "no refusal";
    } catch (const InputError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("--size 128"), std::string::npos) << m;
        EXPECT_NE(m.find("about"), std::string::npos) << m;
        EXPECT_NE(m.find("smaller --size"), std::string::npos) << m;
        EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    }
}

TEST(TraceRunner, ARefusalForAViewNamesTheLaunchAndNoOption) {
    // The GUI's compare view (issue 32 item 6): the user typed no --size, --groups or
    // --no-checks, so the refusal names the launch as the caller does and no option.
    TraceOptions o;
    o.max_seconds = 0.01;
    o.named_as = "the trace of 'naive' at 128x128x128";
    try {
        run_trace(rung("naive", "128", 16), o);
        FAIL() << "no refusal";
    } catch (const InputError& e) {
        const std::string m = e.what();
        EXPECT_EQ(m.rfind("the trace of 'naive' at 128x128x128 on the emulator needs about", 0), 0u) << m;
        EXPECT_NE(m.find("a smaller size fits"), std::string::npos) << m;
        EXPECT_EQ(m.find("--"), std::string::npos) << m;
    }
    o.max_seconds = 900;
    o.groups = {{99, 0, 0}};
    try {
        estimate_trace(rung("naive", "128", 16), o);
        FAIL() << "no refusal";
    } catch (const InputError& e) {
        const std::string m = e.what();
        EXPECT_EQ(m.rfind("the trace of 'naive' at 128x128x128: work-group 99,0", 0), 0u) << m;
        EXPECT_EQ(m.find("--"), std::string::npos) << m;
    }
}

TEST(TraceRunner, CancelStopsBetweenWorkGroups) {
    TraceOptions o;
    o.checks = false;
    std::atomic<bool> stop{false};
    std::atomic<uint64_t> last{0};
    o.cancelled = [&] { return stop.load(); };
    o.progress = [&](uint64_t done, uint64_t) {
        last = done;
        stop = true;
    };
    EXPECT_THROW(run_trace(rung("tiled", "128", 8), o), Cancelled);
    EXPECT_LT(last.load(), 256u);  // 256 work-groups; stopped well before the end
}

// A work-item that never ends (it waits for a value nobody writes) still stops when the
// run is cancelled: the plugin checks at every memory access, not only between groups.
TEST(TraceRunner, CancelStopsAWorkItemThatNeverEnds) {
    CustomKernelOptions k;
    k.source_path = (kDir / "endless.cl").string();
    k.entry = "mm";
    k.global = {"N", "M"};
    k.local = {"8", "8"};
    k.args = {"M=int:M", "N=int:N", "K=int:K", "A=matrix:MxK:in", "B=matrix:KxN:in", "C=matrix:MxN:out"};
    LaunchConfig c;
    c.kernel = load_custom_kernel(k);
    c.size = parse_size("16");
    TraceOptions o;
    o.checks = false;
    const auto started = std::chrono::steady_clock::now();
    o.cancelled = [&] { return std::chrono::steady_clock::now() - started > std::chrono::seconds(1); };
    auto done = std::async(std::launch::async, [&] {
        try {
            run_trace(c, o);
        } catch (const Cancelled&) {
            return true;
        }
        return false;
    });
    if (done.wait_for(std::chrono::seconds(30)) != std::future_status::ready) {
        ADD_FAILURE() << "the trace did not stop 29 s after it was cancelled";
        std::_Exit(1);  // the emulator's thread cannot be joined
    }
    EXPECT_TRUE(done.get()) << "the endless kernel's trace ended without Cancelled";
}

TEST(TraceRunner, GroupsOutsideTheNdrangeAreRefused) {
    TraceOptions o;
    o.groups = parse_groups("4,0");
    EXPECT_THROW(estimate_trace(rung("tiled", "32", 8), o), InputError);  // 4x4 groups
    o.groups = parse_groups("3,3;0,1");
    EXPECT_EQ(estimate_trace(rung("tiled", "32", 8), o).detail_groups.size(), 2u);
}

TEST(TraceRunner, AutomaticDetailFitsTheBudget) {
    TraceOptions o;
    EXPECT_EQ(estimate_trace(rung("tiled", "32", 8), o).detail_groups.size(), 16u);  // all of them
    o.detail_budget_bytes = 1;
    const auto e = estimate_trace(rung("tiled", "256", 16), o);
    ASSERT_EQ(e.detail_groups.size(), 1u);  // at least the first
    EXPECT_EQ(e.detail_groups[0], (GroupId{0, 0, 0}));
    o.detail_budget_bytes = 0;  // none (the sampled cache model's traces)
    EXPECT_TRUE(estimate_trace(rung("tiled", "256", 16), o).detail_groups.empty());
}

// A sampled trace for the cache model (as cache_replay sdump and the sampled caches take it),
// 3 groups along x.
TraceOptions sampled_cache_options() {
    TraceOptions o;
    o.checks = false;
    o.cache_requests = true;
    o.detail_budget_bytes = 0;
    o.sample = {3, 1, 1};
    return o;
}

// The plugin holds a barrier interval's requests until it closes, and Oclgrind runs each
// work-item to its next barrier before the next starts: a kernel without barriers (row)
// holds a whole group's requests in every worker at once, about 850 bytes each.
TEST(TraceRunner, EveryWorkersOpenRequestsAreEstimated) {
    TraceOptions o = sampled_cache_options();
    auto peak = [&](const char* kernel, const char* size, int tile, const char* workers) {
        const test_support::ScopedEnv env("OCLGRIND_NUM_THREADS", workers);
        return double(estimate_trace(rung(kernel, size, tile), o).peak_bytes);
    };
    // row at 1024^3: 16-lane groups, each lane 2*K*N loads; a second worker holds a second
    // group's 2*K*N requests (and a second set of heatmaps, 8 bytes an element).
    const double n = 1024, requests = 2 * n * n, heatmaps = 3 * n * n * 8;
    const double more = peak("row", "1024", 16, "2") - peak("row", "1024", 16, "1");
    EXPECT_GE(more, requests * 850) << "a second worker's open requests are not counted";
    EXPECT_LE(more, requests * 850 * 1.01 + heatmaps) << "more than one group's open requests a worker";
    // The estimate follows OCLGRIND_NUM_THREADS, the emulator's own worker count.
    EXPECT_GT(peak("row", "1024", 16, "1"), requests * 850);
    // tiled closes an interval at every barrier: a phase's requests, not the group's.
    o.sample = {3, 3, 1};
    const double tiled_more = peak("tiled", "1024", 16, "2") - peak("tiled", "1024", 16, "1");
    EXPECT_LT(tiled_more, heatmaps * 1.05) << "tiled's open requests counted as if it had no barriers";
}

// Where only the other workers' open requests are past the limit, the refusal says that one
// emulator thread fits, with what it would need; the one-thread figures are that estimate's.
TEST(TraceRunner, ARefusalThatOneThreadWouldFitNamesOclgrindNumThreads) {
    TraceOptions o = sampled_cache_options();
    TraceEstimate one, four;
    {
        const test_support::ScopedEnv env("OCLGRIND_NUM_THREADS", "1");
        one = estimate_trace(rung("row", "1024", 16), o);
    }
    const test_support::ScopedEnv env("OCLGRIND_NUM_THREADS", "4");
    four = estimate_trace(rung("row", "1024", 16), o);
    EXPECT_EQ(four.workers, 4u);
    EXPECT_EQ(one.workers, 1u);
    EXPECT_GT(four.peak_bytes, one.peak_bytes);  // each thread holds its group's open requests
    o.max_memory_bytes = (one.peak_bytes + four.peak_bytes) / 2;
    try {
        (void)run_trace(rung("row", "1024", 16), o);
        ADD_FAILURE() << "a trace past its memory limit ran";
    } catch (const InputError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("with OCLGRIND_NUM_THREADS=1 (one emulator thread) it needs about " + one.text().substr(6)),
                  std::string::npos) << what;
    }
    o.max_memory_bytes = one.peak_bytes / 2;  // one thread does not fit either: not named
    try {
        (void)run_trace(rung("row", "1024", 16), o);
        ADD_FAILURE() << "a trace past its memory limit ran";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()).find("OCLGRIND_NUM_THREADS"), std::string::npos) << e.what();
    }
}

}  // namespace
