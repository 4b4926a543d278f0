#include "core/classroom/class_room.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <random>
#include <stdexcept>

namespace tilescope::classroom {
namespace {

const char kCodeAlphabet[] = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

std::string number_text(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

// A guess as a student types it: digits, one point, a sign, an exponent; nothing else.
std::optional<double> parse_guess(const std::string& text, size_t max_chars) {
    std::string t;
    for (const char c : text)
        if (c != ' ' && c != ',' && c != '_') t.push_back(c);  // 1,024 and 1 024 as 1024
    if (t.empty() || t.size() > max_chars) return std::nullopt;
    for (const char c : t)
        if (!std::isdigit(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '+' && c != 'e' && c != 'E')
            return std::nullopt;
    try {
        size_t used = 0;
        const double v = std::stod(t, &used);
        if (used != t.size() || !std::isfinite(v)) return std::nullopt;
        // Kept as the tally prints it (10 significant digits), so two guesses that print alike
        // are counted together, and -0 as 0 (session 52: "1x1 1x1", "-0x2").
        const double shown = std::stod(number_text(v));
        return shown == 0 ? 0.0 : shown;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

}  // namespace

const char* status_text(Status s) {
    switch (s) {
    case Status::ok: return "ok";
    case Status::bad_code: return "wrong join code";
    case Status::full: return "the class is full";
    case Status::address_full: return "too many students from this address (ask the instructor)";
    case Status::rate_limited: return "too many requests; wait a moment";
    case Status::unknown_token: return "not joined (open the class's link again)";
    case Status::no_question: return "this step has no question";
    case Status::not_current: return "that step is not the one on show";
    case Status::revealed: return "the answer is already out";
    case Status::already_answered: return "already answered (one guess per step)";
    case Status::bad_value: return "a guess is a number (digits, one point, a sign)";
    }
    return "?";
}

std::string draw_code() {
    std::random_device rd;
    std::string code;
    for (int i = 0; i < 6; ++i) code.push_back(kCodeAlphabet[rd() % (sizeof kCodeAlphabet - 1)]);
    return code;
}

std::string draw_token() {
    std::random_device rd;
    std::string t;
    char buf[9];
    for (int i = 0; i < 4; ++i) {
        std::snprintf(buf, sizeof buf, "%08x", static_cast<unsigned>(rd()));
        t += buf;
    }
    return t;
}

bool is_loopback(const std::string& address) {
    return address.rfind("127.", 0) == 0 || address == "::1" || address.rfind("::ffff:127.", 0) == 0;
}

std::string normalise_code(const std::string& typed) {
    std::string c;
    for (const char ch : typed.substr(0, 64))
        if (!std::isspace(static_cast<unsigned char>(ch)) && ch != '-') c.push_back(char(std::toupper(static_cast<unsigned char>(ch))));
    return c;
}

bool ClassRoom::Bucket::take(double rate, double burst, Clock::time_point now) {
    if (last == Clock::time_point{}) {
        tokens = burst;
    } else if (now > last) {
        tokens = std::min(burst, tokens + rate * std::chrono::duration<double>(now - last).count());
    }
    last = std::max(last, now);
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
}

ClassRoom::ClassRoom(nlohmann::json page, Limits limits, std::string code)
    : code_(code.empty() ? draw_code() : normalise_code(code)), limits_(limits) {
    if (!page.is_object()) throw std::invalid_argument("a class needs a page's data (an object)");
    if (page.contains("lesson_steps")) {
        steps_ = page["lesson_steps"];
        if (!steps_.is_array() || steps_.empty()) throw std::invalid_argument("a class's lesson has no steps");
        for (auto& s : page["lesson_steps"])
            if (s.contains("question") && s["question"].is_object())
                s["question"]["answer"] = {{"value", "?"}, {"formula", ""}, {"explanation", "The answer comes when the instructor reveals it."},
                                           {"modelled", false}};  // the page's shape, no answer in it
    } else {
        steps_ = nlohmann::json::array({nlohmann::json::object()});  // one trace: one step, no question
    }
    step_state_.resize(steps_.size());
    student_data_ = page.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

bool ClassRoom::step_has_question(int step) const {
    return step >= 0 && step < int(steps_.size()) && steps_[size_t(step)].contains("question") &&
           steps_[size_t(step)]["question"].is_object();
}

void ClassRoom::changed() {
    ++seq_;
    cv_.notify_all();
}

void ClassRoom::go_to(int step) {
    std::lock_guard<std::mutex> lock(mutex_);
    step = std::clamp(step, 0, int(steps_.size()) - 1);
    const Position to{step, 0, std::nullopt};
    if (pos_ == to) return;
    pos_ = to;
    changed();
}

void ClassRoom::show(int step, std::optional<Place> place) {
    std::lock_guard<std::mutex> lock(mutex_);
    step = std::clamp(step, 0, int(steps_.size()) - 1);
    if (place) {
        place->part = place->part.substr(0, 32);
        place->interval = std::clamp(place->interval, 0, 1 << 20);
        place->phase = std::clamp(place->phase, 0, 1 << 20);
        if (place->iteration) place->iteration = std::clamp(*place->iteration, 0, 1 << 20);
    }
    const Position to{step, 0, std::move(place)};
    if (pos_ == to) return;
    pos_ = to;
    changed();
}

void ClassRoom::frame(int delta) {
    std::lock_guard<std::mutex> lock(mutex_);
    const int f = std::clamp(pos_.frame_step + delta, 0, 1 << 20);
    if (f == pos_.frame_step && !pos_.place) return;
    pos_.frame_step = f;
    pos_.place.reset();
    changed();
}

void ClassRoom::reveal() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!step_has_question(pos_.step) || step_state_[size_t(pos_.step)].revealed) return;
    step_state_[size_t(pos_.step)].revealed = true;
    changed();
}

Position ClassRoom::position() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return pos_;
}

bool ClassRoom::revealed(int step) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return step >= 0 && step < int(step_state_.size()) && step_state_[size_t(step)].revealed;
}

size_t ClassRoom::joined() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return clients_.size();
}

uint64_t ClassRoom::sequence() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return seq_;
}

void ClassRoom::close() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_) return;
    closed_ = true;
    changed();
}

bool ClassRoom::closed() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return closed_;
}

Tally ClassRoom::tally_locked(int step) const {
    Tally t;
    t.step = step;
    t.joined = clients_.size();
    if (step < 0 || step >= int(step_state_.size())) return t;
    std::map<double, size_t> counts;
    for (const auto& [token, v] : step_state_[size_t(step)].answers) ++counts[v];
    t.answered = step_state_[size_t(step)].answers.size();
    t.values.assign(counts.begin(), counts.end());
    return t;
}

Tally ClassRoom::tally(int step) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return tally_locked(step);
}

std::string ClassRoom::tally_csv() const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::string csv = "step,question,guess,count,answer\n";
    // A cell of the lesson's text (the lesson is a stranger's file): printed to the instructor's
    // terminal (`t`) and opened in a spreadsheet (--tally), so no control character reaches the
    // terminal (C0, DEL, and C1 written in UTF-8: U+009B is a terminal's CSI) and no cell starts
    // as a formula (= + - @, or a tab or CR before one): such a cell is kept as text with a leading
    // apostrophe, as spreadsheets write it. A number (an answer of -3) stays a number.
    const auto quoted = [](const std::string& s) {
        std::string q;
        for (size_t i = 0; i < s.size(); ++i) {
            const unsigned char c = static_cast<unsigned char>(s[i]);
            const bool c1 = c == 0xC2 && i + 1 < s.size() && (static_cast<unsigned char>(s[i + 1]) & 0xE0) == 0x80;
            if (c == '"') q += "\"\"";
            else if (c < 0x20 || c == 0x7f) q += ' ';
            else if (c1) q += ' ', ++i;
            else q.push_back(char(c));
        }
        const size_t first = q.find_first_not_of(' ');
        const bool number = q.find_first_not_of("0123456789.eE+-") == std::string::npos && parse_guess(q, q.size());
        const bool formula = first != std::string::npos && std::string("=+-@").find(q[first]) != std::string::npos && !number;
        return "\"" + std::string(formula ? "'" : "") + q + "\"";
    };
    for (int i = 0; i < int(steps_.size()); ++i) {
        if (!step_has_question(i)) continue;
        const auto& q = steps_[size_t(i)]["question"];
        const std::string text = q.value("text", std::string());
        std::string answer;
        if (q.contains("answer") && q["answer"].is_object()) answer = q["answer"].value("value", std::string());
        const Tally t = tally_locked(i);
        if (t.values.empty()) csv += std::to_string(i + 1) + "," + quoted(text) + ",,0," + quoted(answer) + "\n";
        for (const auto& [v, n] : t.values)
            csv += std::to_string(i + 1) + "," + quoted(text) + "," + number_text(v) + "," + std::to_string(n) + "," + quoted(answer) + "\n";
    }
    return csv;
}

ClassRoom::Bucket& ClassRoom::address_bucket(std::map<std::string, Bucket>& m, const std::string& address, double burst) {
    auto it = m.find(address);
    if (it != m.end()) return it->second;
    // Bounded: past max_addresses, the fullest (oldest-refilled) buckets are forgotten.
    if (m.size() >= limits_.max_addresses) {
        auto oldest = m.begin();
        for (auto j = m.begin(); j != m.end(); ++j)
            if (j->second.last < oldest->second.last) oldest = j;
        m.erase(oldest);
    }
    return m[address];
}

ClassRoom::Joined ClassRoom::join(const std::string& code, const std::string& address, Clock::time_point now) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_) return {Status::full, {}};
    if (normalise_code(code) != code_) {
        if (!address_bucket(bad_codes_, address, limits_.bad_code_burst).take(limits_.bad_code_rate, limits_.bad_code_burst, now))
            return {Status::rate_limited, {}};
        return {Status::bad_code, {}};
    }
    if (!address_bucket(joins_, address, limits_.join_burst).take(limits_.join_rate, limits_.join_burst, now))
        return {Status::rate_limited, {}};
    if (clients_.size() >= limits_.max_clients) return {Status::full, {}};
    const bool capped = !(limits_.loopback_uncapped && is_loopback(address));
    if (capped && tokens_of_.count(address) && tokens_of_[address] >= limits_.tokens_per_address) return {Status::address_full, {}};
    if (capped) ++tokens_of_[address];
    std::string token;
    do token = draw_token();
    while (clients_.count(token));
    Bucket b;
    b.take(limits_.client_rate, limits_.client_burst, now);
    clients_.emplace(token, b);
    // No change for the pages: waking every waiting student at each join (or answer) would
    // be N² wake-ups as a room joins; pages get the counts with the next step change.
    return {Status::ok, token};
}

Status ClassRoom::admit(const std::string& token, Clock::time_point now) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = clients_.find(token);
    if (it == clients_.end()) return Status::unknown_token;
    return it->second.take(limits_.client_rate, limits_.client_burst, now) ? Status::ok : Status::rate_limited;
}

Status ClassRoom::answer(const std::string& token, int step, const std::string& value, Clock::time_point now) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = clients_.find(token);
    if (it == clients_.end()) return Status::unknown_token;
    if (!it->second.take(limits_.client_rate, limits_.client_burst, now)) return Status::rate_limited;
    if (step != pos_.step) return Status::not_current;
    if (!step_has_question(step)) return Status::no_question;
    StepState& s = step_state_[size_t(step)];
    if (s.revealed) return Status::revealed;
    if (s.answers.count(token)) return Status::already_answered;
    const auto v = parse_guess(value, limits_.max_answer_chars);
    if (!v) return Status::bad_value;
    s.answers.emplace(token, *v);
    return Status::ok;
}

nlohmann::json ClassRoom::state_for(const std::string& token) const {
    std::lock_guard<std::mutex> lock(mutex_);
    const int step = pos_.step;
    const StepState& s = step_state_[size_t(step)];
    nlohmann::json j = {{"seq", seq_},
                        {"step", step},
                        {"frame_step", pos_.frame_step},
                        {"place", nullptr},
                        {"steps", steps_.size()},
                        {"question", step_has_question(step)},
                        {"revealed", s.revealed},
                        {"joined", clients_.size()},
                        {"answered", s.answers.size()},
                        {"closed", closed_},
                        {"mine", nullptr}};
    if (const Place* p = pos_.place ? &*pos_.place : nullptr)
        j["place"] = {{"group", {p->group[0], p->group[1]}},
                      {"interval", p->interval},
                      {"phase", p->phase},
                      {"part", p->part},
                      {"iteration", p->iteration ? nlohmann::json(*p->iteration) : nlohmann::json(nullptr)}};
    if (const auto a = s.answers.find(token); a != s.answers.end()) j["mine"] = number_text(a->second);
    if (s.revealed) j["answer"] = steps_[size_t(step)]["question"].value("answer", nlohmann::json());
    return j;
}

uint64_t ClassRoom::wait_change(uint64_t seen, std::chrono::milliseconds timeout) const {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait_for(lock, timeout, [&] { return seq_ != seen || closed_; });
    return seq_;
}

}  // namespace tilescope::classroom
