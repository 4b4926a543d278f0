// Class mode's model (issue 34), headless: the join code, tokens, one answer per student per
// step, Reveal, the tally and its CSV, rate limits on a clock the test moves, the bounds.
#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "core/classroom/class_room.h"

using namespace tilescope::classroom;
using namespace std::chrono_literals;

namespace {

// A lesson page of three steps as export --html --lesson makes it: the second asks.
nlohmann::json lesson() {
    return {{"lesson_title", "t"},
            {"lesson_steps",
             {{{"title", "one"}, {"trace", 0}},
              {{"title", "two"},
               {"trace", 0},
               {"question", {{"text", "How many loads?"}, {"answer", {{"value", "128"}, {"formula", "2MNK/TS"}, {"explanation", "because"}, {"modelled", false}}}}}},
              {{"title", "three"}, {"trace", nullptr}}}},
            {"traces", nlohmann::json::array({nlohmann::json::object()})}};
}

const Clock::time_point t0 = Clock::time_point{} + 1000s;

}  // namespace

TEST(ClassRoom, JoinNeedsTheCodeAndIssuesDistinctTokens) {
    ClassRoom room(lesson(), {}, "ab-cd 23");
    EXPECT_EQ(room.code(), "ABCD23");
    EXPECT_EQ(room.join("", "10.0.0.1", t0).status, Status::bad_code);
    EXPECT_EQ(room.join("ABCD24", "10.0.0.1", t0).status, Status::bad_code);
    const auto a = room.join("abcd23", "10.0.0.1", t0), b = room.join(" ABCD23 ", "10.0.0.2", t0);
    ASSERT_EQ(a.status, Status::ok);
    ASSERT_EQ(b.status, Status::ok);
    EXPECT_EQ(a.token.size(), 32u);
    EXPECT_NE(a.token, b.token);
    EXPECT_EQ(room.joined(), 2u);
    EXPECT_EQ(room.admit("not-a-token", t0), Status::unknown_token);
}

TEST(ClassRoom, DrawnCodesAvoidLookAlikes) {
    for (int i = 0; i < 50; ++i) {
        const std::string c = draw_code();
        EXPECT_EQ(c.size(), 6u);
        EXPECT_EQ(c.find_first_of("01OIL"), std::string::npos) << c;
    }
}

TEST(ClassRoom, AtMostMaxClientsJoin) {
    Limits l;
    l.max_clients = 3;
    ClassRoom room(lesson(), l, "CODE");
    for (int i = 0; i < 3; ++i) EXPECT_EQ(room.join("CODE", "10.0.0." + std::to_string(i), t0).status, Status::ok);
    EXPECT_EQ(room.join("CODE", "10.0.0.9", t0).status, Status::full);
    EXPECT_EQ(room.joined(), 3u);
}

TEST(ClassRoom, TheAnswerIsNotInTheStudentsDataAndComesOnlyAfterReveal) {
    ClassRoom room(lesson(), {}, "CODE");
    EXPECT_EQ(room.student_data().find("128"), std::string::npos);
    EXPECT_EQ(room.student_data().find("2MNK/TS"), std::string::npos);
    EXPECT_NE(room.student_data().find("How many loads?"), std::string::npos);
    const auto s = room.join("CODE", "a", t0);
    room.next();
    auto st = room.state_for(s.token);
    EXPECT_TRUE(st["question"].get<bool>());
    EXPECT_FALSE(st.contains("answer"));
    EXPECT_EQ(room.answer(s.token, 1, "64", t0), Status::ok);
    room.reveal();
    st = room.state_for(s.token);
    EXPECT_TRUE(st["revealed"].get<bool>());
    EXPECT_EQ(st["answer"]["value"], "128");
    EXPECT_EQ(st["mine"], "64");
}

TEST(ClassRoom, OneGuessPerStudentPerStepOnTheStepOnShowBeforeReveal) {
    ClassRoom room(lesson(), {}, "CODE");
    const auto s = room.join("CODE", "a", t0);
    EXPECT_EQ(room.answer(s.token, 0, "1", t0), Status::no_question);
    EXPECT_EQ(room.answer(s.token, 1, "1", t0), Status::not_current);  // step 2 is not on show yet
    room.next();
    EXPECT_EQ(room.answer("forged", 1, "1", t0), Status::unknown_token);
    EXPECT_EQ(room.answer(s.token, 1, "many", t0), Status::bad_value);
    EXPECT_EQ(room.answer(s.token, 1, "1e999", t0), Status::bad_value);
    EXPECT_EQ(room.answer(s.token, 1, std::string(100, '1'), t0), Status::bad_value);
    EXPECT_EQ(room.answer(s.token, 1, "1,024", t0), Status::ok);
    EXPECT_EQ(room.answer(s.token, 1, "1,024", t0), Status::already_answered);  // replayed
    EXPECT_EQ(room.answer(s.token, 1, "7", t0), Status::already_answered);
    const auto late = room.join("CODE", "b", t0);
    room.reveal();
    EXPECT_EQ(room.answer(late.token, 1, "128", t0), Status::revealed);
    EXPECT_EQ(room.tally(1).answered, 1u);
    EXPECT_EQ(room.tally(1).values.at(0).first, 1024.0);
}

TEST(ClassRoom, TheTallyCountsGuessesAndTheCsvNamesNoOne) {
    ClassRoom room(lesson(), {}, "CODE");
    room.next();
    std::vector<std::string> tokens;
    const char* guesses[] = {"128", "64", "128", "256", "128"};
    for (int i = 0; i < 5; ++i) {
        const auto j = room.join("CODE", "a", t0);
        tokens.push_back(j.token);
        ASSERT_EQ(room.answer(j.token, 1, guesses[i], t0), Status::ok);
    }
    const Tally t = room.tally();
    EXPECT_EQ(t.joined, 5u);
    EXPECT_EQ(t.answered, 5u);
    ASSERT_EQ(t.values.size(), 3u);
    EXPECT_EQ(t.values[0], (std::pair<double, size_t>{64, 1}));
    EXPECT_EQ(t.values[1], (std::pair<double, size_t>{128, 3}));
    const std::string csv = room.tally_csv();
    EXPECT_NE(csv.find("2,\"How many loads?\",128,3,\"128\""), std::string::npos) << csv;
    for (const auto& tok : tokens) EXPECT_EQ(csv.find(tok), std::string::npos);
}

// The lesson is a stranger's file, and its question text reaches the instructor's terminal
// (`t`) and a spreadsheet (--tally): no control character (C0, DEL, C1 in UTF-8) and no cell
// that a spreadsheet would run as a formula; other text and negative numbers are kept.
TEST(ClassRoom, TheCsvCarriesNoEscapeCodeAndNoFormula) {
    auto page = lesson();
    auto& q = page["lesson_steps"][1]["question"];
    q["text"] = "=HYPERLINK(\"http://x\",\"click\")\x1b[2J\xc2\x9b" "2J caf\xc3\xa9\xc2\xa0ok";
    q["answer"]["value"] = "-3";
    page["lesson_steps"][2]["question"] = {{"text", " @SUM(A1)"}, {"answer", {{"value", "-3+cmd|' /C calc'!A0"}}}};
    page["lesson_steps"][2]["trace"] = 0;
    ClassRoom room(page, {}, "CODE");
    const std::string csv = room.tally_csv();
    for (const char c : csv) EXPECT_TRUE(c == '\n' || (unsigned char)c >= 0x20) << int(c);
    EXPECT_EQ(csv.find("\xc2\x9b"), std::string::npos) << csv;
    EXPECT_NE(csv.find("2,\"'=HYPERLINK(\"\"http://x\"\",\"\"click\"\")"), std::string::npos) << csv;
    EXPECT_NE(csv.find("caf\xc3\xa9\xc2\xa0ok\",,0,\"-3\"\n"), std::string::npos) << csv;  // a number stays one
    EXPECT_NE(csv.find("3,\"' @SUM(A1)\",,0,\"'-3+cmd|' /C calc'!A0\"\n"), std::string::npos) << csv;
}

// Guesses that the tally prints alike are one guess: 1.00000000001 and 1.00000000002 were two
// rows both printed "1", and 0 and -0 one row printed "-0" (session 52).
TEST(ClassRoom, GuessesThatPrintAlikeAreCountedTogether) {
    ClassRoom room(lesson(), {}, "CODE");
    room.next();
    for (const char* g : {"1.00000000001", "1.00000000002", "-0", "0"})
        ASSERT_EQ(room.answer(room.join("CODE", "a", t0).token, 1, g, t0), Status::ok) << g;
    const Tally t = room.tally();
    ASSERT_EQ(t.values.size(), 2u);
    EXPECT_EQ(t.values[0], (std::pair<double, size_t>{0, 2}));
    EXPECT_FALSE(std::signbit(t.values[0].first));
    EXPECT_EQ(t.values[1], (std::pair<double, size_t>{1, 2}));
    EXPECT_NE(room.tally_csv().find("2,\"How many loads?\",0,2,"), std::string::npos) << room.tally_csv();
}

TEST(ClassRoom, AStudentIsRateLimitedAndRecovers) {
    Limits l;
    l.client_rate = 10;
    l.client_burst = 5;
    ClassRoom room(lesson(), l, "CODE");
    const auto s = room.join("CODE", "a", t0);  // the join spends one
    int ok = 0;
    for (int i = 0; i < 20; ++i) ok += room.admit(s.token, t0) == Status::ok;
    EXPECT_EQ(ok, 4);
    EXPECT_EQ(room.admit(s.token, t0), Status::rate_limited);
    EXPECT_EQ(room.admit(s.token, t0 + 200ms), Status::ok);  // 2 more after 0.2 s at 10/s
}

TEST(ClassRoom, WrongCodesFromOneAddressAreThrottledOthersStillJoin) {
    Limits l;
    l.bad_code_burst = 3;
    l.bad_code_rate = 0.1;
    ClassRoom room(lesson(), l, "CODE");
    for (int i = 0; i < 3; ++i) EXPECT_EQ(room.join("GUESS" + std::to_string(i), "6.6.6.6", t0).status, Status::bad_code);
    EXPECT_EQ(room.join("GUESS9", "6.6.6.6", t0).status, Status::rate_limited);
    EXPECT_EQ(room.join("CODE", "10.0.0.1", t0).status, Status::ok);
}

TEST(ClassRoom, AddressesKeptAreBounded) {
    Limits l;
    l.max_addresses = 10;
    l.bad_code_burst = 1;
    ClassRoom room(lesson(), l, "CODE");
    for (int i = 0; i < 100; ++i) room.join("X", "10.0." + std::to_string(i), t0 + std::chrono::milliseconds(i));
    // the first address was forgotten: it has its burst again
    EXPECT_EQ(room.join("X", "10.0.0", t0 + 1s).status, Status::bad_code);
}

TEST(ClassRoom, ChangesWakeWaitersAndCloseEndsTheWait) {
    ClassRoom room(lesson(), {}, "CODE");
    const uint64_t seen = room.sequence();
    std::thread t([&] {
        std::this_thread::sleep_for(50ms);
        room.frame(1);
    });
    EXPECT_GT(room.wait_change(seen, 5s), seen);
    t.join();
    EXPECT_EQ(room.position().frame_step, 1);
    room.frame(-5);
    EXPECT_EQ(room.position().frame_step, 0);
    room.go_to(99);
    EXPECT_EQ(room.position().step, 2);
    const uint64_t now = room.sequence();
    EXPECT_EQ(room.wait_change(now, 20ms), now);  // nothing changed: the wait times out
    std::thread c([&] {
        std::this_thread::sleep_for(50ms);
        room.close();
    });
    const auto start = Clock::now();
    room.wait_change(room.sequence(), 10s);
    EXPECT_LT(Clock::now() - start, 5s);
    c.join();
    EXPECT_EQ(room.join("CODE", "a", t0).status, Status::full);
}

TEST(ClassRoom, RevealOnAStepWithoutAQuestionChangesNothing) {
    ClassRoom room(lesson(), {}, "CODE");
    const uint64_t seq = room.sequence();
    room.reveal();
    EXPECT_EQ(room.sequence(), seq);
    EXPECT_FALSE(room.revealed(0));
}

TEST(ClassRoom, TheWindowsPlaceReachesThePagesInOneChangeWithItsStep) {
    ClassRoom room(lesson(), {}, "CODE");
    const auto s = room.join("CODE", "10.0.0.1", t0);
    EXPECT_TRUE(room.state_for(s.token)["place"].is_null());  // no place yet: where the step opens
    Place p;
    p.group = {1, 0};
    p.interval = 3;
    p.phase = 1;
    p.part = "use";
    p.iteration = 1;
    const uint64_t before = room.sequence();
    room.show(1, p);
    EXPECT_EQ(room.sequence(), before + 1);  // the step and the place: one change, not two
    auto st = room.state_for(s.token);
    EXPECT_EQ(st["step"], 1);
    EXPECT_EQ(st["frame_step"], 0);
    EXPECT_EQ(st["place"], (nlohmann::json{{"group", {1, 0}}, {"interval", 3}, {"phase", 1}, {"part", "use"}, {"iteration", 1}}));
    room.show(1, p);  // the window redraws the same place every frame: the pages are not woken
    EXPECT_EQ(room.sequence(), before + 1);
    p.iteration.reset();  // the whole part
    room.show(1, p);
    EXPECT_EQ(room.sequence(), before + 2);
    EXPECT_TRUE(room.state_for(s.token)["place"]["iteration"].is_null());
    p.part = std::string(1000, 'x');  // kept short
    room.show(1, p);
    EXPECT_EQ(room.state_for(s.token)["place"]["part"].get<std::string>().size(), 32u);
    room.frame(1);  // the CLI's frame key: from the step's opening, no place
    st = room.state_for(s.token);
    EXPECT_TRUE(st["place"].is_null());
    EXPECT_EQ(st["frame_step"], 1);
    room.show(1, p);
    room.go_to(0);
    EXPECT_TRUE(room.state_for(s.token)["place"].is_null());
    EXPECT_EQ(room.position().step, 0);
}

TEST(ClassRoom, OneAddressCannotFillTheClassOrStuffTheTally) {
    Limits l;
    l.tokens_per_address = 3;
    ClassRoom room(lesson(), l, "CODE");
    std::vector<std::string> tokens;
    for (int i = 0; i < 3; ++i) {
        const auto j = room.join("CODE", "6.6.6.6", t0);
        ASSERT_EQ(j.status, Status::ok);
        tokens.push_back(j.token);
    }
    EXPECT_EQ(room.join("CODE", "6.6.6.6", t0).status, Status::address_full);
    EXPECT_EQ(room.join("CODE", "6.6.6.6", t0 + 3600s).status, Status::address_full);  // a cap, not a rate
    EXPECT_EQ(room.join("CODE", "10.0.0.1", t0).status, Status::ok);                   // others still join
    room.go_to(1);
    for (const auto& t : tokens) EXPECT_EQ(room.answer(t, 1, "7", t0), Status::ok);
    EXPECT_EQ(room.tally().answered, 3u);  // at most tokens_per_address guesses from one address
    // This machine is not capped (the load test's simulated students), unless asked.
    for (int i = 0; i < 5; ++i) EXPECT_EQ(room.join("CODE", "127.0.0.1", t0).status, Status::ok);
    l.loopback_uncapped = false;
    ClassRoom strict(lesson(), l, "CODE");
    for (int i = 0; i < 3; ++i) EXPECT_EQ(strict.join("CODE", "::ffff:127.0.0.1", t0).status, Status::ok);
    EXPECT_EQ(strict.join("CODE", "::ffff:127.0.0.1", t0).status, Status::address_full);
    EXPECT_TRUE(is_loopback("127.0.0.2"));
    EXPECT_TRUE(is_loopback("::1"));
    EXPECT_FALSE(is_loopback("10.127.0.1"));
}
