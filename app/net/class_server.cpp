#include "net/class_server.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <optional>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include <httplib.h>
#include <qrencode.h>

#include "core/base/errors.h"
#include "core/io/live_page.h"
#include "net/tcp_bytes.h"

namespace tilescope::net {

using classroom::Status;

namespace {

int http_status(Status s) {
    switch (s) {
    case Status::ok: return 200;
    case Status::bad_code: return 403;
    case Status::unknown_token: return 403;
    case Status::full: return 503;
    case Status::address_full: return 429;
    case Status::rate_limited: return 429;
    case Status::already_answered: return 409;
    case Status::revealed: return 409;
    case Status::not_current: return 409;
    case Status::no_question: return 409;
    case Status::bad_value: return 400;
    }
    return 500;
}

void reply(httplib::Response& res, int status, const nlohmann::json& body) {
    res.status = status;
    res.set_content(body.dump(), "application/json");
}

void refuse(httplib::Response& res, Status s) { reply(res, http_status(s), {{"error", classroom::status_text(s)}}); }

// httplib serves a connection on one thread from its first byte to its close, and a long
// poll holds that thread. A fixed pool sized for the class would let a flood of idle
// connections queue in front of everyone; this one grows while jobs wait, up to `max`
// threads (so memory stays bounded), and keeps them.
class ElasticPool : public httplib::TaskQueue {
public:
    explicit ElasticPool(size_t max) : max_(max) {}
    void enqueue(std::function<void()> fn) override {
        std::unique_lock<std::mutex> lock(mutex_);
        jobs_.push_back(std::move(fn));
        if (jobs_.size() > idle_ && threads_.size() < max_) threads_.emplace_back([this] { work(); });
        else cv_.notify_one();
    }
    void shutdown() override {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
        }
        cv_.notify_all();
        for (std::thread& t : threads_) t.join();  // enqueue is no longer called: the listener has stopped
    }

private:
    void work() {
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            ++idle_;
            cv_.wait(lock, [this] { return stop_ || !jobs_.empty(); });
            --idle_;
            if (jobs_.empty()) return;  // stopping, nothing left
            std::function<void()> fn = std::move(jobs_.front());
            jobs_.pop_front();
            lock.unlock();
            fn();
            lock.lock();
        }
    }
    const size_t max_;
    std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<std::function<void()>> jobs_;
    std::vector<std::thread> threads_;
    size_t idle_ = 0;
    bool stop_ = false;
};

// httplib 0.11 bounds each read of a request (read_timeout_s) and each write, never a whole
// request: a client sending one header byte a second held its thread for ever, 1,300 such
// connections locked the students out, and stop() joined every one of them (20 made `q` wait
// 90 s; session 51). The watch looks at the class's connections (this process's sockets whose
// local port is the class's) four times a second (watch_period_ms) and shuts down
//   - a connection that has spent more than `deadline` on one request (reading it, its body,
//     and writing its reply, which is given its size at `reply_rate` more: a lesson's data can be
//     3 MB, and a room shares its Wi-Fi; a long poll's wait for a change does not count);
//   - a connection that has sent more than `request_bytes` since its last reply (the kernel's
//     count): httplib reads header lines, 8 KB each, with no bound on their number, at about
//     20 bytes of memory for each byte sent (session 52: 2.4 GB from one connection in 20 s);
//   - past `per_address` connections of one address busy on a request, the oldest ones
//     (this machine is not capped when the room's limits say so);
//   - once the class stops, every connection, so that stop() waits for no client.
// Shutting a socket down makes its thread's read or write return; httplib then closes it.
class ConnectionWatch {
public:
    using Clock = std::chrono::steady_clock;
    struct Settings {
        int port = 0;
        Clock::duration deadline = std::chrono::seconds(20);
        size_t per_address = 32;
        bool loopback_uncapped = true;
        double reply_rate = 16 * 1024;  // bytes a second
        uint64_t request_bytes = 64 * 1024;
        std::chrono::milliseconds period{250};  // between two looks
        std::chrono::milliseconds closing_grace{500};  // a request refused on its head: its refusal's time to go out
    };

    void start(Settings settings) {
        settings_ = settings;
        thread_ = std::thread([this] { run(); });
    }
    // A long poll's wait: the connection is not busy meanwhile.
    void waiting(const httplib::Request& req, bool on) {
        std::lock_guard<std::mutex> lock(mutex_);
        Peer& p = peers_[peer_of(req)];
        p.waiting += on ? 1 : -1;
        if (!on) p.since = Clock::now();
    }
    // A reply of `bytes` is about to be written: it has that many bytes at reply_rate more.
    void replying(const httplib::Request& req, size_t bytes) {
        std::lock_guard<std::mutex> lock(mutex_);
        peers_[peer_of(req)].grace = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(double(bytes) / settings_.reply_rate));
    }
    // A reply is written: the connection's next request starts its clock now.
    void answered(const httplib::Request& req) {
        std::lock_guard<std::mutex> lock(mutex_);
        Peer& p = peers_[peer_of(req)];
        p.since = Clock::now();
        p.grace = {};
    }
    // The connection is shut down at the first look once closing_grace has passed (its refusal
    // written meanwhile), whatever it does.
    void close(const httplib::Request& req) {
        std::lock_guard<std::mutex> lock(mutex_);
        Peer& p = peers_[peer_of(req)];
        p.closing = true;
        p.since = Clock::now();  // kept until a look has seen it
    }
    // From now on every connection is shut down (checked every 20 ms) until finish().
    void drop_all() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            dropping_all_ = true;
        }
        cv_.notify_all();
    }
    void finish() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            finished_ = true;
        }
        cv_.notify_all();
        if (thread_.joinable()) thread_.join();
    }
    ~ConnectionWatch() { finish(); }
    // Connections shut down for being too slow or too many (not at the stop), so far.
    size_t cut() const { return cut_; }

private:
    struct Peer {
        bool closing = false;
        int waiting = 0;
        Clock::time_point since{};
        Clock::duration grace{};  // the reply being written: its size at reply_rate
    };
    struct Connection {
        int fd;
        ino_t inode;
        std::optional<uint64_t> received;  // bytes since it opened, when the kernel says
        std::string address;  // the client's address
        std::string peer;     // address:port, as httplib names the request's remote end
    };
    static std::string peer_of(const httplib::Request& req) { return req.remote_addr + ":" + std::to_string(req.remote_port); }

    static bool numeric(const sockaddr_storage& a, socklen_t len, std::string& host, int& port) {
        char h[NI_MAXHOST], s[NI_MAXSERV];
        if (::getnameinfo(reinterpret_cast<const sockaddr*>(&a), len, h, sizeof h, s, sizeof s, NI_NUMERICHOST | NI_NUMERICSERV) != 0)
            return false;
        host = h;
        port = std::atoi(s);
        return true;
    }

    // The class's connections now: sockets connected to a peer whose local port is the class's.
    std::vector<Connection> connections() const {
        std::vector<Connection> out;
        DIR* dir = ::opendir("/proc/self/fd");
        if (!dir) return out;
        const int own = ::dirfd(dir);
        while (const dirent* e = ::readdir(dir)) {
            if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
            const int fd = std::atoi(e->d_name);
            struct stat st {};
            if (fd == own || ::fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode)) continue;
            sockaddr_storage local{}, remote{};
            socklen_t llen = sizeof local, rlen = sizeof remote;
            if (::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &llen) != 0) continue;
            const int lport = local.ss_family == AF_INET    ? ntohs(reinterpret_cast<const sockaddr_in&>(local).sin_port)
                              : local.ss_family == AF_INET6 ? ntohs(reinterpret_cast<const sockaddr_in6&>(local).sin6_port)
                                                            : -1;
            if (lport != settings_.port) continue;
            std::string address;
            int rport = 0;
            // The listening socket has no peer.
            if (::getpeername(fd, reinterpret_cast<sockaddr*>(&remote), &rlen) != 0 || !numeric(remote, rlen, address, rport)) continue;
            out.push_back({fd, st.st_ino, tcp_bytes_received(fd), address, address + ":" + std::to_string(rport)});
        }
        ::closedir(dir);
        return out;
    }

    void run() {
        std::unique_lock<std::mutex> lock(mutex_);
        while (!finished_) {
            cv_.wait_for(lock, dropping_all_ ? std::chrono::milliseconds(20) : settings_.period);
            if (finished_) break;
            const Clock::time_point scanned = Clock::now();
            lock.unlock();
            const std::vector<Connection> now_open = connections();
            lock.lock();
            const bool counting = !dropping_all_;  // the stop's own are not counted
            for (const Connection& c : choose(now_open, scanned)) {
                struct stat st {};
                // The same socket still (not a number closed and reused meanwhile).
                if (::fstat(c.fd, &st) == 0 && st.st_ino == c.inode && ::shutdown(c.fd, SHUT_RDWR) == 0 && counting) ++cut_;
            }
        }
    }

    // Which connections to shut down; forgets the ones that have closed (a peer heard of since
    // the scan began, or in a wait, is kept). Under the lock.
    std::vector<Connection> choose(const std::vector<Connection>& open, Clock::time_point scanned) {
        const Clock::time_point now = Clock::now();
        if (dropping_all_) return open;
        std::map<ino_t, Seen> seen;
        std::map<std::string, bool> listed;
        for (const Connection& c : open) listed[c.peer] = true;
        for (auto p = peers_.begin(); p != peers_.end();) {
            if (!listed.count(p->first) && p->second.waiting <= 0 && p->second.since < scanned) p = peers_.erase(p);
            else ++p;
        }
        std::map<std::string, std::vector<std::pair<Clock::time_point, const Connection*>>> busy_of;
        std::vector<Connection> drop;
        for (const Connection& c : open) {
            const auto earlier = seen_.find(c.inode);
            Seen& mine = seen[c.inode] = earlier == seen_.end() ? Seen{now, 0, now} : earlier->second;
            Clock::time_point since = mine.first;
            Clock::duration grace{};
            const auto p = peers_.find(c.peer);
            // Refused on its head (close()): cut once the refusal has had time to go out. Cut at the
            // first look, a server thread that had not yet written it (a loaded machine) lost it.
            if (p != peers_.end() && p->second.closing) {
                if (now - p->second.since >= settings_.closing_grace) drop.push_back(c);
                continue;
            }
            // A reply written since the last look: the next request's bytes count from here.
            if (p != peers_.end() && p->second.since > mine.counted_from && c.received) {
                mine.sent_before = *c.received;
                mine.counted_from = p->second.since;
            }
            if (c.received && *c.received - std::min(*c.received, mine.sent_before) > settings_.request_bytes &&
                (p == peers_.end() || p->second.waiting <= 0)) {
                drop.push_back(c);
                continue;
            }
            if (p != peers_.end()) {
                if (p->second.waiting > 0) continue;
                since = std::max(since, p->second.since);
                grace = p->second.grace;
            }
            if (now - since > settings_.deadline + grace) drop.push_back(c);
            else if (!(settings_.loopback_uncapped && classroom::is_loopback(c.address))) busy_of[c.address].push_back({since, &c});
        }
        for (auto& [address, busy] : busy_of) {
            if (busy.size() <= settings_.per_address) continue;
            // The oldest first; seen in the same look, the smaller socket inode first (usually the
            // earlier socket, but the kernel hands inodes out in per-CPU batches).
            std::sort(busy.begin(), busy.end(), [](const auto& a, const auto& b) {
                return a.first != b.first ? a.first < b.first : a.second->inode < b.second->inode;
            });
            for (size_t i = 0; i < busy.size() - settings_.per_address; ++i) drop.push_back(*busy[i].second);
        }
        seen_.swap(seen);
        return drop;
    }

    Settings settings_;
    std::thread thread_;
    std::mutex mutex_;
    std::condition_variable cv_;
    struct Seen {
        Clock::time_point first;         // a connection's first sight: its first request's start
        uint64_t sent_before = 0;        // bytes it had sent before its current request
        Clock::time_point counted_from;  // the reply that request follows
    };
    std::map<ino_t, Seen> seen_;  // by the socket's inode
    std::map<std::string, Peer> peers_;              // by address:port, while the connection is open
    bool dropping_all_ = false;
    bool finished_ = false;
    std::atomic<size_t> cut_{0};
};

// A page holds one long poll at a time. A token's requests are rate-limited (ClassRoom), but
// within its burst one token could hold 40 waits, each a thread for long_poll_ms, and eight
// tokens of one address 313 at once (session 52): past `most` waits of one token, a state
// request is answered at once.
class WaitsPerToken {
public:
    explicit WaitsPerToken(int most) : most_(most) {}
    bool enter(const std::string& token) {
        std::lock_guard<std::mutex> lock(mutex_);
        int& n = waits_[token];
        if (n >= most_) return false;
        ++n;
        return true;
    }
    void leave(const std::string& token) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (--waits_[token] <= 0) waits_.erase(token);
    }

private:
    const int most_;
    std::mutex mutex_;
    std::map<std::string, int> waits_;
};

}  // namespace

struct ClassServer::Impl {
    httplib::Server server;
    std::thread thread;
    int listen_fd = -1;
    std::string shell;
    ConnectionWatch watch;
    std::unique_ptr<WaitsPerToken> waits;
};

ClassServer::ClassServer(classroom::ClassRoom& room, ServerOptions options)
    : room_(room), options_(std::move(options)), impl_(std::make_unique<Impl>()) {}

ClassServer::~ClassServer() { stop(); }

bool ClassServer::start(std::string& error) {
    Impl& s = *impl_;
    s.shell = live_shell_page();
    httplib::Server& svr = s.server;
    // One thread per connection being served: every student may hold a long poll, and
    // more serve the page, joins and answers meanwhile (and outlast a flood of idle ones).
    const size_t threads = std::max<size_t>(options_.max_threads, room_.limits().max_clients + 64);
    svr.new_task_queue = [threads] { return new ElasticPool(threads); };
    svr.set_payload_max_length(options_.max_body);
    svr.set_read_timeout(options_.read_timeout_s, 0);
    svr.set_write_timeout(5, 0);
    svr.set_keep_alive_timeout(options_.keep_alive_s);
    svr.set_tcp_nodelay(true);  // a state is one small write: no 40 ms wait for an ACK
    svr.set_keep_alive_max_count(10000);  // a page's next request on the same connection, when it comes at once
    const int defer_s = options_.defer_accept_s;
    svr.set_socket_options([&s, defer_s](socket_t fd) {
        int yes = 1;
        ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        // The kernel hands a connection over only once its first bytes are in (or the
        // deferral ends): a connection that sends nothing costs no thread meanwhile, and
        // a real client's request is there when httplib's short wait for it (keep_alive_s) starts.
        if (defer_s > 0) ::setsockopt(fd, IPPROTO_TCP, TCP_DEFER_ACCEPT, &defer_s, sizeof defer_s);
        s.listen_fd = fd;
    });
    svr.set_default_headers({
        {"Content-Security-Policy",
         "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
         "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"},
        {"X-Content-Type-Options", "nosniff"},
        {"Referrer-Policy", "no-referrer"},
        {"Cache-Control", "no-store"},
    });
    const size_t max_headers = options_.max_headers;
    ConnectionWatch& watch = s.watch;
    svr.set_pre_routing_handler([max_headers, &watch](const httplib::Request& req, httplib::Response& res) {
        if (req.headers.size() > max_headers) {
            reply(res, 431, {{"error", "too many headers"}});
            return httplib::Server::HandlerResponse::Handled;
        }
        // The body bound (max_body) holds only for a body whose length is announced: httplib 0.11 reads
        // a chunked one, or one sent until the connection closes, whole into memory. No page sends
        // either; refused before a byte of the body is read, and the connection is closed (what
        // follows on it is that body).
        const bool body_expected = req.method != "GET" && req.method != "HEAD" && req.method != "OPTIONS";  // httplib reads one for the rest
        if (req.has_header("Transfer-Encoding") || (body_expected && !req.has_header("Content-Length"))) {
            watch.close(req);
            reply(res, 411, {{"error", "a request's body needs a Content-Length (no chunked bodies)"}});
            return httplib::Server::HandlerResponse::Handled;
        }
        // Nor does the bound hold for a compressed body: httplib (built with zlib and brotli) inflates
        // it into memory with no bound, and 1 KiB of brotli inflates past gigabytes. No page compresses
        // what it sends.
        if (req.has_header("Content-Encoding") && req.get_header_value("Content-Encoding") != "identity") {
            watch.close(req);
            reply(res, 415, {{"error", "a request's body is sent uncompressed (no Content-Encoding)"}});
            return httplib::Server::HandlerResponse::Handled;
        }
        // No page needs a byte range, and the library builds a reply of every range asked for, overlaps and
        // all, in memory, whatever the reply: 2,700 ranges of handout.js made 138 MB a request, and 20 such
        // requests took the class past 4 GB (session 51). The ranges are dropped (HTTP lets a server ignore
        // them) and the whole reply is sent. The request object is the server's own, not const (httplib
        // hands it to this handler as const only by convention).
        const_cast<httplib::Request&>(req).ranges.clear();
        // Nor is a reply compressed: httplib would brotli every reply at its slowest setting, 95 ms of
        // CPU for handout.js, about 750 times the plain reply's cost, for anyone who asks (session 52).
        const_cast<httplib::Request&>(req).headers.erase("Accept-Encoding");
        return httplib::Server::HandlerResponse::Unhandled;
    });
    svr.set_post_routing_handler([&watch](const httplib::Request& req, httplib::Response& res) { watch.replying(req, res.body.size()); });
    svr.set_logger([&watch](const httplib::Request& req, const httplib::Response&) { watch.answered(req); });
    svr.set_error_handler([](const httplib::Request&, httplib::Response& res) {
        if (res.body.empty()) reply(res, res.status, {{"error", res.status == 404 ? "no such page" : "bad request"}});
    });
    svr.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
        reply(res, 500, {{"error", "internal error"}});
    });

    svr.Get("/", [&s](const httplib::Request&, httplib::Response& res) { res.set_content(s.shell, "text/html; charset=utf-8"); });
    svr.Get("/live.js", [](const httplib::Request&, httplib::Response& res) {
        res.set_content(std::string(live_script()), "text/javascript; charset=utf-8");
    });
    svr.Get("/handout.js", [](const httplib::Request&, httplib::Response& res) {
        res.set_content(std::string(handout_script()), "text/javascript; charset=utf-8");
    });
    classroom::ClassRoom& room = room_;
    svr.Post("/api/join", [&room](const httplib::Request& req, httplib::Response& res) {
        const auto body = nlohmann::json::parse(req.body, nullptr, false);
        const std::string code = body.is_object() && body.contains("code") && body["code"].is_string() ? body["code"].get<std::string>() : "";
        const auto j = room.join(code, req.remote_addr);
        if (j.status != Status::ok) return refuse(res, j.status);
        reply(res, 200, {{"token", j.token}, {"steps", room.steps()}});
    });
    svr.Get("/api/data", [&room](const httplib::Request& req, httplib::Response& res) {
        if (const Status st = room.admit(req.get_header_value("X-Token")); st != Status::ok) return refuse(res, st);
        res.set_content(room.student_data(), "application/json");
    });
    const int long_poll_ms = options_.long_poll_ms;
    s.waits = std::make_unique<WaitsPerToken>(std::max(1, options_.waits_per_token));
    WaitsPerToken& waits = *s.waits;
    svr.Get("/api/state", [&room, &watch, &waits, long_poll_ms](const httplib::Request& req, httplib::Response& res) {
        const std::string token = req.get_header_value("X-Token");
        if (const Status st = room.admit(token); st != Status::ok) return refuse(res, st);
        uint64_t since = 0;
        if (req.has_param("since")) {
            const std::string v = req.get_param_value("since");
            if (v.empty() || v.size() > 19 || v.find_first_not_of("0123456789") != std::string::npos)
                return reply(res, 400, {{"error", "since: a whole number"}});
            since = std::stoull(v);
        }
        if (since && waits.enter(token)) {
            watch.waiting(req, true);
            room.wait_change(since, std::chrono::milliseconds(long_poll_ms));
            watch.waiting(req, false);
            waits.leave(token);
        }
        reply(res, 200, room.state_for(token));
    });
    svr.Post("/api/answer", [&room](const httplib::Request& req, httplib::Response& res) {
        const auto body = nlohmann::json::parse(req.body, nullptr, false);
        // A step as a JSON integer that an int holds (4294967296 was read as step 0).
        if (!body.is_object() || !body.contains("step") || !body["step"].is_number_integer() ||
            body["step"].get<int64_t>() < 0 || body["step"].get<int64_t>() > INT32_MAX || !body.contains("value") ||
            !(body["value"].is_string() || body["value"].is_number()))
            return reply(res, 400, {{"error", "an answer is {\"step\": N, \"value\": \"NUMBER\"}"}});
        const std::string value = body["value"].is_string() ? body["value"].get<std::string>() : body["value"].dump();
        const Status st = room.answer(req.get_header_value("X-Token"), body["step"].get<int>(), value);
        if (st != Status::ok) return refuse(res, st);
        reply(res, 200, {{"ok", true}});
    });

    const int bound = options_.port == 0 ? svr.bind_to_any_port(options_.host) : (svr.bind_to_port(options_.host, options_.port) ? options_.port : -1);
    if (bound < 0) {
        error = "cannot listen on " + options_.host + ":" + std::to_string(options_.port) + " (in use, or not an address of this machine)";
        return false;
    }
    port_ = bound;
    // httplib's own backlog is 5; a room opens its pages together (listen again to raise it).
    if (s.listen_fd >= 0) ::listen(s.listen_fd, options_.backlog);
    ConnectionWatch::Settings ws;
    ws.port = bound;
    ws.deadline = std::chrono::milliseconds(options_.request_deadline_ms);
    ws.per_address = options_.busy_per_address ? options_.busy_per_address : 4 * room_.limits().tokens_per_address;
    ws.loopback_uncapped = room_.limits().loopback_uncapped;
    ws.reply_rate = std::max(1.0, options_.reply_rate);
    ws.request_bytes = std::max<uint64_t>(4096, options_.request_bytes);
    ws.period = std::chrono::milliseconds(std::max(10, options_.watch_period_ms));
    s.watch.start(ws);
    s.thread = std::thread([&svr] { svr.listen_after_bind(); });
    return true;
}

size_t ClassServer::connections_cut() const { return impl_ ? impl_->watch.cut() : 0; }

std::string connections_cut_line(size_t cut, const ServerOptions& o) {
    if (cut == 0) return {};
    char deadline[32];
    std::snprintf(deadline, sizeof deadline, "%g", o.request_deadline_ms / 1000.0);
    return std::to_string(cut) + (cut == 1 ? " connection" : " connections") + " closed by the class for slowness (a request past " +
           deadline + " s), for size (a request past " + std::to_string(o.request_bytes / 1024) +
           " KiB) or for numbers (too many busy at once from one address): " +
           "a device on a bad link, or someone attacking the class";
}

void ClassServer::stop() {
    if (!impl_) return;
    room_.close();            // waiting students are answered
    impl_->watch.drop_all();  // and every connection is shut down: no client, however slow, holds the stop
    impl_->server.stop();
    if (impl_->thread.joinable()) impl_->thread.join();
    impl_->watch.finish();
}

std::string room_address() {
    ifaddrs* list = nullptr;
    if (getifaddrs(&list) != 0) return "127.0.0.1";
    std::string found = "127.0.0.1";
    for (const ifaddrs* i = list; i; i = i->ifa_next) {
        if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET) continue;
        if (!(i->ifa_flags & IFF_UP) || (i->ifa_flags & IFF_LOOPBACK)) continue;
        char text[INET_ADDRSTRLEN] = {};
        if (inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(i->ifa_addr)->sin_addr, text, sizeof text)) {
            found = text;
            break;
        }
    }
    freeifaddrs(list);
    return found;
}

std::string ClassServer::url(const std::string& shown_host) const {
    std::string host = shown_host.empty() ? options_.host : shown_host;
    // Listening on every address: the link (and its QR code) names one the room can reach.
    if (host == "0.0.0.0" || host.empty()) host = room_address();
    return "http://" + host + ":" + std::to_string(port_) + "/#code=" + room_.code();
}

ServerOptions parse_listen(const std::string& text, const std::string& option) {
    ServerOptions o;
    const std::string accepted = "; accepted: ADDR:PORT with an IPv4 address and a port 0-65535 (0: any free one; e.g. 0.0.0.0:8080), or PORT";
    const size_t colon = text.rfind(':');
    const std::string host = colon == std::string::npos ? "127.0.0.1" : text.substr(0, colon);
    const std::string port = colon == std::string::npos ? text : text.substr(colon + 1);
    if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos || std::stoi(port) > 65535)
        throw InputError(option + " " + text.substr(0, 80) + ": no port" + accepted);
    int parts = 0;
    size_t at = 0;
    bool ok = !host.empty();
    while (ok && at <= host.size()) {
        const size_t dot = host.find('.', at);
        const std::string p = host.substr(at, dot == std::string::npos ? std::string::npos : dot - at);
        ok = !p.empty() && p.size() <= 3 && p.find_first_not_of("0123456789") == std::string::npos && std::stoi(p) <= 255;
        ++parts;
        if (dot == std::string::npos) break;
        at = dot + 1;
    }
    if (!ok || parts != 4) throw InputError(option + " " + text.substr(0, 80) + ": not an IPv4 address" + accepted);
    o.host = host;
    o.port = std::stoi(port);
    return o;
}

std::vector<std::vector<bool>> qr_modules(const std::string& text) {
    QRcode* q = QRcode_encodeString(text.c_str(), 0, QR_ECLEVEL_M, QR_MODE_8, 1);
    if (!q) throw std::runtime_error("cannot make a QR code of the class's URL");
    const int quiet = 4, w = q->width, n = w + 2 * quiet;
    std::vector<std::vector<bool>> rows(size_t(n), std::vector<bool>(size_t(n), false));
    for (int y = 0; y < w; ++y)
        for (int x = 0; x < w; ++x) rows[size_t(y + quiet)][size_t(x + quiet)] = q->data[y * w + x] & 1;
    QRcode_free(q);
    return rows;
}

std::string qr_terminal(const std::string& text, bool ansi) {
    const auto m = qr_modules(text);
    std::string out;
    const size_t n = m.size();
    for (size_t y = 0; y < n; y += 2) {
        for (size_t x = 0; x < n; ++x) {
            const bool top = m[y][x], bottom = y + 1 < n ? m[y + 1][x] : false;
            if (ansi) {
                // Upper half block: foreground is the top module, background the bottom one.
                out += std::string("\033[") + (top ? "30" : "97") + ";" + (bottom ? "40" : "107") + "m\u2580";
            } else {
                // Light modules drawn: a dark terminal shows dark modules as its background.
                out += !top && !bottom ? "\u2588" : !top ? "\u2580" : !bottom ? "\u2584" : " ";
            }
        }
        out += ansi ? "\033[0m\n" : "\n";
    }
    return out;
}

}  // namespace tilescope::net
