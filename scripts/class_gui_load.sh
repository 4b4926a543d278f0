#!/bin/bash
# GUI frame time while its class serves 300 simulated students (issue 34 item 5).
cd "$(dirname "$0")/.."
F=/tmp/gl_ctl; rm -f $F /tmp/gl_out.txt
XDG_CONFIG_HOME=$(mktemp -d) xvfb-run -a build/tilescope gui --lesson assets/lessons/2_tiling_4x4.json --control $F --frames ${FRAMES:-60000} --frame-stats > /tmp/gl_out.txt 2>&1 &
G=$!
sleep 2
echo "class 127.0.0.1:0" > $F.tmp; mv $F.tmp $F
for i in $(seq 1 100); do grep -q "class: open" /tmp/gl_out.txt && break; sleep 0.1; done
URL=$(grep -o "http://[^ ]*" /tmp/gl_out.txt | head -1)
echo "url $URL at $(date +%T.%N)"
build/tilescope class --bench --join "$URL" --students 300 --seconds 15 > /tmp/gl_bench.txt 2>&1 &
B=$!
for s in 1 2 3 0 1 2 3 0 1 2; do sleep 1.2; echo "lesson-step $s" > $F.tmp; mv $F.tmp $F; [ $s = 2 ] && { sleep 0.3; echo reveal > $F.tmp; mv $F.tmp $F; }; done
wait $B
echo "load done at $(date +%T.%N)"; cat /tmp/gl_bench.txt
echo quit > $F.tmp; mv $F.tmp $F
wait $G
echo "gui done at $(date +%T.%N)"; grep -E "frames=|class" /tmp/gl_out.txt
