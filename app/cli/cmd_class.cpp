// tilescope class (issue 34): serve a lesson to the room. The frames are computed here
// once (the lesson's traces, as export --html --lesson makes them) and sent as data; the
// students' browsers only paint them. The instructor steps and reveals with keys on stdin.
#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include <iostream>

#include "cli/cli.h"
#include "core/base/atomic_file.h"
#include "core/base/errors.h"
#include "core/classroom/class_room.h"
#include "core/io/html_export.h"
#include "core/io/trace_file.h"
#include "core/tasks/lesson_page.h"
#include "net/class_load.h"
#include "net/class_server.h"

namespace tilescope::cli {
namespace {

const char* kHelp =
    "usage: tilescope class --lesson FILE.json [--listen ADDR:PORT] [--tally OUT.csv] [--code CODE] [--max-clients N]\n"
    "                       [--per-address N]\n"
    "       tilescope class --open FILE.tstrace [--listen ADDR:PORT] ...\n"
    "\n"
    "Starts a web server inside tilescope for the room: students open the URL it prints (or\n"
    "scan its QR code) in any browser, join with the short code, and their page (the HTML\n"
    "hand-out in live mode) follows your step, phase, part and iteration; they may step on\n"
    "their own and press 'follow' to come back. On a step with a question each student sends\n"
    "one guess; the answer reaches their pages only when you reveal it, beside their guess.\n"
    "--lesson FILE.json  a lesson (assets/lessons/*.json); its traces are made once, here\n"
    "--open FILE.tstrace a saved trace instead: students follow its frames (no questions)\n"
    "--listen ADDR:PORT  where to listen (default 127.0.0.1:8080, this machine only); name\n"
    "                    0.0.0.0:8080 or this machine's address to open it to the room\n"
    "--tally OUT.csv     at the end, every question's guesses: step, question, guess, count,\n"
    "                    answer (anonymous: no names, no tokens)\n"
    "--code CODE         the join code (default: 6 random characters)\n"
    "--max-clients N     students who may join (default 400)\n"
    "--per-address N     students who may join from one network address (default 8; this\n"
    "                    machine is not capped): raise it for a room behind one NAT address\n"
    "--bench             the load benchmark on loopback instead: [--students 300] [--changes 50]\n"
    "                    [--questions 10] [--flood 10000]; p50/p99 of step change to student page,\n"
    "                    memory, and a flood of idle connections while a student follows;\n"
    "                    [--keep-alive 0] [--defer-accept 2]: the server's seconds an idle\n"
    "                    connection is kept and a silent one deferred (to compare settings)\n"
    "--bench --join URL  simulated students against a class served elsewhere (the GUI's link):\n"
    "                    [--students 300] [--seconds 20]; they follow and answer\n"
    "Keys (stdin): n next step, p previous step, f next frame, b frame back, r reveal the\n"
    "answer, t show the tally, q quit (also Ctrl-C, or the end of stdin). Quitting stops the\n"
    "server: nothing is left listening.\n"
    "Limits: request bodies 1 KiB, 64 headers, 2 s to send a request, 20 requests/s per\n"
    "student (burst 40), 10 wrong codes then one every 5 s per address, 8 students per\n"
    "address (--per-address); a connection that sends nothing is closed.\n";

// Single keys from a terminal (no Enter needed), restored on every way out.
class RawKeys {
public:
    RawKeys() {
        if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &saved_) != 0) return;
        termios raw = saved_;
        raw.c_lflag &= tcflag_t(~(ICANON | ECHO));
        raw.c_cc[VMIN] = 1;
        raw.c_cc[VTIME] = 0;
        active_ = tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0;
    }
    ~RawKeys() {
        if (active_) tcsetattr(STDIN_FILENO, TCSANOW, &saved_);
    }

private:
    termios saved_{};
    bool active_ = false;
};

std::string tally_line(const classroom::ClassRoom& room) {
    const auto pos = room.position();
    const auto t = room.tally();
    std::string line = "step " + std::to_string(pos.step + 1) + "/" + std::to_string(room.steps()) + ", frame " +
                       std::to_string(pos.frame_step) + ": " + std::to_string(t.joined) + " joined";
    if (room.step_has_question(pos.step)) {
        line += ", " + std::to_string(t.answered) + " answered" + (room.revealed(pos.step) ? " (revealed)" : "");
        if (!t.values.empty()) {
            line += "; guesses:";
            for (const auto& [v, n] : t.values) {
                char buf[64];
                std::snprintf(buf, sizeof buf, " %g\u00d7%zu", v, n);
                line += buf;
            }
        }
    }
    return line;
}

}  // namespace

int cmd_class(const std::vector<std::string>& args) {
    Options o("class", {"lesson", "open", "listen", "tally", "code", "max-clients", "per-address", "students", "changes", "questions", "flood", "join", "seconds", "keep-alive", "defer-accept"},
              {"help", "bench"});
    o.parse(args);
    if (o.has("help")) {
        std::cout << kHelp;
        return 0;
    }
    if (o.has("bench") && o.get("join")) {
        const size_t students = size_t(o.get_int("students", 300, 1, "a number of simulated students from 1 to 2000"));
        const int seconds = o.get_int("seconds", 20, 1, "whole seconds from 1 to 600");
        if (students > 2000 || seconds > 600) throw InputError("class --bench --join: accepted: --students 1-2000, --seconds 1-600");
        try {
            std::cout << "class --bench --join: " << students << " simulated students for " << seconds << " s: "
                      << net::run_external_load(*o.get("join"), students, seconds);
        } catch (const std::invalid_argument& e) {
            throw InputError("--join " + o.get("join")->substr(0, 80) + ": accepted: " + e.what());
        }
        return 0;
    }
    if (o.has("bench")) {
        net::LoadPlan plan;
        plan.students = size_t(o.get_int("students", 300, 1, "a number of simulated students from 1 to 2000"));
        plan.changes = size_t(o.get_int("changes", 50, 1, "a number of step changes from 1 to 1000"));
        plan.questions = size_t(o.get_int("questions", 10, 0, "a number of questions from 0 up to --changes"));
        plan.flood = size_t(o.get_int("flood", 10000, 0, "a number of idle connections from 0 to 20000"));
        plan.keep_alive_s = o.get_int("keep-alive", 0, 0, "whole seconds from 0 to 60");
        plan.defer_accept_s = o.get_int("defer-accept", 2, 0, "whole seconds from 0 to 60");
        if (plan.students > 2000 || plan.changes > 1000 || plan.questions > plan.changes || plan.flood > 20000 ||
            plan.keep_alive_s > 60 || plan.defer_accept_s > 60)
            throw InputError("class --bench: accepted: --students 1-2000, --changes 1-1000, --questions 0-changes, --flood 0-20000, "
                             "--keep-alive 0-60, --defer-accept 0-60");
        std::cout << "class --bench: " << plan.students << " simulated students on loopback, " << plan.changes << " step changes, "
                  << plan.questions << " questions, then " << plan.flood << " idle connections at once (server: keep-alive "
                  << plan.keep_alive_s << " s, defer-accept " << plan.defer_accept_s << " s)\n"
                  << net::run_load(plan).text();
        return 0;
    }
    const auto lesson_path = o.get("lesson"), trace_path = o.get("open");
    if (!lesson_path && !trace_path)
        throw InputError("nothing to teach; accepted: --lesson FILE.json (assets/lessons/*.json) or --open FILE.tstrace");
    if (lesson_path && trace_path)
        throw InputError("--open " + *trace_path + ": give a lesson or a saved trace, not both; accepted: --lesson FILE.json or --open FILE.tstrace");
    net::ServerOptions server = o.get("listen") ? net::parse_listen(*o.get("listen")) : net::ServerOptions{};
    classroom::Limits limits;
    limits.max_clients = size_t(o.get_int("max-clients", 400, 1, "a whole number of students from 1 to 10000"));
    if (limits.max_clients > 10000) throw InputError("--max-clients " + *o.get("max-clients") + ": too many; accepted: 1 to 10000");
    limits.tokens_per_address = size_t(o.get_int("per-address", 8, 1, "a whole number of students from 1 to 10000"));
    if (limits.tokens_per_address > 10000) throw InputError("--per-address " + *o.get("per-address") + ": too many; accepted: 1 to 10000");
    std::string code;
    if (const auto c = o.get("code")) {
        code = classroom::normalise_code(*c);
        if (code.size() < 4 || code.size() > 12 || code.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != std::string::npos)
            throw InputError("--code " + c->substr(0, 40) + ": accepted: 4 to 12 letters and digits");
    }
    const auto tally_path = o.get("tally");
    if (tally_path) check_writable(*tally_path, "--tally");

    nlohmann::json page;
    if (lesson_path) {
        page = tasks::lesson_page_data(load_lesson(*lesson_path), {interrupted, [](const std::string& line) { std::cerr << "class: " << line << "\n"; }, {}});
    } else {
        page = handout_data(load_trace_file(*trace_path, "--open"));
    }
    classroom::ClassRoom room(std::move(page), limits, code);
    net::ClassServer srv(room, server);
    std::string error;
    if (!srv.start(error)) throw InputError("--listen " + o.get_or("listen", "127.0.0.1:8080") + ": " + error);

    const std::string url = srv.url();
    std::cout << "class: serving on " << server.host << ":" << srv.port()
              << (server.host == "127.0.0.1" ? " (this machine only; --listen 0.0.0.0:PORT opens it to the room)" : "") << "\n"
              << net::qr_terminal(url, isatty(STDOUT_FILENO)) << "open:      " << url << "\n"
              << "join code: " << room.code() << "\n"
              << "keys: n/p step, f/b frame, r reveal, t tally, q quit\n"
              << tally_line(room) << std::endl;
    {
        RawKeys keys;
        size_t last_joined = 0, last_answered = 0, last_cut = 0;
        std::chrono::steady_clock::time_point last_cut_said{};
        bool quit = false;
        while (!quit && !interrupted()) {
            pollfd p{STDIN_FILENO, POLLIN, 0};
            const int ready = ::poll(&p, 1, 200);
            bool changed = false;
            if (ready > 0) {
                char buf[64];
                const ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
                if (n <= 0) break;  // the end of stdin: the class ends
                for (ssize_t i = 0; i < n && !quit; ++i) {
                    switch (buf[i]) {
                    case 'n': room.next(); changed = true; break;
                    case 'p': room.previous(); changed = true; break;
                    case 'f': room.frame(1); changed = true; break;
                    case 'b': room.frame(-1); changed = true; break;
                    case 'r':
                        if (!room.step_has_question(room.position().step)) std::cout << "(this step has no question to reveal)\n";
                        room.reveal();
                        changed = true;
                        break;
                    case 't': std::cout << room.tally_csv(); break;
                    case 'q': quit = true; break;
                    default: break;
                    }
                }
            }
            const auto t = room.tally();
            if (changed || t.joined != last_joined || t.answered != last_answered) std::cout << tally_line(room) << std::endl;
            // Said when it grows, at most every 5 s (an attack cuts hundreds a second).
            if (const size_t cut = srv.connections_cut(); cut != last_cut && std::chrono::steady_clock::now() - last_cut_said > std::chrono::seconds(5)) {
                std::cout << "class: " << net::connections_cut_line(cut, srv.options()) << std::endl;
                last_cut = cut;
                last_cut_said = std::chrono::steady_clock::now();
            }
            last_joined = t.joined;
            last_answered = t.answered;
        }
    }
    srv.stop();
    if (tally_path) {
        write_file_atomically(*tally_path, room.tally_csv(), "--tally");
        if (*tally_path != "-") std::cerr << "class: wrote the tally " << *tally_path << "\n";
    }
    std::cout << "class: closed; nothing is listening on port " << srv.port() << std::endl;
    return 0;
}

}  // namespace tilescope::cli
