#pragma once
// Class mode's web server (issue 34): cpp-httplib (Debian's libcpp-httplib-dev) at the edge
// of core/classroom. It serves the embedded student page, the lesson's frame data and the
// class's state, and takes joins and answers; nothing else (no file of this machine). The
// rules (code, tokens, one answer per step, rate limits, max clients) are ClassRoom's; the
// bounds of HTTP itself (body and header sizes, timeouts, threads) are here.
#include <cstdint>
#include <memory>
#include <string>

#include "core/classroom/class_room.h"

namespace tilescope::net {

struct ServerOptions {
    std::string host = "127.0.0.1";  // the room is opened by naming an address (0.0.0.0)
    int port = 8080;                 // 0: any free port
    size_t max_body = 1024;          // bytes of a request's body (a join or an answer)
    size_t max_headers = 64;         // headers of one request
    int read_timeout_s = 2;          // a client slower than this to send its request is dropped
    // A connection with no request waiting is closed: at once (0: httplib 0.11 waits about
    // 10 ms, and counts only whole seconds), before its first request as between requests.
    // httplib serves a connection on one thread from accept() to close, so a flood of idle
    // connections held for 1 s each queued new students for seconds (issue 34: 10,000 at
    // once kept a join out 4.8-11.7 s). A browser opens a new connection when it finds one closed.
    int keep_alive_s = 0;
    int defer_accept_s = 2;          // TCP_DEFER_ACCEPT: connections are accepted once their first bytes are in
    size_t max_threads = 1024;       // threads serving connections, at most (at least max_clients + 64)
    int long_poll_ms = 15000;        // a student's state request waits this long for a change
    int waits_per_token = 2;         // ...while fewer of the same token's wait (a page holds one); else answered at once
    // One request (its head, its body, its reply; not a long poll's wait) may take this long,
    // whatever each read does: past it the connection is shut down (a header byte a second).
    // A reply is given its size at reply_rate more (the lesson's data, 3 MB, at 16 KiB/s: 190 s).
    int request_deadline_ms = 20000;
    double reply_rate = 16 * 1024;   // bytes a second
    // Bytes a connection may send for one request (its head and body): past them it is shut down.
    uint64_t request_bytes = 64 * 1024;
    int watch_period_ms = 250;       // how often the connections are looked at for those bounds
    // Connections of one address busy on a request at once; past it the oldest are shut down.
    // 0: four for each token an address may hold (Limits::tokens_per_address).
    size_t busy_per_address = 0;
    int backlog = 1024;              // connections waiting to be accepted
};

class ClassServer {
public:
    ClassServer(classroom::ClassRoom& room, ServerOptions options);
    ~ClassServer();  // stops
    ClassServer(const ClassServer&) = delete;
    ClassServer& operator=(const ClassServer&) = delete;

    // Binds and starts serving on threads of its own; false with `error` set if the address
    // cannot be bound.
    bool start(std::string& error);
    int port() const { return port_; }
    const ServerOptions& options() const { return options_; }
    // Closes the class (waiting students are answered), stops accepting, shuts every
    // connection down and joins every thread: nothing is left listening when it returns, and
    // no client, however slow, delays it.
    void stop();
    // Connections closed for being too slow or too many from one address, so far.
    size_t connections_cut() const;
    // The URL a student opens (with the join code, so a QR code is all it takes).
    std::string url(const std::string& shown_host = {}) const;

private:
    struct Impl;
    classroom::ClassRoom& room_;
    ServerOptions options_;
    int port_ = 0;
    std::unique_ptr<Impl> impl_;
};

// What the instructor is told of connections_cut() (nothing while it is 0).
std::string connections_cut_line(size_t cut, const ServerOptions& options);

// Parses ADDR:PORT (a port alone means 127.0.0.1:PORT); throws InputError naming what is accepted.
// This machine's first IPv4 address that is up and not loopback (127.0.0.1 when it has
// none): what a link names when the class listens on 0.0.0.0.
std::string room_address();

ServerOptions parse_listen(const std::string& text, const std::string& option = "--listen");

// A QR code of `text` as rows of modules (true: dark), with the 4-module quiet zone.
std::vector<std::vector<bool>> qr_modules(const std::string& text);
// The QR code for a terminal: half blocks, two modules a character cell; `ansi` paints the
// colours explicitly (dark on white, whatever the terminal's theme), else light modules are
// drawn as blocks (for a dark terminal).
std::string qr_terminal(const std::string& text, bool ansi);

}  // namespace tilescope::net
