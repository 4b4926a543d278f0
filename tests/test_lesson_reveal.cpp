// Issue 21, "Reveal means reveal": for every question of every lesson, the GUI is opened at
// the step twice, at 1280x720 in presenter mode and at 1920x1080 with the panels, once
// before Reveal and once after (--reveal), and what it drew is read back as text (--text,
// the glyphs of the frame's draw lists). Before Reveal no figure that answers the question
// is on screen (the answer's patterns: "of 2" for phases, "20 work-groups", "1008 cells",
// "loaded 32..32 times", ...) and "Answer:" is absent; after it, "Answer: X" is there and
// every figure that was hidden is back.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/teach/lesson.h"
#include "gui_test_support.h"
#include "test_support.h"

namespace fs = std::filesystem;
using namespace tilescope;

namespace {

fs::path scratch() {
    static const fs::path dir = [] {
        const fs::path d = fs::temp_directory_path() / ("tilescope-reveal-" + std::to_string(getpid()));
        fs::create_directories(d);
        return d;
    }();
    return dir;
}

using test_support::slurp;

struct Question {
    std::string file;
    int step = 0;  // 1-based, as --step takes it
    std::string quantity;
};
// gtest prints a parameter in test listings: the lesson, step and quantity, not their bytes.
void PrintTo(const Question& q, std::ostream* os) {
    *os << fs::path(q.file).filename().string() << " step " << q.step << ": " << q.quantity;
}

std::vector<Question> every_question() {
    std::vector<Question> out;
    for (const auto& entry : fs::directory_iterator(TILESCOPE_LESSONS)) {
        if (entry.path().extension() != ".json") continue;
        const Lesson l = load_lesson(entry.path().string());
        for (size_t i = 0; i < l.steps.size(); ++i)
            if (l.steps[i].question) out.push_back({entry.path().string(), int(i + 1), l.steps[i].question->quantity});
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.file != b.file ? a.file < b.file : a.step < b.step; });
    return out;
}

// What the GUI drew at the step, as text; empty with the reason in `err` when it failed.
std::string screen_text(const Question& q, const std::string& mode, bool reveal, std::string& err) {
    const std::string tag = fs::path(q.file).stem().string() + "-" + std::to_string(q.step) + "-" + std::to_string(reveal);
    const fs::path text = scratch() / (tag + ".txt"), stderr_file = scratch() / (tag + ".err");
    fs::remove(text);
    const std::string cmd = std::string(TILESCOPE_BIN) + " gui --lesson " + q.file + " --step " + std::to_string(q.step) + " " + mode +
                            (reveal ? " --reveal" : "") + " --frames 8 --text " + text.string() + " >/dev/null 2>" + stderr_file.string();
    const int raw = std::system(cmd.c_str());
    if (!WIFEXITED(raw) || WEXITSTATUS(raw) != 0) {
        err = cmd + "\n" + slurp(stderr_file);
        return "";
    }
    return slurp(text);
}

std::string regex_escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (std::string(".^$|()[]{}*+?\\").find(c) != std::string::npos) out += '\\';
        out += c;
    }
    return out;
}

// 2048 -> "2,048", as the GUI groups thousands.
std::string grouped(const std::string& digits) {
    std::string out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

// The ways a figure that answers `quantity` with value `v` ("32", "87.50") shows on screen.
std::vector<std::regex> answer_patterns(const std::string& quantity, const std::string& v) {
    const bool integral = v.find('.') == std::string::npos;
    const double x = std::stod(v);
    // the number as the views print it: 16, 16.0, 16.00; 87.50, 87.5; 2048, 2,048
    std::string num = integral ? "(" + regex_escape(v) + "(\\.0+)?|" + regex_escape(grouped(v)) + ")"
                               : "(" + regex_escape(v) + "|" + regex_escape(v.substr(0, v.size() - 1)) + ")";
    const std::string b = "(^|[^0-9.,])", e = "(?![0-9])";
    std::vector<std::string> p;
    if (quantity == "phases") p = {"of " + num + e + "(?!x)", b + num + " phases?\\b"};
    else if (quantity == "work_groups" || quantity == "local_copies")
        p = {b + num + " work-groups", "\\(" + num + " work-groups"};
    else if (quantity == "a_loads_per_element")
        p = {num + "\\.\\." + num + e, "loaded (N = )?" + num + " times", b + num + " times each", "global " + num + "(\\.0)? times"};
    else if (quantity == "compute_to_global_ratio") p = {b + num + " FLOP( per|/)", "FLOP per (global )?load[^\n0-9]*" + num + e};
    else if (quantity == "traffic_factor" || quantity == "dram_traffic_factor") {
        p = {b + num + " ?(x|\u00d7) (fewer|less|more)", b + num + e + " times (fewer|less|more)"};
        if (quantity == "traffic_factor") p.push_back(b + num + " FLOP( per|/)");  // naive's is 1: the ratio of loads
    }
    else if (quantity == "idle_work_items") p = {b + num + " (idle|work-items (that )?store no)"};
    else if (quantity == "wrong_cells") p = {b + num + " (cells|wrong)"};
    else if (quantity == "local_bytes_per_group") p = {b + num + " (B|bytes)\\b"};
    else if (quantity == "l1_hit_percent") p = {b + num + " ?%", b + std::to_string(int(x + 0.5)) + " ?%"};
    std::vector<std::regex> out;
    for (const std::string& s : p) out.emplace_back(s);
    return out;
}

std::string first_match(const std::string& text, const std::vector<std::regex>& patterns) {
    for (const std::regex& r : patterns) {
        std::smatch m;
        if (std::regex_search(text, m, r)) {
            const size_t from = text.rfind('\n', size_t(m.position(0))) + 1, to = text.find('\n', size_t(m.position(0)));
            return text.substr(from, to - from);
        }
    }
    return "";
}

}  // namespace

class Reveal : public ::testing::TestWithParam<Question> {};

TEST_P(Reveal, HidesEveryFigureThatAnswersTheQuestionUntilReveal) {
    const Question& q = GetParam();
    for (const std::string mode : {"--presenter --window 1280x720", "--window 1920x1080"}) {
        SCOPED_TRACE(mode);
        std::string err;
        const std::string before = screen_text(q, mode, false, err);
        ASSERT_FALSE(before.empty()) << err;
        const std::string after = screen_text(q, mode, true, err);
        ASSERT_FALSE(after.empty()) << err;

        std::smatch m;
        ASSERT_TRUE(std::regex_search(after, m, std::regex("Answer: ([0-9][0-9.,]*)"))) << "no answer after Reveal:\n" << after;
        const std::string value = m[1];
        EXPECT_EQ(before.find("Answer:"), std::string::npos) << "the answer before Reveal";
        const auto patterns = answer_patterns(q.quantity, value);
        ASSERT_FALSE(patterns.empty()) << "no patterns for " << q.quantity;
        EXPECT_EQ(first_match(before, patterns), "") << "answers '" << q.quantity << "' (" << value << ") before Reveal";
        // what was hidden is back once revealed
        EXPECT_EQ(after.find(kHiddenUntilReveal), std::string::npos) << "still hidden after Reveal";
        if (before.find(kHiddenUntilReveal) != std::string::npos)
            EXPECT_NE(first_match(after, patterns), "") << "a figure was hidden, but after Reveal none answers " << q.quantity
                                                         << " = " << value << ":\n" << after;
    }
}

INSTANTIATE_TEST_SUITE_P(Lessons, Reveal, ::testing::ValuesIn(every_question()), [](const auto& info) {
    std::string name = fs::path(info.param.file).stem().string() + "_step" + std::to_string(info.param.step);
    for (char& ch : name)
        if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
    return name;
});

// Presenter mode at 1280x720 carries the lesson (issue 21 item 1), measured in what is drawn
// (the layout the frame wrote, checked against its screenshot) and in its text:
// the step's number, title and question in the strip with nothing cut, the instructor's script
// off the picture, C at least 300 px at 32x32, and compare's six matrices at least 200 px at
// 64x64 with both summaries whole.
namespace {
// The matrices where --layout says they were drawn are in the screenshot: at 1280x720, and
// along each one's diagonal its cells, not the presenter's white background.
void expect_drawn(const nlohmann::json& j, const fs::path& png) {
    const tilescope::testing::Image img = tilescope::testing::load_png(png.string());
    ASSERT_EQ(img.w, 1280);
    ASSERT_EQ(img.h, 720);
    for (const auto& m : j["matrices"]) {
        const double x0 = m["x0"], y0 = m["y0"], x1 = m["x1"], y1 = m["y1"];
        int inside = 0, total = 0;
        for (double t = 0.05; t < 0.95; t += 0.01, ++total) {
            const auto px = img.at(float(x0 + (x1 - x0) * t), float(y0 + (y1 - y0) * t));
            inside += px != std::array<int, 3>{255, 255, 255};
        }
        EXPECT_GT(inside, total * 9 / 10) << "matrix " << m["name"] << " not in the screenshot where the layout puts it";
    }
}

// `drawn`: also check each matrix is in the screenshot where the layout puts it. `presenter`:
// the projector's layout (else the desk's, with its timeline).
nlohmann::json layout_of(const std::string& args, std::string& text, std::string& err, bool drawn = true, bool presenter = true) {
    static int n = 0;
    const fs::path layout = scratch() / ("layout" + std::to_string(++n) + ".json"), txt = scratch() / ("layout" + std::to_string(n) + ".txt");
    const fs::path png = scratch() / ("layout" + std::to_string(n) + ".png");
    const std::string cmd = std::string(TILESCOPE_BIN) + " gui " + args + (presenter ? " --presenter" : "") + " --window 1280x720 --frames 8 --layout " +
                            layout.string() + " --text " + txt.string() + " --screenshot " + png.string() + " >/dev/null 2>" +
                            (scratch() / "layout.err").string();
    const int raw = std::system(cmd.c_str());
    if (!WIFEXITED(raw) || WEXITSTATUS(raw) != 0) {
        err = cmd + "\n" + slurp(scratch() / "layout.err");
        return {};
    }
    text = slurp(txt);
    std::ifstream in(layout);
    nlohmann::json j = nlohmann::json::parse(in);
    if (drawn) expect_drawn(j, png);
    return j;
}
std::string one_line(std::string t) {  // the dump's line breaks (wrapping) as spaces
    std::replace(t.begin(), t.end(), '\n', ' ');
    return t;
}
}  // namespace

TEST(Presenter, LessonStripAndMatricesFit720p) {
    const std::string lessons = TILESCOPE_LESSONS;
    {
        const Lesson l = load_lesson(lessons + "/1_naive.json");
        std::string text, err;
        const nlohmann::json j = layout_of("--lesson " + lessons + "/1_naive.json --step 2", text, err);
        ASSERT_FALSE(j.empty()) << err;
        for (const auto& m : j["matrices"])
            if (m["name"] == "C") EXPECT_GE(m["x1"].get<double>() - m["x0"].get<double>(), 300.0) << "C at 32x32";
        const std::string flat = one_line(text);
        EXPECT_NE(flat.find("step 2 of " + std::to_string(l.steps.size())), std::string::npos) << text;
        EXPECT_NE(flat.find(l.steps[1].title), std::string::npos) << text;
        EXPECT_NE(flat.find(l.steps[1].question->text), std::string::npos) << "the question, whole:\n" << text;
        EXPECT_NE(flat.find("Reveal (R)"), std::string::npos);
        EXPECT_NE(flat.find("PgDn >"), std::string::npos);
        EXPECT_EQ(flat.find(l.steps[1].script.substr(0, 40)), std::string::npos) << "the script on the projected picture";
    }
    {
        // After Reveal the heatmap's legend keeps every line inside the window: the reuse of
        // M and of N both (at 720p below the strip, the answer and the scale, issue 33).
        std::string text, err;
        const nlohmann::json j = layout_of("--lesson " + lessons + "/1_naive.json --step 2 --reveal", text, err);
        ASSERT_FALSE(j.empty()) << err;
        ASSERT_TRUE(j.contains("legend")) << "no legend drawn beside the matrices";
        EXPECT_LE(j["legend"]["y1"].get<double>(), 720.0) << j["legend"].dump();
        const std::string flat = one_line(text);
        EXPECT_NE(flat.find("M (A): 32 times each"), std::string::npos) << text;
        EXPECT_NE(flat.find("N (B): 32 times each"), std::string::npos) << "the reuse of N fell off the window:\n" << text;
    }
    {
        std::string text, err;
        const nlohmann::json j = layout_of("--lesson " + lessons + "/3_tile_sizes.json --step 1", text, err);
        ASSERT_FALSE(j.empty()) << err;
        EXPECT_EQ(j["view"], "compare");
        int big = 0;
        for (const auto& m : j["matrices"]) {
            if (m["role"] == "local") continue;
            EXPECT_EQ(m["rows"], 64);
            EXPECT_GE(m["x1"].get<double>() - m["x0"].get<double>(), 200.0) << m.dump();
            EXPECT_LE(m["x1"].get<double>(), 1280.0 - 280.0) << "under the lesson strip: " << m.dump();
            ++big;
        }
        EXPECT_EQ(big, 6);
        // the colours' keys below the strip: compare draws no legend of its own at the projector
        for (const char* key : {"A strip", "A now", "B now", "local now"})
            EXPECT_NE(one_line(text).find(key), std::string::npos) << key << " not below the strip:\n" << text;
        const std::regex whole("traced: [0-9]+ KB, [0-9.]+ FLOP/load");
        EXPECT_EQ(std::distance(std::sregex_iterator(text.begin(), text.end(), whole), std::sregex_iterator()), 2) << text;
        // 64³ is too short a launch to time (the performance view says so): timed runs, when
        // they are in, are shown but not ranked
        const std::string flat = one_line(text);
        EXPECT_FALSE(std::regex_search(flat, std::regex("[0-9.]+\u00d7 (faster|slower)"))) << text;
        if (flat.find("measured at 64") != std::string::npos)
            EXPECT_NE(flat.find("too short a launch to rank"), std::string::npos) << text;
    }
    {
        // Both sides of lesson 6's bank-conflict comparison name their PAD, the default too,
        // and every array is drawn where the layout puts it: reg2d_tpad's atile is declared
        // [TSK][(TS+PAD)/VW], so its padding shows as columns (it was one row: a 1-2 px line).
        std::string text, err;
        const nlohmann::json j = layout_of("--lesson " + lessons + "/6_coalescing_banks.json --step 3", text, err);
        ASSERT_FALSE(j.empty()) << err;
        const std::string flat = one_line(text);
        EXPECT_NE(flat.find("TS=64 PAD=0"), std::string::npos) << text;
        EXPECT_NE(flat.find("TS=64 PAD=4"), std::string::npos) << text;
    }
}

// Filling the window at 720p, the legend keeps every entry (issue 33: after Reveal the answer
// took the room below the lesson strip and "local held", "local read", "past edge: 0", the
// ring's key and the zero-writers' names were dropped). It flows into the free areas, the
// column below the local arrays and a band below the matrices: every piece inside the window,
// none over a matrix, a local array or another piece, and every entry's text drawn.
TEST(Presenter, TheLegendKeepsEveryEntryAt720p) {
    const std::string lesson = std::string(TILESCOPE_LESSONS) + "/9_slides_frame_by_frame.json";
    auto squeezed = [](const std::string& t) {  // wrapped lines as one, each run of spaces as one
        std::string out;
        for (char c : t) {
            if (c == '\n') c = ' ';
            if (c == ' ' && (out.empty() || out.back() == ' ')) continue;
            out += c;
        }
        return out;
    };
    auto overlap = [](const nlohmann::json& a, const nlohmann::json& b) {
        return a["x0"].get<double>() < b["x1"].get<double>() && b["x0"].get<double>() < a["x1"].get<double>() &&
               a["y0"].get<double>() < b["y1"].get<double>() && b["y0"].get<double>() < a["y1"].get<double>();
    };
    for (const char* args : {" --step 7 --reveal", " --step 7", " --step 9"}) {
        SCOPED_TRACE(args);
        std::string text, err;
        const nlohmann::json j = layout_of("--lesson " + lesson + args, text, err);
        ASSERT_FALSE(j.empty()) << err;
        ASSERT_TRUE(j.contains("legend_pieces")) << j.dump();
        EXPECT_EQ(j["legend_dropped"].get<int>(), 0) << j["legend_pieces"].dump();
        size_t texts = 0;
        std::string drawn;
        const auto& pieces = j["legend_pieces"];
        for (size_t i = 0; i < pieces.size(); ++i) {
            const auto& p = pieces[i];
            texts += p["texts"].size();
            for (const auto& t : p["texts"]) drawn += squeezed(t.get<std::string>()) + "\n";
            EXPECT_GE(p["x0"].get<double>(), 0.0);
            EXPECT_GE(p["y0"].get<double>(), 0.0);
            EXPECT_LE(p["x1"].get<double>(), 1280.0) << p.dump();
            EXPECT_LE(p["y1"].get<double>(), 720.0) << p.dump();
            for (const auto& m : j["matrices"]) EXPECT_FALSE(overlap(p, m)) << "a piece of the legend over " << m["name"] << ": " << p.dump();
            for (size_t k = 0; k < i; ++k) EXPECT_FALSE(overlap(p, pieces[k])) << p.dump() << " over " << pieces[k].dump();
        }
        EXPECT_EQ(texts, j["legend_entries"].get<size_t>() + (j["legend_phase_sentence"].get<bool>() ? 1 : 0)) << drawn;
        const std::string shown = squeezed(text);
        for (const char* key : {"local held", "local read", "ringed"})
            EXPECT_NE(shown.find(key), std::string::npos) << key << " not drawn:\n" << text;
        if (std::string(args).find("--step 7") != std::string::npos) {  // the tile past M's and N's edges, and who writes its zeros
            EXPECT_NE(shown.find("past edge: 0"), std::string::npos) << text;
            EXPECT_NE(shown.find("atile: work-items (1,0), (1,1) write 0 in place of M0,3, M1,3 (outside M)"), std::string::npos) << text;
            EXPECT_NE(shown.find("btile: work-items (0,1), (1,1) write 0 in place of N3,0, N3,1 (outside N)"), std::string::npos) << text;
        }
    }
}

// The verdict on a guess: its own word for each, exact only when equal as shown.
TEST(GuessVerdict, ExactCloseOffAreDistinct) {
    EXPECT_EQ(judge_guess(32, 32), GuessVerdict::Exact);
    EXPECT_EQ(judge_guess(87.5, 87.50), GuessVerdict::Exact);
    EXPECT_EQ(judge_guess(31, 32), GuessVerdict::Close);
    EXPECT_EQ(judge_guess(90, 87.5), GuessVerdict::Close);
    EXPECT_EQ(judge_guess(16, 32), GuessVerdict::Off);
    EXPECT_EQ(judge_guess(0, 2), GuessVerdict::Off);
    EXPECT_STRNE(verdict_word(GuessVerdict::Exact), verdict_word(GuessVerdict::Close));
    EXPECT_STRNE(verdict_word(GuessVerdict::Close), verdict_word(GuessVerdict::Off));
    EXPECT_STRNE(verdict_word(GuessVerdict::Exact), verdict_word(GuessVerdict::Off));
}

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new tilescope::testing::XvfbEnvironment);
    const int status = RUN_ALL_TESTS();
    std::fflush(nullptr);
    std::_Exit(status);
}

// The timeline at the projector (lesson 5 step 1, the source view at 720p): its traffic bars
// have room to be read, and the barrier's line label ("L30") sits right of the iteration
// boxes at the foot of the part on show, not over them (issue 33).
TEST(Presenter, TheTimelinesBarsAndLabelsFitAt720p) {
    std::string text, err;
    const nlohmann::json j = layout_of("--lesson " + std::string(TILESCOPE_LESSONS) + "/5_what_goes_wrong.json --step 1", text, err, false);
    ASSERT_FALSE(j.empty()) << err;
    ASSERT_TRUE(j.contains("timeline")) << "no timeline drawn: " << j.dump();
    const auto& t = j["timeline"];
    EXPECT_GE(t["bar_room"].get<double>(), 4 * 4.0) << "bars of a few pixels at most";
    double tallest = 0;
    int with_boxes = 0;
    for (const auto& g : t["segments"]) {
        tallest = std::max({tallest, g["global_bar_h"].get<double>(), g["local_bar_h"].get<double>()});
        EXPECT_LE(g["global_bar_h"].get<double>(), t["bar_room"].get<double>() + 0.5);
        if (g["boxes_x1"].get<double>() <= 0) continue;
        ++with_boxes;
        if (g["line_label_x0"].get<double>() > 0)
            EXPECT_LT(g["boxes_x1"].get<double>(), g["line_label_x0"].get<double>()) << "the iteration boxes run under the line label: " << g.dump();
    }
    EXPECT_GE(tallest, 4.0);
    EXPECT_EQ(with_boxes, 1) << "the part on show (a use part) carries its iterations: " << t.dump();
}

// On a question about the phase count the timeline (the desk's layout: the projector draws
// none on these steps) draws only the part on show, unnumbered, and one grey block for the
// rest until Reveal: a segment per part, the parts' count or the part's phase number would
// count the phases (lesson 4 step 2: K = 45 with TS 8, six phases of a load and a use part,
// then the store; the step opens at phase 5's load, so "P5", or the eleven parts before the
// store, told the room 6). After Reveal every part is drawn, numbered.
TEST(Timeline, HoldsTheLaterPartsOnAPhaseQuestion) {
    std::string before_text, after_text, err;
    const std::string step = "--lesson " + std::string(TILESCOPE_LESSONS) + "/4_partial_tiles.json --step 2";
    const nlohmann::json before = layout_of(step, before_text, err, false, false);
    ASSERT_FALSE(before.empty()) << err;
    const nlohmann::json after = layout_of(step + " --reveal", after_text, err, false, false);
    ASSERT_FALSE(after.empty()) << err;
    ASSERT_TRUE(before.contains("timeline") && after.contains("timeline")) << before.dump() << "\n" << after.dump();
    EXPECT_TRUE(before["timeline"]["held"].get<bool>());
    EXPECT_FALSE(after["timeline"]["held"].get<bool>());
    EXPECT_EQ(after["timeline"]["segments"].size(), 13u);
    EXPECT_EQ(before["interval"].get<size_t>(), 10u) << "the step opens at phase 5's load";
    EXPECT_EQ(before["timeline"]["segments"].size(), 1u) << "the part on show alone";
    EXPECT_EQ(before_text.find("stepped on from"), std::string::npos) << "the step's own frame keeps its title:\n" << before_text;
    for (const std::string leak : {"P5", "phase 5", "13 parts", "of 6"})
        EXPECT_EQ(before_text.find(leak), std::string::npos) << "'" << leak << "' before Reveal:\n" << before_text;
    EXPECT_NE(after_text.find("P5"), std::string::npos) << "the phases numbered after Reveal:\n" << after_text;
    // "Record GIF" would save every phase and say how many frames: it waits for Reveal too.
    EXPECT_FALSE(before.value("record_gif", true)) << before.dump();
    EXPECT_TRUE(after.value("record_gif", false)) << after.dump();
    // Stepped on to the store, the lesson's heading (the slides' title of the frame on show)
    // loses its number too: "Phase 5 Store for Block (0,0)" counted the phases.
    std::string on_text;
    ASSERT_FALSE(layout_of(step + " --phase 5 --part store", on_text, err, false, false).empty()) << err;
    EXPECT_EQ(on_text.find("Phase 5"), std::string::npos) << on_text;
    EXPECT_NE(on_text.find("This phase: Store for"), std::string::npos) << on_text;
}
