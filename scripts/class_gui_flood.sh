#!/bin/bash
# The GUI's frame time while its class is flooded with idle connections (issue 34 item 4),
# and how long a new student's join takes meanwhile. FLOOD (default 10000) connections are
# opened at once from another process and held for HOLD seconds (default 10); the GUI's
# frames are timed throughout (--frame-stats: p50/p95/max of every frame drawn).
# Usage: [TILESCOPE=path/to/tilescope] scripts/class_gui_flood.sh   (needs xvfb-run; prints
# the join times and frames=...)
cd "$(dirname "$0")/.."
FLOOD=${FLOOD:-10000} HOLD=${HOLD:-10} T=${TILESCOPE:-build/tilescope}
D=$(mktemp -d); F=$D/ctl
XDG_CONFIG_HOME=$D xvfb-run -a $T gui --lesson assets/lessons/2_tiling_4x4.json --control $F --frames ${FRAMES:-60000} --frame-stats > $D/out.txt 2>&1 &
G=$!
sleep 2
echo "class 127.0.0.1:0" > $F.tmp; mv $F.tmp $F
for i in $(seq 1 300); do grep -q "class: open" $D/out.txt && break; sleep 0.1; done
URL=$(grep -o "http://[^ ]*" $D/out.txt | head -1)
echo "url $URL"
/usr/bin/python3 - "$URL" "$FLOOD" "$HOLD" <<'PY'
import json, re, resource, socket, sys, time, urllib.request
url, flood, hold = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
port, code = int(re.search(r':(\d+)/', url).group(1)), re.search(r'code=(\w+)', url).group(1)
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
def join():
    t = time.time()
    req = urllib.request.Request('http://127.0.0.1:%d/api/join' % port, data=json.dumps({'code': code}).encode(),
                                 headers={'Content-Type': 'application/json'})
    with urllib.request.urlopen(req, timeout=60) as r:
        r.read()
    return (time.time() - t) * 1000
print('join before the flood: %.0f ms' % join())
socks = []
t0 = time.time()
for i in range(flood):
    s = socket.socket(); s.setblocking(False)
    try:
        s.connect(('127.0.0.1', port))
    except BlockingIOError:
        pass
    except OSError:
        break
    socks.append(s)
print('%d idle connections opened in %.0f ms' % (len(socks), (time.time() - t0) * 1000))
time.sleep(0.2)
joins = [join()]
while time.time() - t0 < hold:
    time.sleep(1)
    joins.append(join())
print('joins during the flood (ms): ' + ' '.join('%.0f' % j for j in joins) + '; worst %.0f ms' % max(joins))
for s in socks:
    s.close()
PY
echo quit > $F.tmp; mv $F.tmp $F
wait $G
grep -E "frames=" $D/out.txt
rm -rf $D
