#!/usr/bin/env bash
# How long a student waits for the first picture (issue 12): starts
# `tilescope gui --kernel tiled --size 256 --tile 16 --timings` RUNS times (default 3) on
# an Xvfb of its own, reads when work-group (0,0)'s phase 0 was first drawn (seconds since
# the process started, from the GUI's own --timings line), closes the window, and prints
# each time and the median.
# usage: scripts/bench_first_picture.sh [RUNS] [gui options...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${TILESCOPE_BIN:-$root/build/tilescope}"
runs="${1:-3}"; shift || true
opts=("$@"); [ ${#opts[@]} -eq 0 ] && opts=(--kernel tiled --size 256 --tile 16)
command -v Xvfb >/dev/null || { echo "bench_first_picture: Xvfb is missing (scripts/setup.sh installs it)" >&2; exit 2; }
[ -x "$bin" ] || { echo "bench_first_picture: $bin is not built (scripts/build.sh)" >&2; exit 2; }
work="$(mktemp -d)"; xpid=""; gpid=""
cleanup() { [ -n "$gpid" ] && kill "$gpid" 2>/dev/null; [ -n "$xpid" ] && kill "$xpid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
trap 'echo "bench_first_picture: cancelled" >&2; exit 130' INT TERM
for d in $(seq 150 199); do
  [ -e "/tmp/.X$d-lock" ] || [ -e "/tmp/.X11-unix/X$d" ] && continue
  Xvfb ":$d" -screen 0 1920x1080x24 -nolisten tcp -noreset >/dev/null 2>&1 & xpid=$!
  for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$d" ] && break; sleep 0.1; done
  [ -e "/tmp/.X11-unix/X$d" ] && { export DISPLAY=":$d"; break; }
  kill "$xpid" 2>/dev/null; xpid=""
done
[ -n "$xpid" ] || { echo "bench_first_picture: no free display for Xvfb" >&2; exit 2; }
echo "cpu: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "gui ${opts[*]}"
times=()
for i in $(seq "$runs"); do
  log="$work/gui$i.log"
  XDG_CONFIG_HOME="$work/config" "$bin" gui "${opts[@]}" --window 1280x720 --timings --control "$work/control" >"$log" 2>&1 & gpid=$!
  line=""
  for _ in $(seq 3000); do  # at most 300 s
    line="$(grep -m1 '^timing: first picture' "$log" || true)"
    [ -n "$line" ] && break
    kill -0 "$gpid" 2>/dev/null || break
    sleep 0.1
  done
  [ -n "$line" ] || { echo "bench_first_picture: run $i drew no picture; its log:" >&2; cat "$log" >&2; exit 1; }
  echo "run $i: ${line#timing: }"
  times+=("$(sed -E 's/.* drawn ([0-9.]+) s after start.*/\1/' <<<"$line")")
  echo quit >"$work/control.tmp"; mv "$work/control.tmp" "$work/control"
  wait "$gpid" || true; gpid=""
done
median="$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}')"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "first picture: median of $runs: $median s after start (${times[*]})"
