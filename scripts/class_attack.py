#!/usr/bin/env python3
"""Class mode attacked by one address of the room (session 52). Two attacks:

slow   SLOW connections (default 1300) from this machine's room address (not loopback, so the
       per-address rules apply as they would to a laptop in the room), each sending a request's
       head one byte every TRICKLE s (default 1; each read well inside the server's read
       timeout). Meanwhile a student joins every second from that address and from loopback,
       for HOLD s (default 30); the script counts the slow connections the server closed, and
       when; then it sends `q`, the attack going on, and times how long the class takes to
       close (QUIT_WAIT, default 120 s, at most).
polls  TOKENS students (default 8) join from the room address and each opens POLLS long polls
       (default 60; `/api/state?since=SEQ`, nothing changing) at once. A second later it counts
       what became of them: still waiting (each holds a server thread for the poll's 15 s),
       answered 200 at once, or refused 429 (the token's rate limit); then a new student joins.
headers CONNS connections (default 8) each send header lines of 8 KB as fast as they can for
       SECS s (default 6); the class's peak memory (RSS) and how many connections it cut.
brotli BOMBS requests (default 4) at once, each a 809-byte brotli body (Content-Encoding: br,
       made with libbrotlienc) that inflates to 1 GiB; the class's peak memory and the replies.

Usage: scripts/class_attack.py slow|polls|headers|brotli [path/to/tilescope]  (one JSON object;
it measures, it does not judge: exit 0 whatever it found)
"""
import json
import os
import re
import resource
import socket
import subprocess
import sys
import threading
import time
import urllib.request

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODES = ("slow", "polls", "headers", "brotli")
if len(sys.argv) < 2 or sys.argv[1] not in MODES:
    sys.exit("usage: scripts/class_attack.py slow|polls|headers|brotli [path/to/tilescope]")
mode = sys.argv[1]
exe = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "build", "tilescope")
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

# The class, on every address; its link names the room address.
proc = subprocess.Popen([exe, "class", "--lesson", os.path.join(root, "assets", "lessons", "2_tiling_4x4.json"),
                         "--listen", "0.0.0.0:0"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                        stderr=subprocess.STDOUT, text=True)
url = None
for line in proc.stdout:
    m = re.search(r"open:\s+(http://\S+)", line)
    if m:
        url = m.group(1)
        break
if not url:
    print(json.dumps({"error": "the class did not start"}))
    proc.kill()
    sys.exit(1)
host, port = re.search(r"http://([^:/]+):(\d+)/", url).groups()
port = int(port)
code = re.search(r"code=(\w+)", url).group(1)


def quit_class(wait_s):
    """Sends q; the seconds until the class closed, or a sentence if it did not."""
    t = time.time()
    proc.stdin.write("q")
    proc.stdin.flush()
    try:
        proc.wait(timeout=wait_s)
        return round(time.time() - t, 2)
    except subprocess.TimeoutExpired:
        proc.kill()
        return "still open after %d s (killed)" % wait_s


def join(addr):
    """A student's join from `addr`: (milliseconds, HTTP status or the error's name)."""
    t = time.time()
    req = urllib.request.Request("http://%s:%d/api/join" % (addr, port), data=json.dumps({"code": code}).encode(),
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            r.read()
            status = r.status
    except Exception as e:  # a refusal (429 past the tokens an address may hold) is still an answer
        status = getattr(e, "code", None) or type(e).__name__
    return round((time.time() - t) * 1000, 1), status


def slow_attack():
    slow_n = int(os.environ.get("SLOW", "1300"))
    hold = float(os.environ.get("HOLD", "30"))
    trickle = float(os.environ.get("TRICKLE", "1"))
    quit_wait = int(os.environ.get("QUIT_WAIT", "120"))
    slow = []  # [socket, seconds after the start when the server closed it, or None]
    for _ in range(slow_n):
        s = socket.socket()
        s.settimeout(5)
        try:
            s.connect((host, port))
            s.send(b"GET / HTTP/1.1\r\n")
            s.setblocking(False)
            slow.append([s, None])
        except OSError:
            s.close()
    opened = time.time()
    stop = threading.Event()

    def trickle_all():  # on its own thread, so that a join that waits does not pause the attack
        while not stop.is_set():
            for c in slow:
                if c[1] is not None:
                    continue
                try:
                    if c[0].recv(1, socket.MSG_DONTWAIT) == b"":
                        c[1] = time.time() - opened
                        continue
                except BlockingIOError:
                    pass
                except OSError:
                    c[1] = time.time() - opened
                    continue
                try:
                    c[0].send(b"X")
                except OSError:
                    c[1] = time.time() - opened
            time.sleep(trickle)

    attacker = threading.Thread(target=trickle_all)
    attacker.start()
    joins_room, joins_local = [], []
    while time.time() - opened < hold:
        joins_room.append(join(host))
        joins_local.append(join("127.0.0.1"))
        time.sleep(1)
    closed = sorted(c[1] for c in slow if c[1] is not None)
    quit_s = quit_class(quit_wait)  # the attack goes on while the class closes
    stop.set()
    attacker.join()
    for c in slow:
        c[0].close()
    lat = [j[0] for j in joins_room]
    return {"slow_opened": len(slow), "hold_s": hold, "trickle_s": trickle, "slow_closed_by_server": len(closed),
            "closed_at_s": {"first": closed[0] if closed else None, "median": closed[len(closed) // 2] if closed else None,
                            "last": closed[-1] if closed else None},
            "joins_from_room_address_ms_status": joins_room, "joins_from_loopback_ms_status": joins_local,
            "worst_join_from_room_address_ms": max(lat) if lat else None, "quit_s": quit_s}


def api(path, token=None, body=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["X-Token"] = token
    req = urllib.request.Request("http://%s:%d%s" % (host, port, path), headers=headers,
                                 data=json.dumps(body).encode() if body is not None else None)
    with urllib.request.urlopen(req, timeout=20) as r:
        return json.loads(r.read())


def poll_attack():
    tokens_n = int(os.environ.get("TOKENS", "8"))
    polls_n = int(os.environ.get("POLLS", "60"))
    tokens = [api("/api/join", body={"code": code})["token"] for _ in range(tokens_n)]
    seq = api("/api/state", tokens[0])["seq"]
    socks = []
    for token in tokens:
        for _ in range(polls_n):
            s = socket.create_connection((host, port))
            s.send(("GET /api/state?since=%d HTTP/1.1\r\nHost: x\r\nX-Token: %s\r\n\r\n" % (seq, token)).encode())
            socks.append(s)
    time.sleep(1)
    outcome = {}
    for s in socks:
        s.setblocking(False)
        try:
            d = s.recv(100)
            what = d[9:12].decode() if d else "closed"
        except BlockingIOError:
            what = "waiting"
        outcome[what] = outcome.get(what, 0) + 1
    joined = join("127.0.0.1")  # the room address holds its tokens already
    quit_s = quit_class(60)
    for s in socks:
        s.close()
    return {"tokens": tokens_n, "polls_per_token": polls_n, "after_1_s": outcome,
            "a_new_student_joined_in_ms_status": joined, "quit_s": quit_s}


def rss_mb():
    with open("/proc/%d/status" % proc.pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0


def watch_rss(threads, secs):
    """The class's peak RSS (MB) while `threads` run, at most `secs`."""
    peak, t0 = rss_mb(), time.time()
    while any(t.is_alive() for t in threads) and time.time() - t0 < secs:
        peak = max(peak, rss_mb())
        time.sleep(0.1)
    return round(peak, 1)


def headers_attack():
    conns, secs = int(os.environ.get("CONNS", "8")), float(os.environ.get("SECS", "6"))
    before = rss_mb()
    stop, sent, cut = threading.Event(), [0] * conns, [None] * conns
    t0 = time.time()

    def flood(i):
        s = socket.create_connection((host, port))
        block = (b"X-A: " + b"a" * 7993 + b"\r\n") * 64
        try:
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            while not stop.is_set() and time.time() - t0 < secs:
                s.sendall(block)
                sent[i] += len(block)
        except OSError:
            cut[i] = round(time.time() - t0, 2)
        s.close()

    threads = [threading.Thread(target=flood, args=(i,), daemon=True) for i in range(conns)]
    for t in threads:
        t.start()
    peak = watch_rss(threads, secs + 1)
    stop.set()
    return {"connections": conns, "seconds": secs, "sent_mb": round(sum(sent) / 1e6, 1), "rss_before_mb": round(before, 1),
            "rss_peak_mb": peak, "cut_at_s": cut, "a_new_student_joined_in_ms_status": join("127.0.0.1"), "quit_s": quit_class(60)}


def brotli_body(mib):
    """`mib` MiB of spaces as a brotli stream, through libbrotlienc's one-shot call at quality 5."""
    import ctypes
    lib = ctypes.CDLL("libbrotlienc.so.1")
    lib.BrotliEncoderMaxCompressedSize.restype = ctypes.c_size_t
    lib.BrotliEncoderCompress.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_size_t, ctypes.c_char_p,
                                          ctypes.POINTER(ctypes.c_size_t), ctypes.c_char_p]
    data = b" " * (mib << 20)
    out = ctypes.create_string_buffer(lib.BrotliEncoderMaxCompressedSize(ctypes.c_size_t(len(data))) or (1 << 20))
    size = ctypes.c_size_t(len(out))
    if not lib.BrotliEncoderCompress(5, 24, 0, len(data), data, ctypes.byref(size), out):
        sys.exit("libbrotlienc could not compress")
    return out.raw[:size.value]


def brotli_attack():
    bombs = int(os.environ.get("BOMBS", "4"))
    body = brotli_body(1024)
    before, replies = rss_mb(), []

    def send():
        s = socket.create_connection((host, port))
        s.sendall(b"POST /api/join HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Encoding: br\r\n"
                  b"Content-Length: %d\r\n\r\n" % len(body) + body)
        s.settimeout(40)
        try:
            replies.append(s.recv(200)[9:12].decode() or "closed")
        except OSError as e:
            replies.append(type(e).__name__)
        s.close()

    threads = [threading.Thread(target=send, daemon=True) for _ in range(bombs)]
    for t in threads:
        t.start()
    peak = watch_rss(threads, 45)
    return {"bombs": bombs, "body_bytes": len(body), "inflates_to_mib": 1024, "rss_before_mb": round(before, 1),
            "rss_peak_mb": peak, "replies": replies, "a_new_student_joined_in_ms_status": join("127.0.0.1"),
            "quit_s": quit_class(60)}


result = {"slow": slow_attack, "polls": poll_attack, "headers": headers_attack, "brotli": brotli_attack}[mode]()
print(json.dumps(dict({"tilescope": exe, "attack": mode, "room_address": host}, **result), indent=1))
