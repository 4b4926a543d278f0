// Issue 10 through the binary, as a student or instructor runs it: every exercise gives
// the diagnostic its note names; wrong cells equal an independent comparison; removing a
// barrier of tiled shows a race; saved traces and their bad copies; the HTML hand-out in
// a real headless browser (Debian's chromium).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "catalog_params.h"
#include "core/caches/occupancy.h"
#include "core/io/instructor_sheet.h"
#include "core/kernel/catalog.h"
#include "core/teach/exercise_notes.h"
#include "core/teach/lesson.h"
#include "core/device/matrix.h"
#include "core/device/runner.h"
#include "core/kernel/source_edit.h"
#include "core/io/trace_file.h"
#include "core/trace/frame.h"
#include "core/trace/view_model.h"
#include "test_support.h"
#ifdef TILESCOPE_HAVE_STB
#include <stb/stb_image.h>
#endif

namespace fs = std::filesystem;
using namespace tilescope;
using nlohmann::json;

namespace {

struct Result {
    int status = -1;
    std::string out, err;
};

fs::path scratch() {
    static const fs::path dir = [] {
        const fs::path d = fs::temp_directory_path() / ("tilescope-lessons-" + std::to_string(getpid()));
        fs::create_directories(d);
        return d;
    }();
    return dir;
}

using test_support::slurp;

Result shell(const std::string& command) {
    const std::string out = (scratch() / "stdout").string(), err = (scratch() / "stderr").string();
    const int raw = std::system((command + " >" + out + " 2>" + err).c_str());
    return {WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, slurp(out), slurp(err)};
}

Result run(const std::string& args) { return shell(std::string(TILESCOPE_BIN) + " " + args); }

int lines(const std::string& s) { return int(std::count(s.begin(), s.end(), '\n')); }

std::set<std::pair<int64_t, int64_t>> cells_of(const json& rects) {
    std::set<std::pair<int64_t, int64_t>> out;
    for (const auto& r : rects)
        for (int64_t i = r[0].get<int64_t>(); i <= r[2].get<int64_t>(); ++i)
            for (int64_t j = r[1].get<int64_t>(); j <= r[3].get<int64_t>(); ++j) out.insert({i, j});
    return out;
}

// The wrong cells of a saved trace's C, recomputed here: the inputs regenerated from
// their seeds, the product in long double, an element wrong when it is not finite or
// differs by more than the verification bound relative to sum |a*b|.
std::set<std::pair<int64_t, int64_t>> independent_wrong_cells(const TraceFile& f) {
    const auto inputs = make_matrices(resolve(f.launch));
    const HostMatrix& a = inputs.at("A");
    const HostMatrix& b = inputs.at("B");
    const HostMatrix& c = *f.trace.result;
    const double bound = verification_tolerance(a.cols);
    std::set<std::pair<int64_t, int64_t>> wrong;
    for (int64_t i = 0; i < c.rows; ++i)
        for (int64_t j = 0; j < c.cols; ++j) {
            long double sum = 0, mag = 0;
            for (int64_t k = 0; k < a.cols; ++k) {
                const long double p = (long double)a.at(i, k) * b.at(k, j);
                sum += p;
                mag += std::fabs(p);
            }
            const float got = c.at(i, j);
            if (!std::isfinite(got) || std::fabs((long double)got - sum) > bound * std::max(mag, 1e-30L)) wrong.insert({i, j});
        }
    return wrong;
}

std::set<std::pair<int64_t, int64_t>> listed_wrong_cells(const json& j) {
    std::set<std::pair<int64_t, int64_t>> out;
    for (const auto& c : j.at("wrong_cells")) out.insert({c[0].get<int64_t>(), c[1].get<int64_t>()});
    return out;
}

bool has_kind(const json& j, const std::string& kind) {
    for (const auto& d : j.at("diagnostics"))
        if (d.at("kind") == kind) return true;
    return false;
}

}  // namespace

class Exercise : public ::testing::TestWithParam<std::string> {};

TEST_P(Exercise, TraceNamesTheDiagnosticOfItsNoteAndListsTheWrongCells) {
    const ExerciseNote* note = find_exercise_note(GetParam());
    ASSERT_NE(note, nullptr);
    ASSERT_FALSE(note->find.empty());
    const fs::path js = scratch() / (note->kernel + ".json"), saved = scratch() / (note->kernel + ".tstrace");
    const Result r = run("trace --kernel " + note->kernel + " --size " + note->size.label() + " --tile " +
                         std::to_string(note->tile) + " --json " + js.string() + " --save " + saved.string());
    ASSERT_EQ(r.status, 0) << r.err;
    const json j = json::parse(slurp(js));
    EXPECT_TRUE(has_kind(j, note->diagnostic)) << note->kernel << " wants " << note->diagnostic << ":\n" << j["diagnostics"].dump(1);
    const TraceFile f = load_trace_file(saved.string());
    ASSERT_TRUE(f.trace.result.has_value());
    EXPECT_EQ(listed_wrong_cells(j), independent_wrong_cells(f));
}

std::vector<std::string> exercise_names_list() {
    std::vector<std::string> out;
    for (const ExerciseNote& n : exercise_notes()) out.push_back(n.kernel);
    return out;
}
INSTANTIATE_TEST_SUITE_P(All, Exercise, ::testing::ValuesIn(exercise_names_list()), test::RungName());

TEST(Exercises, AtLeastSevenEachWithANote) {
    EXPECT_GE(exercises().size(), 7u);
    EXPECT_EQ(exercise_notes().size(), exercises().size());
}

TEST(Lessons, TheCorrectTiledKernelHasNoWrongCells) {
    const fs::path js = scratch() / "tiled.json";
    ASSERT_EQ(run("trace --kernel tiled --size 37x29x45 --tile 8 --json " + js.string()).status, 0);
    const json j = json::parse(slurp(js));
    ASSERT_TRUE(j.contains("wrong_cells"));
    EXPECT_TRUE(j["wrong_cells"].empty());
    EXPECT_TRUE(j["diagnostics"].empty());
}

TEST(DropBarrier, RemovingTiledsSecondBarrierGivesARaceAndWrongCells) {
    const std::vector<int> barriers = barrier_lines(find_rung("tiled")->source);
    ASSERT_EQ(barriers.size(), 2u);
    const fs::path js = scratch() / "dropped.json", saved = scratch() / "dropped.tstrace";
    const Result r = run("trace --kernel tiled --size 32 --tile 8 --drop-barrier " + std::to_string(barriers[1]) +
                         " --json " + js.string() + " --save " + saved.string());
    ASSERT_EQ(r.status, 0) << r.err;
    const json j = json::parse(slurp(js));
    EXPECT_TRUE(has_kind(j, "race")) << j["diagnostics"].dump(1);
    EXPECT_FALSE(j["wrong_cells"].empty());
    EXPECT_EQ(j["barrier_lines"], json::array({barriers[0]}));
    const TraceFile f = load_trace_file(saved.string());
    EXPECT_EQ(listed_wrong_cells(j), independent_wrong_cells(f));
    EXPECT_EQ(f.trace.dropped_barriers, std::vector<int>{barriers[1]});
}

TEST(DropBarrier, ACustomKernelsBarrierToo) {
    const fs::path src = scratch() / "custom_tiled.cl";
    std::ofstream(src) << find_rung("tiled")->source;
    const int line = barrier_lines(find_rung("tiled")->source)[1];
    const fs::path js = scratch() / "custom.json";
    const Result r = run("trace --source " + src.string() +
                         " --entry mm_tiled --global 32,32 --local 8,8 --define TS=8 --arg M=int:32 --arg N=int:32"
                         " --arg K=int:32 --arg A=matrix:32x32:in --arg B=matrix:32x32:in --arg C=matrix:32x32:out"
                         " --check C=A*B --drop-barrier " + std::to_string(line) + " --json " + js.string());
    ASSERT_EQ(r.status, 0) << r.err;
    const json j = json::parse(slurp(js));
    EXPECT_TRUE(has_kind(j, "race"));
    EXPECT_FALSE(j["wrong_cells"].empty());
}

TEST(DropBarrier, ALineWithoutABarrierIsOneLineAndExitTwo) {
    const Result r = run("trace --kernel tiled --size 16 --tile 8 --drop-barrier 1");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("--drop-barrier 1"), std::string::npos) << r.err;
    EXPECT_EQ(run("trace --kernel tiled --size 16 --drop-barrier x").status, 2);
}

TEST(SavedTrace, BadFilesAreOneLineAndExitTwoAndWriteNothing) {
    const fs::path good = scratch() / "good.tstrace";
    ASSERT_EQ(run("trace --kernel tiled --size 16 --tile 8 --save " + good.string()).status, 0);
    const std::string bytes = slurp(good);
    const fs::path cut = scratch() / "cut.tstrace", text = scratch() / "text.tstrace", out = scratch() / "bad.html";
    std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
    std::ofstream(text) << "hello\n";
    for (const fs::path& bad : {cut, text, scratch() / "missing.tstrace"}) {
        const Result r = run("export --html " + out.string() + " " + bad.string());
        EXPECT_EQ(r.status, 2) << bad;
        EXPECT_EQ(lines(r.err), 1) << r.err;
        EXPECT_NE(r.err.find(bad.string()), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(out));
    }
    EXPECT_EQ(run("trace --kernel tiled --size 16 --save /nonexistent/dir/x.tstrace").status, 2);
    EXPECT_EQ(run("export " + good.string()).status, 2);
}

// --- the hand-out in chromium ---

namespace {

struct Page {
    json painted;  // the #painted element's data attributes
    std::string errors;
    bool ready = false;
    std::string dom, log;  // the DOM after the script ran; chromium's log (console messages)
};

std::string attribute(const std::string& tag, const std::string& name) {
    const std::string key = name + "=\"";
    const size_t at = tag.find(key);
    if (at == std::string::npos) return "";
    const size_t end = tag.find('"', at + key.size());
    return tag.substr(at + key.size(), end - at - key.size());
}

// Debian's chromium, headless, with nothing that reaches the network and a fresh profile
// per page. Missing, it is a failure that says so (scripts/packages.txt installs it).
std::string chromium(const std::string& args) {
    static int profiles = 0;
    static const bool installed = shell("command -v chromium").status == 0;
    if (!installed) {
        ADD_FAILURE() << "chromium is not installed: the hand-out tests need a headless browser "
                         "(apt-get install chromium; scripts/packages.txt lists it)";
        return "false";
    }
    const fs::path profile = scratch() / ("chromium-profile-" + std::to_string(++profiles));
    return "chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking"
           " --disable-component-update --disable-sync --user-data-dir=" + profile.string() + " " + args;
}

// Loads a page and reads back what its script left: #painted (and data-ready, set once it
// has painted), #errors (window.onerror's count), and the console's log, where a syntax
// error, which no handler inside the script can catch, shows as "Uncaught SyntaxError".
Page load(const fs::path& html, const std::string& hash, const std::string& window = "") {
    const Result r = shell(chromium(window + " --enable-logging=stderr --v=0 --virtual-time-budget=3000 --dump-dom 'file://" +
                                    html.string() + "#" + hash + "'"));
    EXPECT_EQ(r.status, 0) << r.err;
    Page p;
    p.dom = r.out;
    p.log = r.err;
    const size_t at = r.out.find("<div id=\"painted\"");
    EXPECT_NE(at, std::string::npos) << r.out.substr(0, 400);
    if (at == std::string::npos) return p;
    const std::string tag = r.out.substr(at, r.out.find('>', at) - at);
    // Every data-* attribute of #painted, by its name without "data-".
    for (size_t at2 = tag.find(" data-"); at2 != std::string::npos; at2 = tag.find(" data-", at2 + 1)) {
        const size_t eq = tag.find('=', at2);
        if (eq == std::string::npos) break;
        const std::string name = tag.substr(at2 + 6, eq - at2 - 6);
        p.painted[name] = attribute(tag, "data-" + name);
    }
    for (const char* k : {"a", "b", "c", "group", "phase", "part", "interval"})
        if (!p.painted.contains(k)) p.painted[k] = "";
    p.ready = attribute(tag, "data-ready") == "1";
    const size_t e = r.out.find("<div id=\"errors\"");
    p.errors = r.out.substr(e, r.out.find("</div>", e) - e);
    return p;
}

// A page whose script ran to the end with no error of any kind.
void expect_clean(const Page& p) {
    EXPECT_TRUE(p.ready) << "the script did not finish; chromium's log:\n" << p.log;
    EXPECT_EQ(p.errors.find("data-count"), std::string::npos) << p.errors;
    for (const char* bad : {"Uncaught", "SyntaxError", "TypeError", "ReferenceError", "RangeError"})
        EXPECT_EQ(p.log.find(bad), std::string::npos) << bad << " in chromium's log:\n" << p.log;
}

std::set<std::pair<int64_t, int64_t>> page_cells(const std::string& list) {
    std::set<std::pair<int64_t, int64_t>> out;
    std::stringstream s(list);
    std::string cell;
    while (std::getline(s, cell, ';')) {
        const size_t comma = cell.find(',');
        out.insert({std::stoll(cell.substr(0, comma)), std::stoll(cell.substr(comma + 1))});
    }
    return out;
}

}  // namespace

TEST(Handout, ChromiumShowsTheTracesCellsForGroup12Phases0And2) {
    const fs::path saved = scratch() / "tiled32.tstrace", js = scratch() / "tiled32.json", html = scratch() / "tiled32.html";
    ASSERT_EQ(run("trace --kernel tiled --size 32 --tile 8 --save " + saved.string() + " --json " + js.string()).status, 0);
    const Result e = run("export --html " + html.string() + " " + saved.string());
    ASSERT_EQ(e.status, 0) << e.err;
    const std::string page = slurp(html);
    EXPECT_EQ(page.find("src=\"http"), std::string::npos);
    EXPECT_EQ(page.find("href=\"http"), std::string::npos);

    const json j = json::parse(slurp(js));
    const json* group = nullptr;
    for (const auto& g : j["per_group"])
        if (g["group"][0] == 1 && g["group"][1] == 2) group = &g;
    ASSERT_NE(group, nullptr);
    std::set<std::pair<int64_t, int64_t>> seen_a;
    for (int phase : {0, 2}) {
        const Page p = load(html, "group=1,2&interval=" + std::to_string(phase));
        ASSERT_TRUE(p.ready) << p.log;
        expect_clean(p);
        EXPECT_EQ(p.painted["group"], "1,2");
        const json& interval = (*group)["intervals"][phase];
        const auto a = page_cells(p.painted["a"]), b = page_cells(p.painted["b"]);
        EXPECT_EQ(a, cells_of(interval["loaded"].value("A", json::array()))) << "phase " << phase;
        EXPECT_EQ(b, cells_of(interval["loaded"].value("B", json::array()))) << "phase " << phase;
        EXPECT_EQ(a.size(), 64u);  // one 8x8 tile of A per loading phase
        if (phase == 2) {
            EXPECT_NE(a, seen_a);
        }
        seen_a = a;
    }
    // Stepping part by part (the page's "part" button twice) from phase 0's load lands on
    // phase 1's load (interval 2), as the slides count phases; and opening it by name lands
    // there too.
    const Page stepped = load(html, "group=1,2&phase=0&partstep=2");
    expect_clean(stepped);
    EXPECT_EQ(stepped.painted["interval"], "2");
    EXPECT_EQ(stepped.painted["phase"], "1");
    EXPECT_EQ(stepped.painted["part"], "load");
    const Page named = load(html, "group=1,2&phase=1&part=load");
    EXPECT_EQ(named.painted["interval"], "2");
    EXPECT_EQ(named.painted["a"], stepped.painted["a"]);
    const Page use = load(html, "group=1,2&phase=0&part=use");
    EXPECT_EQ(use.painted["interval"], "1");
    EXPECT_NE(use.dom.find("phase 0 of 4, use"), std::string::npos);
    EXPECT_EQ(page_cells(stepped.painted["a"]), cells_of((*group)["intervals"][2]["loaded"]["A"]));
}

// A kernel's source travels into the page as data: text in its comments that would end a
// <script> element ("</script>", "<!--" then "<script>") must reach the page's source view
// as text, with the script running clean.
TEST(Handout, HostileTextInAKernelsCommentsIsShownAndBreaksNothing) {
    const std::string hostile = "// </script><script>document.body.dataset.hacked=1</script> <!-- <script> ]]> &amp; \" ' \\ \xC3\xA9";
    const fs::path src = scratch() / "hostile.cl", saved = scratch() / "hostile.tstrace", html = scratch() / "hostile.html";
    std::ofstream(src) << hostile << "\n" << find_rung("tiled")->source;
    const Result t = run("trace --source " + src.string() +
                         " --entry mm_tiled --global 16,16 --local 8,8 --define TS=8 --arg M=int:16 --arg N=int:16"
                         " --arg K=int:16 --arg A=matrix:16x16:in --arg B=matrix:16x16:in --arg C=matrix:16x16:out"
                         " --check C=A*B --save " + saved.string());
    ASSERT_EQ(t.status, 0) << t.err;
    ASSERT_EQ(run("export --html " + html.string() + " " + saved.string()).status, 0);
    const std::string page = slurp(html);
    // The page's only "</script>" are its own three (the palette, the data, the script), and
    // the data holds no "<" at all.
    size_t ends = 0;
    for (size_t at = page.find("</script>"); at != std::string::npos; at = page.find("</script>", at + 1)) ++ends;
    EXPECT_EQ(ends, 3u);
    const Page p = load(html, "");
    expect_clean(p);
    EXPECT_EQ(p.dom.find("data-hacked"), std::string::npos);  // the comment's script never ran
    EXPECT_NE(p.dom.find("// &lt;/script&gt;&lt;script&gt;document.body.dataset.hacked=1&lt;/script&gt; &lt;!-- &lt;script&gt; ]]&gt; &amp;amp;"),
              std::string::npos) << p.dom.substr(0, 2000);
    EXPECT_NE(p.dom.find("\xC3\xA9"), std::string::npos);
}

// The check above catches a broken script: a syntax error (which stops the whole script
// before any handler exists) and an error thrown while it runs.
TEST(Handout, TheBrowserCheckCatchesAScriptThatDoesNotParseOrThrows) {
    const fs::path saved = scratch() / "broken.tstrace";
    ASSERT_EQ(run("trace --kernel tiled --size 16 --tile 8 --save " + saved.string()).status, 0);
    const fs::path good = scratch() / "good.html";
    ASSERT_EQ(run("export --html " + good.string() + " " + saved.string()).status, 0);
    const std::string page = slurp(good);
    const size_t at = page.find("fillStatic();\ncomputeLayout();");
    ASSERT_NE(at, std::string::npos);
    const std::pair<const char*, const char*> breaks[] = {{"syntax", "fillStatic(;\n"}, {"runtime", "DATA.nothing.here;\n"}};
    for (const auto& [name, text] : breaks) {
        const fs::path bad = scratch() / (std::string(name) + ".html");
        std::ofstream(bad) << page.substr(0, at) << text << page.substr(at);
        const Page p = load(bad, "");
        EXPECT_FALSE(p.ready) << name;
        EXPECT_NE(p.log.find("Uncaught"), std::string::npos) << name << ": " << p.log;
    }
}

TEST(Handout, ScreenshotsOfTwoPhasesDiffer) {
    const fs::path saved = scratch() / "shot.tstrace", html = scratch() / "shot.html";
    ASSERT_EQ(run("trace --kernel tiled --size 32 --tile 8 --save " + saved.string()).status, 0);
    ASSERT_EQ(run("export --html " + html.string() + " " + saved.string()).status, 0);
    std::string shots[2];
    for (int phase : {0, 2}) {
        const fs::path png = scratch() / ("phase" + std::to_string(phase) + ".png");
        const Result r = shell("cd " + scratch().string() + " && " +
                               chromium("--window-size=1200,900 --virtual-time-budget=3000 --screenshot=" + png.string() +
                                        " 'file://" + html.string() + "#group=1,2&interval=" + std::to_string(phase) + "'"));
        ASSERT_EQ(r.status, 0) << r.err;
        shots[phase / 2] = slurp(png);
        EXPECT_GT(shots[phase / 2].size(), 1000u);
    }
    EXPECT_NE(shots[0], shots[1]);
}

// --- the hand-out steps as the slides do (issue 19 item 7) ---

namespace {

// A saved trace of the tiled kernel and its hand-out, made once per size.
fs::path tiled_handout(const std::string& size, int tile, fs::path* saved_out = nullptr) {
    const std::string stem = "tiled_" + size + "_" + std::to_string(tile);
    const fs::path saved = scratch() / (stem + ".tstrace"), html = scratch() / (stem + ".html");
    if (!fs::exists(html)) {
        EXPECT_EQ(run("trace --kernel tiled --size " + size + " --tile " + std::to_string(tile) + " --save " + saved.string()).status, 0);
        const Result e = run("export --html " + html.string() + " " + saved.string());
        EXPECT_EQ(e.status, 0) << e.err;
    }
    if (saved_out) *saved_out = saved;
    return html;
}

// A local array's labels in a frame as the page records them: rows joined by "/", cells by
// " ", "." for a cell the frame does not highlight.
std::string frame_labels(const Frame& f, const std::string& key) {
    const FrameArray* a = f.find(key);
    if (!a) return "";
    std::vector<std::vector<std::string>> grid(a->rows, std::vector<std::string>(a->cols, "."));
    for (const FrameCell& c : a->cells) grid[c.row][c.col] = c.label.empty() ? "." : c.label;
    std::string out;
    for (int64_t r = 0; r < a->rows; ++r) {
        out += r ? "/" : "";
        for (int64_t c = 0; c < a->cols; ++c) out += (c ? " " : "") + grid[r][c];
    }
    return out;
}

// The DOM with its tags taken out, and the <script> and <style> elements whole: what the page
// shows, not the page's code or its embedded data (a '<' in the code would hide text after it).
std::string text_of(const std::string& dom) {
    std::string shown;
    for (size_t at = 0; at < dom.size();) {
        size_t open = std::string::npos, close = std::string::npos;
        for (const char* t : {"script", "style"}) {
            const size_t o = dom.find(std::string("<") + t, at);
            if (o < open) open = o, close = dom.find(std::string("</") + t + ">", o);
        }
        shown += dom.substr(at, open == std::string::npos ? std::string::npos : open - at);
        if (open == std::string::npos || close == std::string::npos) break;
        at = dom.find('>', close) + 1;
    }
    std::string out;
    bool tag = false;
    for (char c : shown) {
        if (c == '<') tag = true;
        else if (c == '>') tag = false;
        else if (!tag) out.push_back(c);
    }
    return out;
}

}  // namespace

TEST(Handout, StepsIterationByIterationWithTheSlidesTitlesAndLabels) {
    fs::path saved;
    const fs::path html = tiled_handout("4", 2, &saved);
    const Page first = load(html, "group=0,0&phase=0&part=use");
    expect_clean(first);
    EXPECT_EQ(first.painted["frames"], "iterations");
    EXPECT_EQ(first.painted["steps"], "7");  // load, use 0, use 1, load, use 0, use 1, store
    EXPECT_EQ(first.painted["iteration"], "0");
    EXPECT_EQ(first.painted["title"], "Phase 0 Use for Block (0,0) (iteration 0)");
    EXPECT_NE(first.dom.find("<h2 id=\"frametitle\">Phase 0 Use for Block (0,0) (iteration 0)</h2>"), std::string::npos);
    // "step" goes an iteration at a time, then on to the next part; "part" skips iterations.
    const Page next = load(html, "group=0,0&phase=0&part=use&step=1");
    EXPECT_EQ(next.painted["title"], "Phase 0 Use for Block (0,0) (iteration 1)");
    EXPECT_EQ(next.painted["interval"], "1");
    const Page after = load(html, "group=0,0&phase=0&part=use&step=2");
    EXPECT_EQ(after.painted["title"], "Phase 1 Load for Block (0,0)");
    EXPECT_EQ(after.painted["iteration"], "");
    const Page parts = load(html, "group=0,0&phase=0&part=use&partstep=1");
    EXPECT_EQ(parts.painted["title"], "Phase 1 Load for Block (0,0)");
    // The slides' tiles at phase 1: atile holds M0,2 M0,3 / M1,2 M1,3, btile N2,0 N2,1 / N3,0 N3,1.
    const Page p1 = load(html, "group=0,0&phase=1&part=use&iteration=1");
    expect_clean(p1);
    EXPECT_EQ(p1.painted["title"], "Phase 1 Use for Block (0,0) (iteration 1)");
    EXPECT_EQ(p1.painted["labels-atile"], "M0,2 M0,3/M1,2 M1,3");
    EXPECT_EQ(p1.painted["labels-btile"], "N2,0 N2,1/N3,0 N3,1");
    // Iteration 1 reads column 1 of atile and row 1 of btile; the rest holds.
    EXPECT_EQ(p1.painted["roles-atile"], "0,0=holds;0,1=read;1,0=holds;1,1=read");
    EXPECT_EQ(p1.painted["roles-btile"], "0,0=holds;0,1=holds;1,0=read;1,1=read");
    // Every cell of A, B, C is named when cells are large enough.
    EXPECT_EQ(p1.painted["names"], "1");
    EXPECT_EQ(p1.painted["labels-a"], "M0,0 M0,1 M0,2 M0,3/M1,0 M1,1 M1,2 M1,3/M2,0 M2,1 M2,2 M2,3/M3,0 M3,1 M3,2 M3,3");
    EXPECT_EQ(p1.painted["labels-c"].get<std::string>().substr(0, 10), "P0,0 P0,1 ");
    const Page abc = load(html, "group=0,0&phase=1&part=use&iteration=1&naming=abc");
    EXPECT_EQ(abc.painted["labels-atile"], "A0,2 A0,3/A1,2 A1,3");
    EXPECT_EQ(abc.painted["labels-b"].get<std::string>().substr(0, 5), "B0,0 ");
    // Every step's local labels are build_frame's.
    const TraceFile f = load_trace_file(saved.string());
    const MatrixRoles roles = matrix_roles(f.trace, f.launch.kernel.check);
    for (int phase : {0, 1})
        for (int it : {0, 1}) {
            const Frame fr = build_frame(f.trace, roles, FrameRequest{{0, 0, 0}, phase, "use", it, std::nullopt, Naming::Slides});
            const Page p = load(html, "group=0,0&phase=" + std::to_string(phase) + "&part=use&iteration=" + std::to_string(it));
            EXPECT_EQ(p.painted["title"], fr.title);
            EXPECT_EQ(p.painted["labels-atile"], frame_labels(fr, "atile")) << fr.title;
            EXPECT_EQ(p.painted["labels-btile"], frame_labels(fr, "btile")) << fr.title;
        }
}

TEST(Handout, HoveringACellOfCShowsItsSumSoFarTermByTerm) {
    const fs::path html = tiled_handout("4", 2);
    const Page it0 = load(html, "group=0,0&phase=0&part=use&iteration=0&hover=1,1");
    expect_clean(it0);
    EXPECT_NE(it0.painted["tip"].get<std::string>().find("P1,1 so far = M1,0\u00b7N0,1"), std::string::npos) << it0.painted["tip"];
    EXPECT_EQ(it0.painted["tip"].get<std::string>().find("M1,1\u00b7N1,1"), std::string::npos) << it0.painted["tip"];
    const Page it1 = load(html, "group=0,0&phase=0&part=use&iteration=1&hover=1,1");
    EXPECT_NE(it1.painted["tip"].get<std::string>().find("P1,1 so far = M1,0\u00b7N0,1 + M1,1\u00b7N1,1"), std::string::npos) << it1.painted["tip"];
    const Page load0 = load(html, "group=0,0&phase=0&part=load&hover=1,1");
    EXPECT_NE(load0.painted["tip"].get<std::string>().find("P1,1 so far = 0"), std::string::npos) << load0.painted["tip"];
}

TEST(Handout, ClickingACellOfCShowsItsWorkItemsStory) {
    const fs::path html = tiled_handout("3", 2);
    // Block (1,1)'s work-item (0,1) computes nothing (its row 3 lies outside C) but loads N1,2.
    const Page out = load(html, "group=1,1&phase=0&part=load&item=0,1");
    expect_clean(out);
    EXPECT_EQ(out.painted["item"], "0,1");
    const std::string text = text_of(out.dom);
    EXPECT_NE(text.find("Work-item (0,1) of Block (1,1)"), std::string::npos) << text.substr(0, 3000);
    EXPECT_NE(text.find("get_global_id (2,3)"), std::string::npos);
    EXPECT_NE(text.find("computes none: outside C"), std::string::npos);
    EXPECT_NE(text.find("loads N1,2"), std::string::npos);
    EXPECT_NE(text.find("a written zero in place of M3,0, outside its matrix"), std::string::npos);
    // A click on P2,2 (here from group (0,0)) opens its work-group and work-item.
    const Page click = load(html, "group=0,0&select=2,2");
    expect_clean(click);
    EXPECT_EQ(click.painted["group"], "1,1");
    EXPECT_EQ(click.painted["item"], "0,0");
    const std::string ct = text_of(click.dom);
    EXPECT_NE(ct.find("computes P2,2"), std::string::npos);
    EXPECT_EQ(ct.find("computes none"), std::string::npos);
    // Without a click, no story.
    EXPECT_EQ(text_of(load(html, "group=1,1").dom).find("computes none"), std::string::npos);
}

// The legend's key for cells past the edge, as its opening tag.
static std::string past_key(const std::string& dom) {
    const size_t at = dom.rfind("<span", dom.find("id=\"pastkey\""));
    return at == std::string::npos ? "missing" : dom.substr(at, dom.find('>', at) - at);
}

// The slides' 3x3 example: a tile of M or N hangs past the matrix's edge, its cells there
// written as zeros, and the page draws the whole tile (as the GUI does), not the clipped part.
TEST(Handout, TilesHangPastTheEdgeAsTheSlidesDrawThem) {
    const int n = 3, t = 2, b = 1;  // Block (1,1) of 3x3 at TS 2: its tiles reach row and column 3
    const fs::path html = tiled_handout(std::to_string(n), t);
    for (int phase : {0, 1}) {
        const Page out = load(html, "group=1,1&phase=" + std::to_string(phase) + "&part=load");
        expect_clean(out);
        // Expected from the geometry: M's tile is rows b*t.., columns phase*t..; N's tile rows
        // phase*t.., columns b*t..; a cell past the edge has a row or column >= n.
        std::string past, tiles;
        auto tile = [&](const char* key, int r0, int c0) {
            bool any = false;
            for (int r = r0; r < r0 + t; ++r)
                for (int c = c0; c < c0 + t; ++c)
                    if (r >= n || c >= n) past += std::string(past.empty() ? "" : ";") + key + " " + std::to_string(r) + "," + std::to_string(c), any = true;
            if (any)
                tiles += std::string(tiles.empty() ? "" : ";") + key + " " + std::to_string(r0) + " " + std::to_string(c0) + " " +
                         std::to_string(r0 + t - 1) + " " + std::to_string(c0 + t - 1);
        };
        tile("A", b * t, phase * t);
        tile("B", phase * t, b * t);
        tiles += ";C " + std::to_string(b * t) + " " + std::to_string(b * t) + " " + std::to_string(b * t + t - 1) + " " +
                 std::to_string(b * t + t - 1);
        EXPECT_EQ(out.painted["past-edge"], past) << "phase " << phase;
        EXPECT_EQ(out.painted["past-tiles"], tiles) << "phase " << phase;
        EXPECT_EQ(past_key(out.dom).find("hidden"), std::string::npos) << "the legend lacks the past-the-edge key: " << past_key(out.dom);
    }
    // Sizes that are whole tiles leave no room and draw nothing past an edge.
    const Page whole = load(tiled_handout("4", 2), "group=1,1&phase=1&part=load");
    expect_clean(whole);
    EXPECT_EQ(whole.painted["past-edge"], "");
    EXPECT_EQ(whole.painted["past-tiles"], "");
    EXPECT_NE(past_key(whole.dom).find("hidden"), std::string::npos) << "a key for nothing drawn: " << past_key(whole.dom);
}

#ifdef TILESCOPE_HAVE_STB
namespace {
// How many pixels of a PNG have exactly this colour.
size_t pixels_of(const fs::path& png, uint32_t rgb) {
    int w = 0, h = 0, n = 0;
    unsigned char* px = stbi_load(png.c_str(), &w, &h, &n, 3);
    if (!px) return 0;
    size_t count = 0;
    for (int i = 0; i < w * h; ++i)
        count += (uint32_t(px[3 * i]) << 16 | uint32_t(px[3 * i + 1]) << 8 | px[3 * i + 2]) == rgb;
    stbi_image_free(px);
    return count;
}
}  // namespace
#endif

#ifdef TILESCOPE_HAVE_STB
// The wrong cells are the answer to lesson 5 step 1's question: the page paints them red only
// after Reveal, as the GUI does (issue 33 item 2; the page had filled them before).
TEST(Handout, WrongCellsStayUnpaintedUntilReveal) {
    const fs::path html = scratch() / "lesson5.html";
    const std::string lessons = std::string(TILESCOPE_SOURCE_DIR) + "/assets/lessons/";
    const Result r = run("export --html " + html.string() + " --lesson " + lessons + "5_what_goes_wrong.json");
    ASSERT_EQ(r.status, 0) << r.err;
    size_t red[2] = {0, 0};
    for (int revealed : {0, 1}) {
        const fs::path png = scratch() / ("lesson5_wrong" + std::to_string(revealed) + ".png");
        const Result c = shell("cd " + scratch().string() + " && " +
                               chromium("--window-size=1280,1500 --virtual-time-budget=3000 --screenshot=" + png.string() + " 'file://" +
                                        html.string() + "#lessonstep=1" + (revealed ? "&reveal=1" : "") + "'"));
        ASSERT_EQ(c.status, 0) << c.err;
        red[revealed] = pixels_of(png, 0xC80000);  // the palette's "wrong"
    }
    // Before: at most the legend's key (a few dozen pixels); after: the wrong cells of P.
    EXPECT_LT(red[0], 400u) << "wrong cells painted before Reveal";
    EXPECT_GT(red[1], red[0] + 10000) << "no wrong cells painted after Reveal";
}

// The instructor's notes of a step with a question can give its answer away (lesson 5 step 1:
// "only one barrier per phase"): the page holds them back with the answer until Reveal.
TEST(Handout, AQuestionsNotesWaitForRevealLikeItsAnswer) {
    const fs::path html = scratch() / "lesson5_notes.html";
    const std::string file = std::string(TILESCOPE_SOURCE_DIR) + "/assets/lessons/5_what_goes_wrong.json";
    const Lesson lesson = load_lesson(file);
    ASSERT_TRUE(lesson.steps[0].question) << "lesson 5 step 1 asks a question";
    const std::string notes = lesson.steps[0].script.substr(0, 40);
    ASSERT_EQ(run("export --html " + html.string() + " --lesson " + file).status, 0);
    std::string dom[2], button[2];
    for (int revealed : {0, 1}) {
        const Result c = shell("cd " + scratch().string() + " && " +
                               chromium("--virtual-time-budget=3000 --dump-dom 'file://" + html.string() + "#lessonstep=1" +
                                        (revealed ? "&reveal=1" : "") + "'"));
        ASSERT_EQ(c.status, 0) << c.err;
        const size_t at = c.out.find("id=\"script\"");
        ASSERT_NE(at, std::string::npos) << "no notes paragraph";
        dom[revealed] = c.out.substr(at, c.out.find("</p>", at) - at);
        const size_t b = c.out.rfind("<button", c.out.find("id=\"reveal\""));
        ASSERT_NE(b, std::string::npos) << "no Reveal button";
        button[revealed] = c.out.substr(b, c.out.find('>', b) - b);
    }
    EXPECT_EQ(dom[0].find(notes), std::string::npos) << "the notes are on the page before Reveal: " << dom[0];
    EXPECT_NE(dom[1].find(notes), std::string::npos) << "the notes are missing after Reveal: " << dom[1];
    // The button is there to press before Reveal and gone once the answer is on the page.
    EXPECT_EQ(button[0].find("hidden"), std::string::npos) << button[0];
    EXPECT_NE(button[1].find("hidden"), std::string::npos) << "Reveal still offered after Reveal: " << button[1];
}
#endif

// Readable at a projector's 1280 px and on a phone's 375 px: no sideways scrolling, cells of
// local arrays at least as large as the matrices', names on cells, A and B in their own colours.
TEST(Handout, ReadableAt1280AndOnAPhone) {
    const fs::path small = tiled_handout("4", 2), big = tiled_handout("32", 8);
    for (const int width : {1280, 375}) {
        const std::string window = "--window-size=" + std::to_string(width) + ",900";
        for (const fs::path& html : {small, big}) {
            // Headless chromium keeps windows at least 500 px wide: the page lays itself out
            // as in a window `width` wide when its address says viewport=W; the screenshot
            // below is taken at the real width.
            const Page p = load(html, "group=0,0&phase=0&part=load&viewport=" + std::to_string(width), window);
            expect_clean(p);
            SCOPED_TRACE(html.filename().string() + " at " + std::to_string(width));
            const int page = std::stoi(p.painted["page-width"].get<std::string>()), view = std::stoi(p.painted["viewport-width"].get<std::string>());
            EXPECT_LE(view, width);
            EXPECT_GE(view, width - 20);  // less a scroll bar
            EXPECT_LE(page, view) << "the page scrolls sideways";
            EXPECT_LE(std::stoi(p.painted["canvas-width"].get<std::string>()), view);
            EXPECT_GE(std::stoi(p.painted["local-cell"].get<std::string>()), std::stoi(p.painted["cell"].get<std::string>()));
            // A's and B's local arrays in their own matrices' colours (issue 21): each says whose
            // elements it holds.
            EXPECT_EQ(p.painted["holds-atile"], "M");
            EXPECT_EQ(p.painted["holds-btile"], "N");
            if (html == small) {
                EXPECT_EQ(p.painted["names"], "1");
                EXPECT_GE(std::stoi(p.painted["local-cell"].get<std::string>()), 22);
            }
        }
        const fs::path png = scratch() / ("handout_" + std::to_string(width) + ".png");
        const Result r = shell("cd " + scratch().string() + " && " +
                               chromium(window + " --virtual-time-budget=3000 --screenshot=" + png.string() + " 'file://" +
                                        small.string() + "#group=0,0&phase=0&part=load'"));
        ASSERT_EQ(r.status, 0) << r.err;
#ifdef TILESCOPE_HAVE_STB
        // Phase 0's load: A's loaded cells blue (#0072b2), B's orange (#e69f00).
        EXPECT_GT(pixels_of(png, 0x0072b2), 1000u) << png;
        EXPECT_GT(pixels_of(png, 0xe69f00), 1000u) << png;
#endif
    }
}

// export --lesson: every step of a lesson on one page, traced at export time; the answer
// shows only after Reveal; a performance step says it cannot be shown; bad values exit 2.
TEST(Handout, ALessonPageHoldsEveryStepAndRevealsAnswersOnlyOnReveal) {
    const fs::path html = scratch() / "lesson2.html";
    const std::string lessons = std::string(TILESCOPE_SOURCE_DIR) + "/assets/lessons/";
    const Result r = run("export --html " + html.string() + " --lesson " + lessons + "2_tiling_4x4.json");
    ASSERT_EQ(r.status, 0) << r.err;
    const Lesson lesson = load_lesson(lessons + "2_tiling_4x4.json");
    int asked = -1;
    for (size_t i = 0; i < lesson.steps.size(); ++i) {
        const LessonStep& s = lesson.steps[i];
        const Page p = load(html, "lessonstep=" + std::to_string(i + 1));  // counted from 1, as gui --step
        expect_clean(p);
        EXPECT_EQ(p.painted["lesson-step"], std::to_string(i + 1));
        EXPECT_NE(text_of(p.dom).find("step " + std::to_string(i + 1) + " of " + std::to_string(lesson.steps.size())), std::string::npos);
        const std::string text = text_of(p.dom);
        EXPECT_NE(text.find(s.title), std::string::npos) << s.title;
        EXPECT_EQ(p.painted["group"], "0,0");
        EXPECT_EQ(p.painted["phase"], std::to_string(s.state.value("phase", 0)));
        if (s.state.contains("part")) {
            EXPECT_EQ(p.painted["part"], s.state["part"].get<std::string>());
        }
        if (s.question && asked < 0) asked = int(i);
    }
    ASSERT_GE(asked, 0) << "the lesson has no question";
    const LessonStep& q = lesson.steps[asked];
    const Trace t = [&] {
        const fs::path saved = scratch() / "lesson2.tstrace";
        const LaunchConfig c = step_launch(q);
        EXPECT_EQ(run("trace --kernel " + c.kernel.name + " --size " + c.size.label() + " --tile " + std::to_string(c.tile) +
                      " --save " + saved.string()).status, 0);
        return load_trace_file(saved.string()).trace;
    }();
    const LessonAnswer a = answer_question(q.question->quantity, t);
    char value[64];
    std::snprintf(value, sizeof value, std::fabs(a.traced - std::round(a.traced)) < 1e-9 ? "%.0f" : "%.2f", a.traced);
    const Page before = load(html, "lessonstep=" + std::to_string(asked + 1));
    EXPECT_NE(text_of(before.dom).find(q.question->text), std::string::npos);
    EXPECT_EQ(before.painted["revealed"], "0");
    EXPECT_EQ(text_of(before.dom).find("Answer: "), std::string::npos) << "answer shown before Reveal";
    const Page after = load(html, "lessonstep=" + std::to_string(asked + 1) + "&reveal=1");
    expect_clean(after);
    EXPECT_EQ(after.painted["revealed"], "1");
    EXPECT_NE(text_of(after.dom).find(std::string("Answer: ") + value), std::string::npos) << text_of(after.dom).substr(0, 2000);

    // A lesson with a performance step: the page says it cannot show it.
    const fs::path perf = scratch() / "lesson3.html";
    ASSERT_EQ(run("export --html " + perf.string() + " --lesson " + lessons + "3_tile_sizes.json").status, 0);
    const Lesson l3 = load_lesson(lessons + "3_tile_sizes.json");
    for (size_t i = 0; i < l3.steps.size(); ++i) {
        if (l3.steps[i].state.value("view", "") != "performance") continue;
        const Page p = load(perf, "lessonstep=" + std::to_string(i + 1));
        expect_clean(p);
        EXPECT_EQ(p.painted["view"], "performance");
        EXPECT_NE(text_of(p.dom).find("measured on a real device; a hand-out cannot measure"), std::string::npos);
    }

    // Bad values: one line, exit 2, nothing written.
    const fs::path bad = scratch() / "bad_lesson.json", out = scratch() / "bad_lesson.html";
    std::ofstream(bad) << R"({"title": "x", "steps": [{"title": "a", "state": {"kernel": "nope", "size": "4"}, "script": "s"}]})";
    for (const std::string& args : {"--lesson " + bad.string(), "--lesson " + (scratch() / "missing.json").string(),
                                    "--lesson " + lessons + "2_tiling_4x4.json " + bad.string()}) {
        const Result e = run("export --html " + out.string() + " " + args);
        EXPECT_EQ(e.status, 2) << args;
        EXPECT_EQ(lines(e.err), 1) << e.err;
        EXPECT_FALSE(fs::exists(out));
    }
}

// Issue 33: the hand-out of the slides' lesson keeps a question's answer (the phase count, the
// timeline, the closed forms) off the page until Reveal, opens each step's work-item, and
// names every cell of a 16x16 local array.
TEST(Handout, TheSlidesLessonHidesAnswersUntilRevealPicksItemsAndLabelsEveryCell) {
    const fs::path html = scratch() / "lesson9.html";
    const std::string file = std::string(TILESCOPE_SOURCE_DIR) + "/assets/lessons/9_slides_frame_by_frame.json";
    ASSERT_EQ(run("export --html " + html.string() + " --lesson " + file).status, 0);
    const Lesson lesson = load_lesson(file);
    // Each chromium load costs about 2 s: the steps that show each thing once. The first phase
    // question (step 1), the first step naming a work-item (step 8), the 16x16 and 32x32 local
    // arrays (steps 10, 11).
    bool asked = false, picked = false;
    for (size_t i = 0; i < lesson.steps.size(); ++i) {
        const LessonStep& s = lesson.steps[i];
        const bool phases = s.question && s.question->quantity == "phases" && !asked;
        const bool item = s.state.contains("item") && !picked;
        if (!phases && !item && s.state.value("tile", 0) < 16) continue;
        asked = asked || phases;
        picked = picked || item;
        SCOPED_TRACE("step " + std::to_string(i + 1) + ": " + s.title);
        const std::string hash = "lessonstep=" + std::to_string(i + 1);
        const Page p = load(html, hash);
        expect_clean(p);
        EXPECT_NE(text_of(p.dom).find(s.title), std::string::npos);
        // The step's work-item, when it names one, has its story on the page.
        if (s.state.contains("item")) {
            EXPECT_EQ(p.painted["item"], std::to_string(s.state["item"][0].get<int>()) + "," + std::to_string(s.state["item"][1].get<int>()));
            EXPECT_NE(text_of(p.dom).find("Work-item (" + std::to_string(s.state["item"][0].get<int>()) + ","), std::string::npos);
            // Its cells marked (the slides' thread of the first "major case"): Block(1,1), local
            // id (0,1), phase 0's load at 3x3, TS 2: row 1*2+1 = 3 of M is outside, so it writes a
            // 0 into atile(1,0); it loads N(0*2+1, 1*2+0) = N1,2 into btile(1,0).
            std::set<std::string> marked;
            std::stringstream cells(p.painted["item-cells"].get<std::string>());
            for (std::string c; std::getline(cells, c, ';');) marked.insert(c);
            EXPECT_EQ(marked, (std::set<std::string>{"B 1,2", "atile 1,0", "btile 1,0"}));
        }
        // Every label of every local array drawn (two lines when one does not fit).
        int arrays = 0;
        for (const auto& [k, v] : p.painted.items())
            if (k.rfind("unlabelled-", 0) == 0) {
                EXPECT_EQ(v, "0") << k;
                ++arrays;
            }
        EXPECT_EQ(arrays, 2) << "atile and btile, each with its count of labels that did not fit";
        if (s.question && s.question->quantity == "local_bytes_per_group") {  // the floats stored to local memory give it away
            EXPECT_NE(p.painted["hidden"].get<std::string>().find("local_bytes"), std::string::npos);
            EXPECT_NE(text_of(p.dom).find("stored to and loaded from local memory hidden until Reveal"), std::string::npos);
            // The slides' blocks-per-SM table follows from the bytes: it waits for Reveal too,
            // then shows the slide's SM as the slide counts it (8 by 16 KB at TILE_WIDTH 16, 6
            // by 1536 threads; 2 and 1 at 32), beside the other profiles.
            EXPECT_EQ(p.painted["occupancy"], "hidden");
            EXPECT_EQ(text_of(p.dom).find("1,536 work-items)"), std::string::npos);
            const Page after = load(html, hash + "&reveal=1");
            expect_clean(after);
            const std::string occ = after.painted["occupancy"].get<std::string>();
            const std::string slide = s.state.value("tile", 0) == 16 ? "slide (16 KB, 1,536 work-items)|8|6|-|6|threads"
                                                                     : "slide (16 KB, 1,536 work-items)|2|1|-|1|threads";
            EXPECT_NE(occ.find(slide), std::string::npos) << occ;
            EXPECT_EQ(std::count(occ.begin(), occ.end(), ';') + 1, std::ptrdiff_t(occupancy_profile_names().size())) << occ;
            EXPECT_NE(text_of(after.dom).find("one compute unit holds at once"), std::string::npos);
        }
        if (!phases) continue;
        // After Reveal: the answer (the page's own figure, from the trace at export), the
        // phase count, the timeline and the closed form all on the page.
        const Page after = load(html, hash + "&reveal=1");
        expect_clean(after);
        const std::string text = text_of(after.dom);
        EXPECT_EQ(after.painted["hidden"], "");
        const size_t at = text.find("Answer: ");
        ASSERT_NE(at, std::string::npos);
        const std::string count = std::to_string(std::stoi(text.substr(at + 8)));
        EXPECT_NE(text.find("phase 0 of " + count + ","), std::string::npos) << text.substr(0, 2000);
        EXPECT_NE(text.find("phase 1: "), std::string::npos);
        EXPECT_NE(text.find("ceil("), std::string::npos);
        // Before Reveal: none of them.
        const std::string before = text_of(p.dom);
        EXPECT_NE(p.painted["hidden"].get<std::string>().find("phase_count"), std::string::npos);
        // A cell's load count (the hover's "loaded from global memory 2 times") is the phase
        // count in the slides' square launches: held back too.
        EXPECT_NE(p.painted["hidden"].get<std::string>().find("loads_per_element"), std::string::npos);
        EXPECT_EQ(before.find("Answer: "), std::string::npos);
        EXPECT_EQ(before.find("phase 0 of " + count + ","), std::string::npos) << "phase count shown before Reveal";
        EXPECT_EQ(before.find("phase 1: "), std::string::npos) << "timeline shown before Reveal";
        EXPECT_EQ(before.find("ceil("), std::string::npos) << "closed form shown before Reveal";
        EXPECT_NE(before.find("hidden until Reveal"), std::string::npos);
    }
}

// A phase question asked on the last phase (lesson 4 step 2: K = 45, TS 8, the step opens at
// phase 5's load): before Reveal the page names no phase by its number, in the phase's line or
// in the work-item's story (which shows the part on show alone): "phase 5" would tell the room
// there are six. After Reveal both are numbered.
TEST(Handout, APhaseQuestionOnTheLastPhaseNamesNoPhaseNumber) {
    const fs::path html = scratch() / "lesson4.html";
    const std::string file = std::string(TILESCOPE_SOURCE_DIR) + "/assets/lessons/4_partial_tiles.json";
    ASSERT_EQ(run("export --html " + html.string() + " --lesson " + file).status, 0);
    const Lesson lesson = load_lesson(file);
    ASSERT_GE(lesson.steps.size(), 2u);
    ASSERT_TRUE(lesson.steps[1].question && lesson.steps[1].question->quantity == "phases");
    ASSERT_EQ(lesson.steps[1].state.value("phase", -1), 5) << "the step this test is about opens on the last of six phases";
    const Page before = load(html, "lessonstep=2&item=0,0");
    expect_clean(before);
    const std::string text = text_of(before.dom);
    for (int ph = 0; ph <= 6; ++ph)
        for (const std::string& word : {"phase ", "Phase "})
            for (const std::string& after : {" ", ",", ":"})
                EXPECT_EQ(text.find(word + std::to_string(ph) + after), std::string::npos)
                    << "'" << word << ph << after << "' before Reveal: " << text.substr(0, 3000);
    EXPECT_NE(text.find("This phase: Load for Block (0,0)"), std::string::npos) << "the slides' title, unnumbered";
    EXPECT_NE(text.find("phase ? of ? (hidden until Reveal), load"), std::string::npos) << text.substr(0, 3000);
    EXPECT_NE(text.find("the other parts"), std::string::npos) << "the story's other parts, held";
    const Page after = load(html, "lessonstep=2&item=0,0&reveal=1");
    expect_clean(after);
    const std::string revealed = text_of(after.dom);
    EXPECT_NE(revealed.find("phase 5 of 6, load"), std::string::npos) << revealed.substr(0, 3000);
    EXPECT_NE(revealed.find("Phase 5 Load for Block (0,0)"), std::string::npos) << revealed.substr(0, 3000);
    EXPECT_NE(revealed.find("phase 0 load"), std::string::npos) << "the whole story after Reveal";
}

TEST(Tour, RunsToTheEndWithoutATerminalAndAnswersEveryLessonQuestion) {
    const Result r = shell(std::string(TILESCOPE_BIN) + " tour --size 64 </dev/null");
    ASSERT_EQ(r.status, 0) << r.err;
    size_t questions = 0;
    for (const Lesson& l : builtin_lessons()) {
        EXPECT_NE(r.out.find(l.title), std::string::npos) << l.title;
        for (const LessonStep& s : l.steps) {
            EXPECT_NE(r.out.find(s.title), std::string::npos) << s.title;
            questions += s.question ? 1 : 0;
        }
    }
    size_t answers = 0;
    for (size_t at = r.out.find("     A: "); at != std::string::npos; at = r.out.find("     A: ", at + 1)) ++answers;
    EXPECT_EQ(answers, questions);
}

// The instructor's sheet (issue 21 item 1): every step's title, script and question on one
// printable page with the answer the GUI reveals, computed from the trace, not the lesson file.
// Two steps that differ only in a parameter are two set-ups, traced apart: the page, the sheet
// and class mode answered both from the first one's trace (reg2d at 64 with TSK=32 has K/TSK = 2
// phases, not TSK=8's 8; a session-57 tester's lesson).
TEST(InstructorSheet, StepsThatDifferOnlyInAParameterAreTracedApart) {
    const fs::path lesson = scratch() / "params.json", sheet = scratch() / "params_sheet.html", page = scratch() / "params.html";
    const auto step = [](int tsk) {
        return R"({"title": "reg2d TSK )" + std::to_string(tsk) + R"(", "state": {"kernel": "reg2d", "size": "64", "tile": 32,
                   "params": {"TSK": )" + std::to_string(tsk) + R"(}}, "script": "s",
                   "question": {"text": "How many phases at TSK )" + std::to_string(tsk) + R"(?", "quantity": "phases"}})";
    };
    std::ofstream(lesson) << R"({"title": "params", "steps": [)" + step(8) + ", " + step(32) + "]}";
    const Result r = run("export --lesson " + lesson.string() + " --html " + page.string() + " --sheet " + sheet.string());
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string html = slurp(sheet);
    const size_t first = html.find("How many phases at TSK 8?"), second = html.find("How many phases at TSK 32?");
    ASSERT_NE(first, std::string::npos);
    ASSERT_NE(second, std::string::npos);
    EXPECT_NE(html.substr(first, second - first).find("Answer: 8</b>"), std::string::npos) << html.substr(first, second - first);
    EXPECT_NE(html.substr(second).find("Answer: 2</b>"), std::string::npos) << html.substr(second, 2000);
}

TEST(InstructorSheet, EveryStepsScriptQuestionAndTracedAnswer) {
    const std::string lessons = std::string(TILESCOPE_SOURCE_DIR) + "/assets/lessons/";
    const fs::path sheet = scratch() / "sheet4.html", page = scratch() / "page4.html";
    const Result r = run("export --lesson " + lessons + "4_partial_tiles.json --html " + page.string() + " --sheet " + sheet.string());
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string html = slurp(sheet);
    EXPECT_TRUE(fs::exists(page));
    const Lesson lesson = load_lesson(lessons + "4_partial_tiles.json");
    auto escaped = [](const std::string& t) { return tilescope::html_escaped(t); };
    EXPECT_NE(html.find(escaped(lesson.title)), std::string::npos);
    for (const LessonStep& s : lesson.steps) {
        EXPECT_NE(html.find(escaped(s.title)), std::string::npos) << s.title;
        EXPECT_NE(html.find(escaped(s.script)), std::string::npos) << s.title;
        if (!s.question) continue;
        EXPECT_NE(html.find(escaped(s.question->text)), std::string::npos) << s.title;
    }
    // 37x29x45 at TS 8: 5x4 = 20 work-groups, 6 phases (K = 45), and idle work-items
    // 40x32 - 37x29 = 207: the closed forms, written here, against the sheet's traced answers
    for (const char* answer : {"Answer: 20</b>", "Answer: 6</b>", "Answer: 207</b>"}) EXPECT_NE(html.find(answer), std::string::npos) << answer;
    EXPECT_EQ(html.find("<script"), std::string::npos) << "a sheet to print: no script";
    // only with a lesson, one line, exit 2, nothing written
    const fs::path stray = scratch() / "stray.html";
    const Result bad = run("export --sheet " + stray.string());
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("--sheet"), std::string::npos) << bad.err;
    EXPECT_FALSE(fs::exists(stray));
    EXPECT_EQ(tilescope::html_escaped("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
}
