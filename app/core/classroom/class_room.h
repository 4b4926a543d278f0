#pragma once
// Class mode (issue 34): the room follows the instructor's lesson on its own devices and
// answers the lesson's questions before Reveal. This is the whole model of a class: the
// join code, one token per student, the instructor's position, one answer per student per
// step, the tally, rate limits and bounds. It knows no sockets and no HTTP (app/net serves
// it), so every rule here is tested headless with a clock the test moves.
#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tilescope::classroom {

using Clock = std::chrono::steady_clock;

struct Limits {
    size_t max_clients = 400;           // students who may join (tokens issued); the 401st is refused
    double client_rate = 20;            // requests per second one token may make, sustained...
    double client_burst = 40;           // ...and at once
    double join_rate = 50;              // joins per second from one address, sustained...
    double join_burst = 500;            // ...and at once (a room behind one NAT joins together)
    double bad_code_rate = 0.2;         // wrong join codes per second from one address, sustained...
    double bad_code_burst = 10;         // ...and at once
    size_t max_answer_chars = 32;       // an answer is a number written in at most this many characters
    size_t max_addresses = 4096;        // addresses whose join and bad-code buckets are kept
    // Students who may join from one address (a phone and a laptop, a tab opened again): one
    // device can neither fill the class nor answer a step more than this many times. A room
    // behind one NAT address needs it raised (tilescope class --per-address N).
    size_t tokens_per_address = 8;
    bool loopback_uncapped = true;      // this machine (127.0.0.0/8, ::1) is not capped per address
};

// Where in a step's trace the instructor's window is: a snapshot the window gives the class
// (the GUI's cursor), so that every page opens the same frame. Pages find the frame by
// `group` and `interval` (with `iteration`); `phase` and `part` name it for people and tests.
struct Place {
    std::array<uint32_t, 2> group{0, 0};  // the work-group on show
    int interval = 0;                     // its barrier interval: one part of one phase
    int phase = 0;                        // 0-based, as the slides count them
    std::string part;                     // load, use, store... (at most 32 characters kept)
    std::optional<int> iteration;         // in a use part, the iteration on show; none: the whole part
    bool operator==(const Place&) const = default;
};

// The instructor's position, as every student page follows it.
struct Position {
    int step = 0;                // the lesson's step
    int frame_step = 0;          // "step" presses from where that step opens: part, iteration, phase
    std::optional<Place> place;  // the window's place in the step (then frame_step is 0); none: where the step opens
    bool operator==(const Position&) const = default;
};

enum class Status {
    ok,
    bad_code,         // join with a wrong or missing code
    full,             // max_clients have joined
    address_full,     // tokens_per_address students have joined from this address
    rate_limited,     // too many requests from this token or address
    unknown_token,    // no such student
    no_question,      // the step has no question
    not_current,      // an answer for a step other than the instructor's
    revealed,         // the answer is out: no more guesses
    already_answered, // one answer per student per step
    bad_value,        // not a finite number of at most max_answer_chars characters
};
const char* status_text(Status s);

// What the projector shows: counts and the spread, never who.
struct Tally {
    int step = 0;
    size_t joined = 0;
    size_t answered = 0;
    std::vector<std::pair<double, size_t>> values;  // each distinct guess and how many gave it, ascending
};

class ClassRoom {
public:
    // `page`: the lesson page's data (lesson_steps with questions and answers, traces), as
    // `tilescope export --html --lesson` embeds it; or a single trace's hand-out data (no
    // steps). `code`: the join code; empty draws one.
    ClassRoom(nlohmann::json page, Limits limits = {}, std::string code = {});

    const std::string& code() const { return code_; }
    const Limits& limits() const { return limits_; }
    int steps() const { return int(steps_.size()); }
    bool step_has_question(int step) const;

    // The data every student page gets once: the page with each question's answer taken
    // out (it comes with the state after Reveal). Serialised once.
    const std::string& student_data() const { return student_data_; }

    // --- the instructor ---
    void go_to(int step);  // clamped to the lesson's steps; frame_step back to 0, no place
    // The step and the place in it at once (one change for the pages): what a window that
    // steps through parts and iterations itself publishes. Nothing changes if both are as they were.
    void show(int step, std::optional<Place> place);
    void next() { go_to(position().step + 1); }
    void previous() { go_to(position().step - 1); }
    void frame(int delta);  // the frame within the step: forward or back, never below 0 (from the step's opening place)
    void reveal();           // the current step's answer goes out
    Position position() const;
    bool revealed(int step) const;
    Tally tally(int step) const;
    Tally tally() const { return tally(position().step); }
    // Every step's tally: step,question,guess,count (no names, no tokens), one row per distinct guess.
    std::string tally_csv() const;
    size_t joined() const;
    uint64_t sequence() const;  // grows at every change a student page follows

    // Ends the class: every waiting student is answered now and no one joins.
    void close();
    bool closed() const;

    // --- the students ---
    struct Joined {
        Status status = Status::ok;
        std::string token;
    };
    Joined join(const std::string& code, const std::string& address, Clock::time_point now = Clock::now());
    // Spends one request of `token`'s allowance: ok, unknown_token or rate_limited.
    Status admit(const std::string& token, Clock::time_point now = Clock::now());
    Status answer(const std::string& token, int step, const std::string& value, Clock::time_point now = Clock::now());
    // The state a student page follows: {seq, step, frame_step, place (null, or {group,
    // interval, phase, part, iteration}), steps, question, revealed, answer (after Reveal),
    // mine (this student's guess), joined, answered, closed}.
    nlohmann::json state_for(const std::string& token) const;
    // Waits until the sequence passes `seen`, the class closes, or `timeout` passes; returns
    // the sequence then.
    uint64_t wait_change(uint64_t seen, std::chrono::milliseconds timeout) const;

private:
    struct Bucket {
        double tokens = 0;
        Clock::time_point last{};
        bool take(double rate, double burst, Clock::time_point now);
    };
    struct StepState {
        bool revealed = false;
        std::map<std::string, double> answers;  // token -> guess
    };
    Bucket& address_bucket(std::map<std::string, Bucket>& m, const std::string& address, double burst);
    void changed();  // under mutex_
    Tally tally_locked(int step) const;

    nlohmann::json steps_;         // lesson_steps (with answers), or an empty array
    std::string student_data_;
    std::string code_;
    Limits limits_;
    mutable std::mutex mutex_;
    mutable std::condition_variable cv_;
    Position pos_;
    uint64_t seq_ = 1;
    bool closed_ = false;
    std::map<std::string, Bucket> clients_;  // token -> allowance
    std::map<std::string, Bucket> joins_, bad_codes_;
    std::map<std::string, size_t> tokens_of_;  // address -> students joined from it (at most max_clients entries)
    std::vector<StepState> step_state_;
};

// A join code: 6 characters from an alphabet without look-alikes (no 0/O, 1/I/L).
std::string draw_code();
// Tokens are 128 random bits as 32 hex digits.
std::string draw_token();
// 127.0.0.0/8, ::1 and their IPv4-mapped forms: this machine.
bool is_loopback(const std::string& address);
// Case and spaces do not matter when a student types the code.
std::string normalise_code(const std::string& typed);

}  // namespace tilescope::classroom
