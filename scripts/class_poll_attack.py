#!/usr/bin/env python3
"""Class mode against one address holding many long polls (session 52).

Starts `tilescope class` on 0.0.0.0, joins TOKENS students from this machine's room address,
and opens POLLS long polls (`/api/state?since=SEQ`, nothing changing) with each token at once.
A second later it counts what became of them: still waiting (each holds a server thread for the
poll's 15 s), answered 200 at once, or refused 429 (the token's rate limit).
Usage: scripts/class_poll_attack.py [path/to/tilescope] (env TOKENS=8 POLLS=60)
Prints one JSON object.
"""
import json
import os
import re
import resource
import socket
import subprocess
import sys
import time
import urllib.request

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
exe = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build", "tilescope")
tokens_n = int(os.environ.get("TOKENS", "8"))
polls_n = int(os.environ.get("POLLS", "60"))
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

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
    sys.exit(1)
host, port = re.search(r"http://([^:/]+):(\d+)/", url).groups()
port = int(port)
code = re.search(r"code=(\w+)", url).group(1)


def api(path, token=None, body=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["X-Token"] = token
    req = urllib.request.Request("http://%s:%d%s" % (host, port, path), headers=headers,
                                 data=json.dumps(body).encode() if body is not None else None)
    with urllib.request.urlopen(req, timeout=20) as r:
        return json.loads(r.read())


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
t = time.time()
req = urllib.request.Request("http://127.0.0.1:%d/api/join" % port, data=json.dumps({"code": code}).encode(),
                             headers={"Content-Type": "application/json"})
with urllib.request.urlopen(req, timeout=30) as r:
    r.read()
join_ms = round((time.time() - t) * 1000, 1)
proc.stdin.write("q")
proc.stdin.flush()
proc.wait(timeout=60)
for s in socks:
    s.close()
print(json.dumps({"tilescope": exe, "room_address": host, "tokens": tokens_n, "polls_per_token": polls_n,
                  "after_1_s": outcome, "a_new_student_joined_in_ms": join_ms}))
