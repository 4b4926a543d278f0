#pragma once
// Class mode under a class's load (issue 34), on loopback: simulated students follow the
// instructor's step changes and answer the questions, then a flood of idle connections is
// opened while a joined student keeps following. `tilescope class --bench` prints it.
#include <cstddef>
#include <string>

namespace tilescope::net {

struct LoadPlan {
    size_t students = 300;
    size_t changes = 50;    // step changes by the instructor
    size_t questions = 10;  // of the steps changed to, this many ask (and are revealed)
    size_t flood = 10000;   // idle connections opened at once afterwards (0: none)
    int keep_alive_s = 0;   // the server's ServerOptions (the defaults; others to compare)
    int defer_accept_s = 2;
};

struct LoadResult {
    size_t joined = 0, answers = 0, deliveries = 0, missed = 0;  // missed: a change a student never saw
    double p50_ms = 0, p99_ms = 0, max_ms = 0;                   // step change -> a student's page has it
    double rss_before_mib = 0, rss_peak_mib = 0, rss_after_mib = 0;
    size_t flood_opened = 0;
    double flood_follow_ms = -1;  // a joined student's step change during the flood
    double flood_join_ms = -1;    // a new student's join while the flood is open
    int server_threads_max = 0;
    std::string text() const;
};

LoadResult run_load(const LoadPlan& plan);

// Simulated students against a class served elsewhere (the GUI's): `students` join with the
// link's code, follow by long polling and answer every question once, for `seconds`.
// Returns one line: joined, states received, answers taken.
std::string run_external_load(const std::string& url, size_t students, double seconds);

}  // namespace tilescope::net
