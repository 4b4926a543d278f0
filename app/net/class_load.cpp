#include "net/class_load.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <optional>
#include <thread>

#include <httplib.h>

#include "net/class_server.h"

namespace tilescope::net {
namespace {

using Clock = std::chrono::steady_clock;

double rss_mib(const char* field = "VmRSS:") {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(field, 0) == 0) return std::stod(line.substr(std::string(field).size())) / 1024.0;
    return 0;
}

int thread_count() {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("Threads:", 0) == 0) return std::stoi(line.substr(8));
    return 0;
}

// A lesson of changes+1 steps; `questions` of them, spread out, ask.
nlohmann::json load_lesson(const LoadPlan& plan) {
    nlohmann::json steps = nlohmann::json::array();
    for (size_t i = 0; i <= plan.changes; ++i) {
        nlohmann::json s = {{"title", "step " + std::to_string(i)}, {"trace", nullptr}};
        if (plan.questions && i > 0 && (i - 1) % std::max<size_t>(1, plan.changes / plan.questions) == 0 &&
            (i - 1) / std::max<size_t>(1, plan.changes / plan.questions) < plan.questions)
            s["question"] = {{"text", "q" + std::to_string(i)},
                             {"answer", {{"value", std::to_string(i)}, {"formula", ""}, {"explanation", ""}, {"modelled", false}}}};
        steps.push_back(s);
    }
    return {{"lesson_title", "load"}, {"lesson_steps", steps}, {"traces", nlohmann::json::array()}};
}

// A simulated student's answer: once per asking step, before its Reveal.
void answer_once(httplib::Client& c, const httplib::Headers& h, const nlohmann::json& st, const std::string& value,
                 int& answered_step, std::atomic<size_t>& answers) {
    const int step = st["step"].get<int>();
    if (!st["question"].get<bool>() || st["revealed"].get<bool>() || answered_step == step) return;
    answered_step = step;
    const auto a = c.Post("/api/answer", h, nlohmann::json{{"step", step}, {"value", value}}.dump(), "application/json");
    if (a && a->status == 200) ++answers;
}


// A simulated student's way in: the client's settings, the join with the code, the frame
// data fetched once; the headers that carry its token, or none when the join was refused.
std::optional<httplib::Headers> join_as_student(httplib::Client& c, const std::string& code) {
    c.set_keep_alive(true);
    c.set_tcp_nodelay(true);
    c.set_read_timeout(30, 0);
    auto j = c.Post("/api/join", nlohmann::json{{"code", code}}.dump(), "application/json");
    if (!j || j->status != 200) return std::nullopt;
    httplib::Headers h{{"X-Token", nlohmann::json::parse(j->body)["token"].get<std::string>()}};
    c.Get("/api/data", h);
    return h;
}

}  // namespace

std::string LoadResult::text() const {
    char buf[1024];
    std::snprintf(buf, sizeof buf,
                  "students joined: %zu; answers taken: %zu; deliveries: %zu; missed: %zu\n"
                  "step change -> student page: p50 %.1f ms, p99 %.1f ms, max %.1f ms\n"
                  "memory (this process, server and simulated students): %.1f MiB before, %.1f MiB peak, %.1f MiB after\n"
                  "threads at most: %d\n"
                  "flood: %zu idle connections opened at once; a joined student followed a change in %.0f ms; a new student joined in %.0f ms\n",
                  joined, answers, deliveries, missed, p50_ms, p99_ms, max_ms, rss_before_mib, rss_peak_mib, rss_after_mib,
                  server_threads_max, flood_opened, flood_follow_ms, flood_join_ms);
    return buf;
}

LoadResult run_load(const LoadPlan& plan) {
    LoadResult result;
    result.rss_before_mib = rss_mib();
    classroom::Limits limits;
    limits.max_clients = std::max<size_t>(400, plan.students + 2);
    classroom::ClassRoom room(load_lesson(plan), limits, "LOADXX");
    ServerOptions options;
    options.port = 0;
    options.keep_alive_s = plan.keep_alive_s;
    options.defer_accept_s = plan.defer_accept_s;
    ClassServer server(room, options);
    std::string error;
    if (!server.start(error)) throw std::runtime_error(error);
    const int port = server.port();

    // When each change was made (by sequence number), and when each student saw each sequence.
    const size_t n = plan.students;
    std::vector<std::vector<std::pair<uint64_t, Clock::time_point>>> seen(n);
    std::atomic<size_t> joined{0}, answers{0};
    std::atomic<bool> done{false};
    std::vector<std::thread> students;
    for (size_t i = 0; i < n; ++i)
        students.emplace_back([&, i] {
            httplib::Client c("127.0.0.1", port);
            const std::optional<httplib::Headers> joined_as = join_as_student(c, "LOADXX");
            if (!joined_as) return;
            const httplib::Headers& h = *joined_as;
            ++joined;
            uint64_t seq = 0;
            int answered_step = -1;
            while (!done) {
                auto r = c.Get("/api/state?since=" + std::to_string(seq), h);
                const auto at = Clock::now();
                if (!r || r->status != 200) {
                    std::this_thread::sleep_for(std::chrono::milliseconds(r && r->status == 429 ? 200 : 20));
                    continue;
                }
                const auto st = nlohmann::json::parse(r->body);
                seq = st["seq"].get<uint64_t>();
                seen[i].emplace_back(seq, at);
                if (st["closed"].get<bool>()) break;
                answer_once(c, h, st, std::to_string(i % 7), answered_step, answers);
            }
        });
    const auto wait_joined = Clock::now() + std::chrono::seconds(30);
    while (joined < n && Clock::now() < wait_joined) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // every page at its first poll
    result.joined = joined;

    std::vector<std::pair<uint64_t, Clock::time_point>> changes;  // the sequence a change made, and when
    int threads_max = thread_count();
    double peak = rss_mib();
    for (size_t k = 1; k <= plan.changes; ++k) {
        const auto t = Clock::now();
        room.go_to(int(k));
        changes.emplace_back(room.sequence(), t);
        std::this_thread::sleep_for(std::chrono::milliseconds(150));
        if (room.step_has_question(int(k))) {
            const auto until = Clock::now() + std::chrono::seconds(3);
            while (room.tally().answered < result.joined && Clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(10));
            room.reveal();
            std::this_thread::sleep_for(std::chrono::milliseconds(150));
        }
        threads_max = std::max(threads_max, thread_count());
        peak = std::max(peak, rss_mib());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    // Latency: the first time a student saw a sequence at or past the change's.
    std::vector<double> ms;
    for (size_t i = 0; i < n; ++i)
        for (const auto& [cseq, ct] : changes) {
            const auto it = std::find_if(seen[i].begin(), seen[i].end(), [&](const auto& s) { return s.first >= cseq; });
            if (it == seen[i].end()) {
                if (!seen[i].empty()) ++result.missed;
                continue;
            }
            ms.push_back(std::chrono::duration<double, std::milli>(it->second - ct).count());
        }
    std::sort(ms.begin(), ms.end());
    result.deliveries = ms.size();
    if (!ms.empty()) {
        result.p50_ms = ms[ms.size() / 2];
        result.p99_ms = ms[std::min(ms.size() - 1, size_t(double(ms.size()) * 0.99))];
        result.max_ms = ms.back();
    }
    result.answers = answers;

    // The flood: idle connections at once; one student (still joined) follows through it.
    if (plan.flood) {
        rlimit lim{};
        getrlimit(RLIMIT_NOFILE, &lim);
        if (lim.rlim_cur < lim.rlim_max) {
            lim.rlim_cur = lim.rlim_max;
            setrlimit(RLIMIT_NOFILE, &lim);
        }
        // The flood comes from a child process, as from other machines: its sockets are not
        // this process's to count against its descriptor limit.
        int to_child[2], from_child[2];
        if (::pipe(to_child) != 0 || ::pipe(from_child) != 0) throw std::runtime_error("pipe");
        const pid_t child = ::fork();
        if (child == 0) {
            // Only async-signal-safe calls here: the parent has many threads.
            ::close(to_child[1]);
            ::close(from_child[0]);
            size_t opened = 0;
            for (size_t i = 0; i < plan.flood; ++i) {
                const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
                if (fd < 0) break;
                sockaddr_in a{};
                a.sin_family = AF_INET;
                a.sin_port = htons(uint16_t(port));
                a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
                ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
                ++opened;
            }
            (void)!::write(from_child[1], &opened, sizeof opened);
            char c;
            (void)!::read(to_child[0], &c, 1);  // until the parent is done
            ::_exit(0);
        }
        ::close(to_child[0]);
        ::close(from_child[1]);
        size_t opened = 0;
        (void)!::read(from_child[0], &opened, sizeof opened);
        result.flood_opened = opened;
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        const auto t = Clock::now();
        room.go_to(0);
        const uint64_t cseq = room.sequence();
        const auto until = t + std::chrono::seconds(10);
        while (Clock::now() < until) {
            bool all = true;
            // student 0's pages: has it seen cseq?
            if (seen[0].empty() || seen[0].back().first < cseq) all = false;
            if (all) {
                result.flood_follow_ms = std::chrono::duration<double, std::milli>(seen[0].back().second - t).count();
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        httplib::Client late("127.0.0.1", port);
        late.set_connection_timeout(30, 0);
        late.set_read_timeout(30, 0);
        const auto j0 = Clock::now();
        const auto j = late.Post("/api/join", R"({"code":"LOADXX"})", "application/json");
        if (j && j->status == 200) result.flood_join_ms = std::chrono::duration<double, std::milli>(Clock::now() - j0).count();
        threads_max = std::max(threads_max, thread_count());
        peak = std::max(peak, rss_mib());
        ::close(to_child[1]);  // the child ends, its connections close
        ::waitpid(child, nullptr, 0);
        ::close(from_child[0]);
    }
    done = true;
    server.stop();  // closes the class: every student's poll ends
    for (auto& s : students) s.join();
    result.server_threads_max = threads_max;
    result.rss_peak_mib = std::max(peak, rss_mib("VmHWM:"));
    result.rss_after_mib = rss_mib();
    return result;
}

std::string run_external_load(const std::string& url, size_t students, double seconds) {
    // http://HOST:PORT/#code=CODE
    const size_t scheme = url.find("://"), colon = url.find(':', scheme == std::string::npos ? 0 : scheme + 3);
    const size_t slash = url.find('/', colon == std::string::npos ? 0 : colon), code_at = url.find("code=");
    if (scheme == std::string::npos || colon == std::string::npos || slash == std::string::npos || code_at == std::string::npos)
        throw std::invalid_argument("a class's link: http://HOST:PORT/#code=CODE");
    const std::string host = url.substr(scheme + 3, colon - scheme - 3);
    const int port = std::stoi(url.substr(colon + 1, slash - colon - 1));
    const std::string code = url.substr(code_at + 5, 16);
    std::atomic<size_t> joined{0}, states{0}, answers{0};
    const auto end = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    std::vector<std::thread> threads;
    for (size_t i = 0; i < students; ++i)
        threads.emplace_back([&, i] {
            httplib::Client c(host, port);
            const std::optional<httplib::Headers> joined_as = join_as_student(c, code);
            if (!joined_as) return;
            const httplib::Headers& h = *joined_as;
            ++joined;
            uint64_t seq = 0;
            int answered_step = -1;
            while (Clock::now() < end) {
                auto r = c.Get("/api/state?since=" + std::to_string(seq), h);
                if (!r || r->status != 200) {
                    if (!r) return;  // the class ended
                    std::this_thread::sleep_for(std::chrono::milliseconds(200));
                    continue;
                }
                const auto st = nlohmann::json::parse(r->body);
                ++states;
                seq = st["seq"].get<uint64_t>();
                if (st["closed"].get<bool>()) return;
                answer_once(c, h, st, std::to_string(i % 7), answered_step, answers);
            }
        });
    for (auto& t : threads) t.join();
    return "joined " + std::to_string(joined.load()) + ", states received " + std::to_string(states.load()) + ", answers taken " +
           std::to_string(answers.load()) + "\n";
}

}  // namespace tilescope::net
