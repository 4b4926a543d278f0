// Issue 10 in the core: saved traces read back equal, damaged ones refused in one line;
// barriers removed from any source by line; wrong cells against the CPU reference; the
// hand-out's data equals the view model's.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>

#include "core/caches/held_out.h"
#include "core/kernel/catalog.h"
#include "core/base/errors.h"
#include "core/io/html_export.h"
#include "core/teach/lesson.h"
#include "core/teach/palette.h"
#include "core/device/runner.h"
#include "core/kernel/source_edit.h"
#include "core/io/trace_file.h"
#include "core/emulator/trace_runner.h"
#include "core/trace/view_model.h"
#include "core/trace/wrong_cells.h"

using namespace tilescope;

namespace {

LaunchConfig config(const std::string& kernel, int64_t size, int tile) {
    const KernelSpec* k = find_kernel(kernel);
    EXPECT_NE(k, nullptr) << kernel;
    return LaunchConfig{*k, {size, size, size}, tile};
}

// One traced run shared by the tests below (a 32^3 trace takes about a second).
const TraceFile& tiled32() {
    static const TraceFile file = [] {
        TraceFile f;
        f.launch = config("tiled", 32, 8);
        f.trace = run_trace(f.launch);
        f.measurements = nlohmann::json::array({{{"kernel", "tiled"}, {"gflops", 1.5}}});
        return f;
    }();
    return file;
}

}  // namespace

TEST(TraceFile, RoundTripGivesAnEqualTrace) {
    const TraceFile& f = tiled32();
    ASSERT_FALSE(f.trace.detail.empty());
    ASSERT_TRUE(f.trace.result.has_value());
    const std::string bytes = serialize_trace_file(f);
    const TraceFile back = parse_trace_file(bytes, "memory");
    EXPECT_TRUE(back.trace == f.trace);
    EXPECT_TRUE(back == f);
    EXPECT_EQ(back.launch.kernel.source, f.launch.kernel.source);
    EXPECT_EQ(back.launch.tile, 8);
    // Compact: well under the JSON export of the same trace, plus the access log (ABI 3,
    // which the JSON leaves out) at a few bytes an access and its stored words.
    size_t log_bytes = 0;
    for (const GroupTrace& g : f.trace.detail)
        for (const BarrierInterval& in : g.intervals)
            for (const WorkItemAccesses& w : in.access_log) log_bytes += 3 * w.accesses.size() + 4 * w.stored_words.size();
    EXPECT_GT(log_bytes, 0u);
    EXPECT_LT(bytes.size(), 400u * 1024u + log_bytes) << bytes.size() << " (log allowance " << log_bytes << ")";
}

TEST(TraceFile, AChangedFieldIsNoLongerEqual) {
    TraceFile changed = parse_trace_file(serialize_trace_file(tiled32()), "memory");
    changed.trace.detail.front().intervals.front().buffers.front().loads.front().work_item ^= 1;
    EXPECT_FALSE(changed == tiled32());
}

TEST(TraceFile, TruncatedOrDamagedFilesAreOneLineInputErrors) {
    const std::string bytes = serialize_trace_file(tiled32());
    for (size_t cut : {size_t(0), size_t(10), bytes.find('\n') + 1, bytes.size() / 2, bytes.size() - 1}) {
        try {
            parse_trace_file(std::string_view(bytes).substr(0, cut), "t.tstrace");
            ADD_FAILURE() << "accepted a file cut at " << cut;
        } catch (const InputError& e) {
            const std::string what = e.what();
            EXPECT_EQ(what.find('\n'), std::string::npos) << what;
            EXPECT_EQ(what.rfind("t.tstrace", 0), 0u) << what;
        }
    }
    std::string newer = bytes;
    newer.replace(newer.find('\n') - 1, 1, "9");
    EXPECT_THROW(parse_trace_file(newer, "t"), InputError);
    std::string flipped = bytes;
    for (size_t i = bytes.find('\n') + 1; i < flipped.size(); i += 97) flipped[i] = char(flipped[i] ^ 0x5a);
    EXPECT_THROW(parse_trace_file(flipped, "t"), InputError);
}

TEST(SourceEdit, FindsBarriersOutsideCommentsAndDropsOneByLine) {
    const std::string src =
        "// barrier(CLK_LOCAL_MEM_FENCE) in a comment\n"    // 1
        "kernel void k() {\n"                               // 2
        "  barrier(CLK_LOCAL_MEM_FENCE);\n"                 // 3
        "  /* barrier(x); */ if (1) work_group_barrier(\n"  // 4
        "      CLK_GLOBAL_MEM_FENCE);\n"                    // 5
        "  my_barrier(1);\n"                                // 6
        "}\n";
    EXPECT_EQ(barrier_lines(src), (std::vector<int>{3, 4}));
    const std::string dropped = drop_barrier(src, 4);
    EXPECT_EQ(barrier_lines(dropped), (std::vector<int>{3}));
    EXPECT_NE(dropped.find("if (1) (void)0\n;"), std::string::npos) << dropped;
    EXPECT_EQ(std::count(dropped.begin(), dropped.end(), '\n'), std::count(src.begin(), src.end(), '\n'));
    try {
        drop_barrier(src, 6);
        ADD_FAILURE();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("--drop-barrier 6"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("3, 4"), std::string::npos);
    }
}

TEST(SourceEdit, TiledHasTwoBarriersAndTheTraceSeesThem) {
    const KernelSpec& tiled = *find_rung("tiled");
    const std::vector<int> lines = barrier_lines(tiled.source);
    ASSERT_EQ(lines.size(), 2u);
    std::set<int> traced(tiled32().trace.barrier_lines.begin(), tiled32().trace.barrier_lines.end());
    EXPECT_EQ(traced, std::set<int>(lines.begin(), lines.end()));
}

TEST(WrongCells, EveryChangedCellAndNoOther) {
    const LaunchConfig c = config("tiled", 16, 8);
    auto m = make_matrices(resolve(c));
    const HostMatrix& a = m.at("A");
    const HostMatrix& b = m.at("B");
    HostMatrix& out = m.at("C");
    for (int64_t i = 0; i < 16; ++i)
        for (int64_t j = 0; j < 16; ++j) {
            double s = 0;
            for (int64_t k = 0; k < 16; ++k) s += double(a.at(i, k)) * b.at(k, j);
            out.data[out.index(i, j)] = float(s);
        }
    EXPECT_TRUE(find_wrong_cells(a, b, out).empty());
    out.data[out.index(3, 5)] += 0.5f;
    out.data[out.index(15, 0)] = std::numeric_limits<float>::quiet_NaN();
    EXPECT_EQ(find_wrong_cells(a, b, out), (std::vector<Cell>{{3, 5}, {15, 0}}));
}

TEST(Handout, HighlightedRectanglesAreTheViewModels) {
    const TraceFile& f = tiled32();
    const nlohmann::json d = handout_data(f);
    const MatrixRoles roles = matrix_roles(f.trace, f.launch.kernel.check);
    ASSERT_EQ(d["groups"].size(), f.trace.detail.size());
    for (size_t gi = 0; gi < f.trace.detail.size(); ++gi) {
        const GroupTrace& g = f.trace.detail[gi];
        ASSERT_EQ(d["groups"][gi]["parts"].size(), g.intervals.size());
        for (int p = 0; p < int(g.intervals.size()); ++p) {
            const GroupPhaseView v = group_phase_view(f.trace, roles, g.group, p);
            const auto& ph = d["groups"][gi]["parts"][p];
            EXPECT_EQ(ph["phase"], v.phase);  // the slides' phase this part belongs to
            EXPECT_EQ(ph["part"], v.part);
            ASSERT_EQ(ph["a"].size(), v.a_loaded.size());
            for (size_t i = 0; i < v.a_loaded.size(); ++i)
                EXPECT_EQ(ph["a"][i], nlohmann::json({v.a_loaded[i].r0, v.a_loaded[i].c0, v.a_loaded[i].r1, v.a_loaded[i].c1}));
            EXPECT_EQ(ph["end_line"], v.end_line);
        }
    }
    const std::string page = handout_html(f);
    // One self-contained page: the assets inline, the data in place of the template's null.
    EXPECT_EQ(page.find("<link"), std::string::npos);
    EXPECT_EQ(page.find("src="), std::string::npos);
    EXPECT_EQ(page.find("type=\"application/json\">null<"), std::string::npos);
    EXPECT_NE(page.find("<style>"), std::string::npos);
    EXPECT_NE(page.find("function paint()"), std::string::npos);
    EXPECT_EQ(page.find("http://"), std::string::npos);
    EXPECT_EQ(page.find("https://"), std::string::npos);
}

// The hand-out paints with the one palette (core/teach/palette.h), not copies of it.
TEST(Handout, ThePageCarriesTheOnePalette) {
    const std::string page = handout_page(nlohmann::json::object({{"x", 1}}));
    for (const palette::Entry& e : palette::entries()) {
        const std::string hex = (palette::light().*(e.field)).hex();
        EXPECT_NE(page.find("\"" + std::string(e.key) + "\":\"" + hex + "\""), std::string::npos) << e.key;  // the script's
        std::string css = e.key;
        std::replace(css.begin(), css.end(), '_', '-');
        EXPECT_NE(page.find("--" + css + ": " + hex + ";"), std::string::npos) << e.key;  // the legend's
    }
    // The old copies are gone: the mint "accumulates", the small red squares, the pale "holds".
    for (const char* stale : {"#7fd0b6", "#d22", "#d6ecf9", "rgba(230,120,20"}) EXPECT_EQ(page.find(stale), std::string::npos) << stale;
}

TEST(Handout, DataInTheScriptElementHoldsNoAngleBracketsAndParsesBack) {
    const nlohmann::json d = {{"source", "// </script><!-- <script> a < b && c > d \xC3\xA9\n"}, {"n", {1, 2}}};
    const std::string text = handout_json_for_script(d);
    EXPECT_EQ(text.find_first_of("<>&"), std::string::npos) << text;
    EXPECT_EQ(nlohmann::json::parse(text), d);
    // Bytes that are not UTF-8 (a comment in Latin-1) become U+FFFD instead of an error.
    const nlohmann::json latin1 = {{"source", std::string("// caf\xE9\n")}};
    EXPECT_NE(handout_json_for_script(latin1).find("caf\xEF\xBF\xBD"), std::string::npos);
}

// --- preludes: helpers several rungs share (ladder.json "prelude") ---

namespace {

std::string source_line(const std::string& source, int line) {
    std::istringstream in(source);
    std::string text;
    for (int i = 0; i < line && std::getline(in, text); ++i) {
    }
    return text;
}

}  // namespace

TEST(Prelude, TheVectorRungsShareOneAndBuildItBeforeALine1Directive) {
    size_t with = 0;
    for (const KernelSpec& k : ladder()) {
        if (k.prelude.empty()) {
            EXPECT_EQ(program_source(k), k.source) << k.name;
            continue;
        }
        ++with;
        EXPECT_EQ(k.prelude_name, "prelude_vector.cl") << k.name;
        EXPECT_EQ(k.source.rfind("// Rung", 0), 0u) << k.name;
        // Written once: the rung's own file no longer repeats the helpers.
        for (const char* helper : {"inline float vget(", "inline floatV vset(", "#define CAT_("})
            EXPECT_EQ(k.source.find(helper), std::string::npos) << k.name << " repeats " << helper;
        EXPECT_EQ(program_source(k), k.prelude + "#line 1\n" + k.source) << k.name;
    }
    EXPECT_GE(with, 2u) << "the prelude is shared by the vector rungs (ladder.json \"prelude\")";
}

// Every line the emulator reports for a rung with a prelude is a line of the rung's own
// file: barriers are lines with barrier(, per-line traffic lines with an indexed access,
// and a race after --drop-barrier names the rung's tile lines.
TEST(Prelude, TracedLinesAreLinesOfTheRungsOwnFile) {
    for (const KernelSpec& k : ladder()) {  // every rung of the catalog that names a prelude
        if (k.prelude.empty()) continue;
        const std::string& name = k.name;
        const Trace t = run_trace(LaunchConfig{k, {37, 29, 45}, k.default_tile});
        ASSERT_FALSE(t.barrier_lines.empty()) << name;
        EXPECT_EQ(t.barrier_lines, barrier_lines(k.source)) << name;
        ASSERT_FALSE(t.lines.empty()) << name;
        for (const LineTraffic& l : t.lines)
            EXPECT_NE(source_line(k.source, l.line).find('['), std::string::npos)
                << name << " line " << l.line << ": " << source_line(k.source, l.line);
        EXPECT_TRUE(t.diagnostics.empty()) << name;
        EXPECT_TRUE(t.verification && t.verification->verified) << name;
    }
    const KernelSpec& vec = *find_rung("reg2d_vec");
    const int second = barrier_lines(vec.source).back();
    const Trace raced = run_trace(LaunchConfig{drop_barriers(vec, {second}), {37, 29, 45}, 64});
    ASSERT_FALSE(raced.diagnostics.empty());
    for (const Diagnostic& d : raced.diagnostics)
        EXPECT_NE(source_line(vec.source, d.line).find("tile"), std::string::npos) << d.message;
}

TEST(Prelude, SavedTracesCarryTheirPreludeAndOldFilesKeepNone) {
    TraceFile f;
    f.launch = config("reg2d_vec", 16, 64);
    f.trace = run_trace(f.launch);
    const TraceFile back = parse_trace_file(serialize_trace_file(f), "memory");
    EXPECT_TRUE(back == f);
    EXPECT_EQ(back.launch.kernel.prelude, f.launch.kernel.prelude);
    EXPECT_EQ(back.launch.kernel.source, f.launch.kernel.source);
    // A file saved before preludes holds the whole program as its source.
    TraceFile old = f;
    old.launch.kernel.source = program_source(f.launch.kernel);
    old.launch.kernel.prelude.clear();
    old.launch.kernel.prelude_name.clear();
    const TraceFile old_back = parse_trace_file(serialize_trace_file(old), "memory");
    EXPECT_TRUE(old_back.launch.kernel.prelude.empty());
    EXPECT_EQ(program_source(old_back.launch.kernel), old.launch.kernel.source);
}

TEST(Lessons, SevenBuiltInLessonsWhoseStepsResolveAndWhoseAnswersMatchTheirClosedForms) {
    const auto& lessons = builtin_lessons();
    ASSERT_GE(lessons.size(), 7u);
    for (const Lesson& l : lessons)
        for (const LessonStep& s : l.steps) {
            const LaunchConfig c = step_launch(s);
            EXPECT_NO_THROW(resolve(c)) << l.title << " / " << s.title;
            if (auto other = step_compare_launch(s)) EXPECT_NO_THROW(resolve(*other)) << s.title;
        }
    // One question answered from a real trace, against its closed form.
    const Trace t = run_trace(LaunchConfig{*find_rung("tiled"), {37, 29, 45}, 8});
    for (const char* q : {"phases", "work_groups", "idle_work_items", "local_copies"}) {
        const LessonAnswer a = answer_question(q, t);
        ASSERT_TRUE(a.closed_form) << q;
        EXPECT_EQ(a.traced, *a.closed_form) << q;
    }
    EXPECT_EQ(answer_question("phases", t).traced, 6);
}

TEST(Lessons, MalformedLessonsAreOneLineErrors) {
    for (const char* bad : {"[]", "{\"title\": \"x\", \"steps\": []}", "{\"title\": \"x\", \"steps\": [{\"title\": \"a\"}]}",
                            "{\"title\": \"x\", \"steps\": [{\"title\": \"a\", \"script\": \"s\", \"state\": {\"tile\": \"8\"}}]}",
                            "{\"title\": \"x\", \"steps\": [{\"title\": \"a\", \"script\": \"s\", \"state\": {}, \"question\": "
                            "{\"text\": \"q\", \"quantity\": \"nope\"}}]}",
                            "{\"title\": \"x\", \"steps\": [{\"title\": \"a\", \"script\": \"s\", \"state\": {\"colour\": 1}}]}"}) {
        try {
            parse_lesson(bad, "l.json");
            ADD_FAILURE() << bad;
        } catch (const InputError& e) {
            EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
            EXPECT_EQ(std::string(e.what()).rfind("l.json", 0), 0u) << e.what();
        }
    }
    EXPECT_EQ(guess_distance(4, 4), "exact");
    EXPECT_EQ(guess_distance(32, 4), "off by 28 (700%), 8x too high");
}

// Issue 21: a step's state may set the kernel's parameters (params) and the compare
// configuration's (compare_params), checked strictly against the kernels.
TEST(Lessons, StepParamsAreCheckedAndReachBothLaunches) {
    auto lesson = [](const std::string& state) {
        return "{\"title\": \"x\", \"steps\": [{\"title\": \"a\", \"script\": \"s\", \"state\": " + state + "}]}";
    };
    const Lesson ok = parse_lesson(lesson(R"({"kernel": "reg2d_tpad", "size": "64", "params": {"PAD": 0}, "compare": "reg2d_tpad",
                                              "compare_params": {"PAD": 4}})"), "l.json");
    const LaunchConfig main = step_launch(ok.steps[0]);
    EXPECT_EQ(main.params.at("PAD"), 0);
    EXPECT_EQ(main.params_source, "given");
    const auto other = step_compare_launch(ok.steps[0]);
    ASSERT_TRUE(other);
    EXPECT_EQ(other->params.at("PAD"), 4);
    // A compare kernel named without compare_params takes its own defaults, not main's.
    const Lesson plain = parse_lesson(lesson(R"({"kernel": "reg2d_tpad", "params": {"PAD": 0}, "compare": "reg2d_tpad"})"), "l.json");
    EXPECT_TRUE(step_compare_launch(plain.steps[0])->params.empty());
    for (const char* bad : {R"({"kernel": "reg2d_tpad", "params": {"PADD": 0}})",          // no such parameter
                            R"({"kernel": "reg2d_tpad", "params": {"PAD": "0"}})",         // not an integer
                            R"({"kernel": "reg2d_tpad", "params": [0]})",                  // not an object
                            R"({"kernel": "tiled", "params": {"PAD": 0}})",                // tiled has none
                            R"({"kernel": "reg2d_tpad", "compare_params": {"PAD": 0}})",  // no compare configuration
                            R"({"kernel": "reg2d_tpad", "compare": "tiled", "compare_params": {"PAD": 0}})"}) {
        try {
            parse_lesson(lesson(bad), "l.json");
            ADD_FAILURE() << bad;
        } catch (const InputError& e) {
            EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
            EXPECT_EQ(std::string(e.what()).rfind("l.json, step 1", 0), 0u) << e.what();
        }
    }
}

// Lesson 6 step 3 asks to compare bank-conflict degrees: its two sides must differ.
TEST(Lessons, LessonSixComparesTwoDifferentBankConflictDegrees) {
    const Lesson* six = nullptr;
    for (const Lesson& l : builtin_lessons())
        if (l.name == "6_coalescing_banks") six = &l;
    ASSERT_NE(six, nullptr);
    const LessonStep* step = nullptr;
    for (const LessonStep& s : six->steps)
        if (s.script.find("bank-conflict degree") != std::string::npos) step = &s;
    ASSERT_NE(step, nullptr);
    ASSERT_TRUE(step_compare_launch(*step));
    TraceOptions o;
    o.checks = false;
    const Trace left = run_trace(step_launch(*step), o), right = run_trace(*step_compare_launch(*step), o);
    EXPECT_EQ(left.bank_conflicts.max_degree, 4u);
    EXPECT_EQ(right.bank_conflicts.max_degree, 2u);
    EXPECT_NE(step->script.find("is 4"), std::string::npos) << "the script names the degrees the screen shows";
    EXPECT_NE(step->script.find("falls to 2"), std::string::npos);
}

TEST(Lessons, ModelledQuestionsSayModelledAndNeedTheRequests) {
    TraceOptions o;
    o.checks = false;
    o.cache_requests = true;
    const Trace naive = run_trace(LaunchConfig{*find_rung("naive"), {64, 64, 64}, 16}, o);
    const Trace tiled = run_trace(LaunchConfig{*find_rung("tiled"), {64, 64, 64}, 16}, o);
    const LessonAnswer l1 = answer_question("l1_hit_percent", naive);
    EXPECT_TRUE(l1.modelled);
    EXPECT_GT(l1.traced, 50.0);  // a row of A and neighbouring columns of B, shared in the group
    EXPECT_LT(l1.traced, 100.0);
    EXPECT_NE(l1.explanation.find("modelled"), std::string::npos);
    // Beside the modelled figure, the held-out check of naive on the H200 (issue 31).
    const std::string check = held_out_l1_line(held_out_table(), "h200", "naive");
    ASSERT_FALSE(check.empty());
    EXPECT_NE(l1.explanation.find("held to the hardware: " + check), std::string::npos) << l1.explanation;
    // Traced global loads differ TS = 16 times; DRAM reads on the H200 model barely do.
    EXPECT_EQ(answer_question("traffic_factor", tiled, &naive).traced, 16.0);
    const LessonAnswer dram = answer_question("dram_traffic_factor", tiled, &naive);
    EXPECT_TRUE(dram.modelled);
    EXPECT_GE(dram.traced, 0.5);
    EXPECT_LE(dram.traced, 2.0);
    EXPECT_FALSE(answer_question("traffic_factor", tiled, &naive).modelled);
    // Without the requests there is nothing to model: an error that says so, not a zero.
    const Trace bare = run_trace(LaunchConfig{*find_rung("naive"), {32, 32, 32}, 16});
    EXPECT_THROW(answer_question("l1_hit_percent", bare), InputError);
}
