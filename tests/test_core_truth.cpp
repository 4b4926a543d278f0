// The core truth behind the views (issue 9): every __local array keeps the shape the
// kernel declares (model, view model and trace --json alike); every rung's closed forms
// (kernels/ladder.json) match its trace.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "catalog_params.h"
#include "core/trace/analysis.h"
#include "core/kernel/catalog.h"
#include "core/base/errors.h"
#include "core/io/trace_export.h"
#include "core/emulator/trace_runner.h"
#include "core/trace/view_model.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace tilescope;

namespace {

Trace trace_rung(const std::string& rung, const std::string& size, int tile = 0,
                 std::map<std::string, int64_t> params = {}) {
    const KernelSpec* k = find_rung(rung);
    if (!k) throw std::runtime_error("no rung " + rung);
    TraceOptions o;
    o.checks = false;
    LaunchConfig c{*k, parse_size(size), tile ? tile : k->default_tile, std::move(params)};
    return run_trace(c, o);
}

const LocalBuffer* find_local(const Trace& t, const std::string& name) {
    for (const LocalBuffer& l : t.local_buffers)
        if (l.name == name) return &l;
    return nullptr;
}

int64_t param(const KernelSpec& k, const char* name) {
    const TunableParam* p = k.find_param(name);
    if (!p) throw std::runtime_error(std::string("no param ") + name);
    return p->default_value;
}

// `tilescope ARGS`, stdout captured; the exit status in *status.
std::string run_cli(const std::string& args, int* status) {
    const fs::path out = fs::temp_directory_path() / ("tilescope-core-truth-" + std::to_string(getpid()));
    const int raw = std::system((std::string(TILESCOPE_BIN) + " " + args + " >" + out.string()).c_str());
    *status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    std::ifstream in(out);
    std::stringstream s;
    s << in.rdbuf();
    fs::remove(out);
    return s.str();
}

}  // namespace

// reg2d.cl declares `__local float atile[TS][TSK]` and `btile[TSK][TS]`.
TEST(LocalArrays, Reg2dTilesAreTheDeclaredShape) {
    const KernelSpec& k = *find_rung("reg2d");
    const int64_t TS = k.default_tile, TSK = param(k, "TSK");
    const Trace t = trace_rung("reg2d", "64");
    const LocalBuffer* a = find_local(t, "atile");
    const LocalBuffer* b = find_local(t, "btile");
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->rows, uint64_t(TS));
    EXPECT_EQ(a->cols, uint64_t(TSK));
    EXPECT_EQ(b->rows, uint64_t(TSK));
    EXPECT_EQ(b->cols, uint64_t(TS));
    EXPECT_EQ(a->bytes, uint64_t(TS * TSK * 4));

    // The view model draws them so, with no guessing from the tile size.
    const GroupPhaseView v = group_phase_view(t, matrix_roles(t), {0, 0, 0}, 0);
    ASSERT_EQ(v.locals.size(), 2u);
    for (const LocalArrayView& la : v.locals) {
        const LocalBuffer* l = find_local(t, la.name);
        ASSERT_TRUE(l) << la.name;
        EXPECT_EQ(la.rows, int(l->rows)) << la.name;
        EXPECT_EQ(la.cols, int(l->cols)) << la.name;
        EXPECT_EQ(la.writer.size(), l->rows * l->cols) << la.name;
    }
}

// The command line's contract: trace --json lists them under local_arrays.
TEST(LocalArrays, TraceJsonListsThemAsDeclared) {
    const KernelSpec& k = *find_rung("reg2d");
    const int64_t TS = k.default_tile, TSK = param(k, "TSK");
    int status = -1;
    const json j = json::parse(run_cli("trace --kernel reg2d --size 64 --no-checks --json -", &status));
    ASSERT_EQ(status, 0);
    ASSERT_TRUE(j.contains("local_arrays"));
    std::map<std::string, json> by_name;
    for (const json& l : j["local_arrays"]) by_name[l["name"].get<std::string>()] = l;
    ASSERT_EQ(by_name.size(), 2u);
    EXPECT_EQ(by_name["atile"]["rows"], TS);
    EXPECT_EQ(by_name["atile"]["cols"], TSK);
    EXPECT_EQ(by_name["atile"]["bytes"], TS * TSK * 4);
    EXPECT_EQ(by_name["btile"]["rows"], TSK);
    EXPECT_EQ(by_name["btile"]["cols"], TS);
}

// float4 arrays are counted in 4-byte words: reg2d_vec's `floatV atile[TS][TSK/VW]` is
// TS rows of TSK words.
TEST(LocalArrays, VectorArraysAreRowsOfWords) {
    const KernelSpec& k = *find_rung("reg2d_vec");
    const int64_t TS = k.default_tile, TSK = param(k, "TSK");
    const Trace t = trace_rung("reg2d_vec", "64");
    const LocalBuffer* a = find_local(t, "atile");
    const LocalBuffer* b = find_local(t, "btile");
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->rows, uint64_t(TS));
    EXPECT_EQ(a->cols, uint64_t(TSK));
    EXPECT_EQ(b->rows, uint64_t(TSK));
    EXPECT_EQ(b->cols, uint64_t(TS));
}

// A custom kernel's arrays at a tile the ladder does not use: transposed_tile.cl declares
// atile[TS][TS] and btile_t[TS][TS + PAD]; at TS 16, PAD 1 they are 16 x 16 and 16 x 17.
TEST(LocalArrays, CustomKernelArraysAsDeclared) {
    CustomKernelOptions o;
    o.source_path = std::string(TILESCOPE_KERNEL_TESTS) + "/transposed_tile.cl";
    o.entry = "mm_transposed_tile";
    o.global = {"((N+TS-1)/TS)*TS", "((M+TS-1)/TS)*TS"};
    o.local = {"TS", "TS"};
    o.defines = {"TS=TS", "PAD=1"};
    o.args = {"M=int:M", "N=int:N", "K=int:K", "A=matrix:MxK:in", "B=matrix:KxN:in", "C=matrix:MxN:out"};
    o.check = "C=A*B";
    TraceOptions to;
    to.checks = false;
    const Trace t = run_trace(LaunchConfig{load_custom_kernel(o), parse_size("32"), 16}, to);
    const LocalBuffer* a = find_local(t, "atile");
    const LocalBuffer* b = find_local(t, "btile_t");
    ASSERT_TRUE(a && b);
    EXPECT_EQ(a->rows, 16u);
    EXPECT_EQ(a->cols, 16u);
    EXPECT_EQ(b->rows, 16u);
    EXPECT_EQ(b->cols, 17u);
    const json j = trace_to_json(t);
    ASSERT_EQ(j["local_arrays"].size(), 2u);
}

// A `__local float*` argument is one row of its floats (row_private_local's bcol, K floats).
TEST(LocalArrays, LocalArgumentIsOneRow) {
    const Trace t = trace_rung("row_private_local", "37x29x45", 16);
    const LocalBuffer* b = find_local(t, "bcol");
    ASSERT_TRUE(b);
    EXPECT_EQ(b->rows, 1u);
    EXPECT_EQ(b->cols, 45u);
}

// Every rung written in OpenCL C carries closed forms for all five quantities, and each
// matches the trace exactly at its default parameters and tile, at 64^3 and at a size
// that is a multiple of no tile (partial tiles, vector fall-backs).
class RungClosedForms : public ::testing::TestWithParam<std::string> {};

TEST_P(RungClosedForms, MatchTheTrace) {
    const KernelSpec& k = *find_rung(GetParam());
    // The element loads are optional in the format (splitk's second kernel reads no A or B) but
    // every rung states them: they are the heatmap's sentence for the rung.
    for (std::string_view q : kClosedFormQuantities)
        EXPECT_NE(k.closed_forms.find(q), nullptr)
            << k.name << ": kernels/ladder.json closed_forms has no \"" << q
            << "\"; every rung gives all of them (docs/architecture.md, \"Where closed forms live\")";
    ASSERT_EQ(k.closed_forms.forms.size(), std::size(kClosedFormQuantities)) << k.name;
    for (const char* size : {"64", "37x29x45"}) {
        const Trace t = trace_rung(k.name, size);
        ASSERT_TRUE(t.verification && t.verification->verified) << k.name << " at " << size;
        const std::vector<ExpectedVsTraced> rows = expected_vs_traced(t);
        ASSERT_EQ(rows.size(), kRequiredClosedForms) << k.name;
        for (const ExpectedVsTraced& r : rows) {
            EXPECT_EQ(r.expected, r.traced) << k.name << " at " << size << ": " << r.quantity << " = " << r.expression;
            EXPECT_FALSE(r.formula.empty()) << k.name << ": " << r.quantity;
        }
        // The same rows in trace --json's "expected".
        const json j = trace_to_json(t);
        ASSERT_EQ(j["expected"].size(), rows.size());
        for (const json& e : j["expected"]) EXPECT_TRUE(e["matches"].get<bool>()) << k.name << " at " << size << ": " << e.dump();
        // The heatmap's sentence: every element of A and of B loaded as often as the forms say.
        const MatrixRoles roles = matrix_roles(t);
        for (const auto& [buffer, role] : {std::pair{roles.a, "A"}, std::pair{roles.b, "B"}}) {
            const ReuseLine r = reuse_line(t, buffer, role);
            EXPECT_TRUE(r.formula_matches) << k.name << " at " << size << ": " << r.formula << "; traced " << r.min_loads
                                           << ".." << r.max_loads;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Ladder, RungClosedForms, ::testing::ValuesIn(test::opencl_rungs()), test::RungName());

// The forms are evaluated at the parameters in effect, not the defaults: reg2d at WPTM 2,
// WPTN 8 reads (2+8) floats per work-item and step.
TEST(ClosedFormsAtParams, FollowTheTracedParameters) {
    const Trace t = trace_rung("reg2d", "64", 64, {{"WPTM", 2}, {"WPTN", 8}});
    const std::optional<ExpectedTraffic> e = expected_traffic(t);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->local_load_bytes, t.totals.local_load_bytes);
    const std::optional<ExpectedTraffic> defaults = expected_traffic("reg2d", t.size, t.tile);
    ASSERT_TRUE(defaults);
    EXPECT_NE(defaults->local_load_bytes, t.totals.local_load_bytes);
}

// A malformed closed form in the catalog is refused with its rung named.
TEST(ClosedFormsSchema, MissingQuantityIsRefused) {
    const std::string json_text = R"({"rungs": [{"name": "bad", "library": "x", "global": ["1"], "local": ["1"],
        "args": [], "closed_forms": {"global_load_bytes": {"expr": "4*M", "text": "M floats"}}}]})";
    try {
        parse_catalog(json_text, "kernels");
        FAIL() << "accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("bad"), std::string::npos) << e.what();
    }
}

// The coalescing ideal follows the access width: W lanes reading consecutive elements
// touch W*width/sector sectors: 4 for a float rung, 16 for reg2d_vec's float4 at 64^3
// (every global access there is a whole vector).
TEST(CoalescingIdeal, FollowsTheAccessWidth) {
    const Trace naive = trace_rung("naive", "64");
    const Trace vec = trace_rung("reg2d_vec", "64");
    const double per_float = double(naive.geometry.warp) * 4 / naive.geometry.sector_bytes;
    const double per_float4 = double(vec.geometry.warp) * 16 / vec.geometry.sector_bytes;
    EXPECT_DOUBLE_EQ(coalescing_summary(naive).ideal_sectors_per_request, per_float);
    const CoalescingSummary cs = coalescing_summary(vec);
    EXPECT_DOUBLE_EQ(cs.ideal_sectors_per_request, per_float4);
    ASSERT_FALSE(cs.lines.empty());
    for (const LineCoalescing& l : cs.lines)
        EXPECT_DOUBLE_EQ(l.counts.ideal_sectors_per_request(), per_float4) << "line " << l.line;
    const json j = trace_to_json(vec);
    EXPECT_DOUBLE_EQ(j["coalescing"]["ideal_sectors_per_request"].get<double>(), per_float4);
    // reg2d_vec loads the bytes reg2d loads, as float4: it stays at its (wider) ideal.
    EXPECT_DOUBLE_EQ(cs.total.sectors_per_request(), per_float4);
}
