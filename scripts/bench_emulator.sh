#!/usr/bin/env bash
# The emulator's own cost (issue 3): for each size, the same tiled launch on Oclgrind bare
# and traced, checks off, REPS times interleaved; the minimum wall seconds of the launch
# and the minimum CPU seconds of the whole call (steadier when the machine is shared);
# then traced with the default checks for peak resident memory.
#   scripts/bench_emulator.sh [SIZES...]      (default: 64 128 256; TILE=16 REPS=3)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bench="${TILESCOPE_BUILD_DIR:-$root/build}/tests/trace_bench"
[ -x "$bench" ] || { echo "bench_emulator: build first ($bench is missing)" >&2; exit 1; }
tile="${TILE:-16}"
reps="${REPS:-3}"
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(64 128 256)
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
printf "%-6s %-5s %9s %9s %6s %9s %9s %6s %11s %13s\n" size tile "bare s" "trace s" ratio "bare cpu" "trace cpu" ratio "MB (off)" "MB (checks)"
min() { awk -v a="$1" -v m="$2" 'BEGIN{print (m=="" || a<m) ? a : m}'; }
for s in "${sizes[@]}"; do
  bw="" tw="" bc="" tc="" rss_off=0
  for _ in $(seq "$reps"); do
    b=$("$bench" tiled "$s" "$tile" --bare --no-checks)
    t=$("$bench" tiled "$s" "$tile" --no-checks)
    bw=$(min "$(echo "$b" | field seconds)" "$bw"); bc=$(min "$(echo "$b" | field cpu_s)" "$bc")
    tw=$(min "$(echo "$t" | field seconds)" "$tw"); tc=$(min "$(echo "$t" | field cpu_s)" "$tc")
    r=$(echo "$t" | field maxrss_mb)
    [ "$r" -gt "$rss_off" ] && rss_off=$r
  done
  rss_checks=$("$bench" tiled "$s" "$tile" | field maxrss_mb)
  printf "%-6s %-5s %9s %9s %6s %9s %9s %6s %11s %13s\n" "$s" "$tile" "$bw" "$tw" \
    "$(awk -v t="$tw" -v b="$bw" 'BEGIN{printf "%.2f", t/b}')" "$bc" "$tc" \
    "$(awk -v t="$tc" -v b="$bc" 'BEGIN{printf "%.2f", t/b}')" "$rss_off" "$rss_checks"
done
