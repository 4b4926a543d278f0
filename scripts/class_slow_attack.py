#!/usr/bin/env python3
"""Class mode against slow clients (the slowloris attack; session 52).

Starts `tilescope class` on 0.0.0.0, opens SLOW connections from this machine's room address
(not loopback, so the per-address rules apply as they would to a laptop in the room), each
sending a request's head one byte every TRICKLE seconds (each read well inside the server's
read timeout), and meanwhile:
  - times a student's join from the same address and from loopback, every second, for HOLD s;
  - counts the slow connections the server has closed, and when;
  - then sends `q`, the attack going on, and times how long the class takes to close.
Usage: scripts/class_slow_attack.py [path/to/tilescope] (env SLOW=1300 HOLD=30 TRICKLE=1 QUIT_WAIT=120)
Prints one JSON object; exit 0 whatever it measured (it is a measurement, not a test).
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
exe = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build", "tilescope")
slow_n = int(os.environ.get("SLOW", "1300"))
hold = float(os.environ.get("HOLD", "30"))
trickle = float(os.environ.get("TRICKLE", "1"))
QUIT_WAIT = int(os.environ.get("QUIT_WAIT", "120"))
lesson = os.path.join(root, "assets", "lessons", "2_tiling_4x4.json")

soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

proc = subprocess.Popen([exe, "class", "--lesson", lesson, "--listen", "0.0.0.0:0"], stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
url = None
start = time.time()
while time.time() - start < 120:
    line = proc.stdout.readline()
    if not line:
        break
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


def join(addr):
    t = time.time()
    req = urllib.request.Request("http://%s:%d/api/join" % (addr, port), data=json.dumps({"code": code}).encode(),
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            r.read()
            status = r.status
    except Exception as e:  # a refusal (429 past the tokens an address may hold) still answered
        status = getattr(e, "code", None) or type(e).__name__
    return round((time.time() - t) * 1000, 1), status


slow = []
for i in range(slow_n):
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
stop = False


def trickle_all():  # on its own thread, so a join that waits does not pause the attack
    while not stop:
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
t = time.time()
proc.stdin.write("q")  # the attack goes on while the class closes
proc.stdin.flush()
try:
    proc.wait(timeout=QUIT_WAIT)
    quit_s = round(time.time() - t, 2)
except subprocess.TimeoutExpired:
    quit_s = "still open after %d s (killed)" % QUIT_WAIT
    proc.kill()
stop = True
attacker.join()
for c in slow:
    c[0].close()
lat = [j[0] for j in joins_room]
print(json.dumps({
    "tilescope": exe, "room_address": host, "slow_opened": len(slow), "hold_s": hold, "trickle_s": trickle,
    "slow_closed_by_server": len(closed), "closed_at_s": {"first": closed[0] if closed else None,
                                                        "median": closed[len(closed) // 2] if closed else None,
                                                        "last": closed[-1] if closed else None},
    "joins_from_room_address_ms_status": joins_room, "joins_from_loopback_ms_status": joins_local,
    "worst_join_from_room_address_ms": max(lat) if lat else None, "quit_s": quit_s}, indent=1))
