#!/usr/bin/env bash
# The emulator's own cost (issue 3): for each size, the same tiled launch on Oclgrind bare
# and traced, checks off, REPS times interleaved (minimum seconds: the machine may be
# shared), then traced with the default checks for peak resident memory.
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
printf "%-6s %-5s %12s %12s %7s %16s %18s\n" size tile "bare s" "traced s" ratio "traced MB (off)" "traced MB (checks)"
for s in "${sizes[@]}"; do
  best_bare="" best_trace="" rss_off=0
  for _ in $(seq "$reps"); do
    b=$("$bench" tiled "$s" "$tile" --bare --no-checks | field seconds)
    line=$("$bench" tiled "$s" "$tile" --no-checks)
    t=$(echo "$line" | field seconds)
    r=$(echo "$line" | field maxrss_mb)
    best_bare=$(awk -v a="$b" -v m="$best_bare" 'BEGIN{print (m=="" || a<m) ? a : m}')
    best_trace=$(awk -v a="$t" -v m="$best_trace" 'BEGIN{print (m=="" || a<m) ? a : m}')
    [ "$r" -gt "$rss_off" ] && rss_off=$r
  done
  rss_checks=$("$bench" tiled "$s" "$tile" | field maxrss_mb)
  ratio=$(awk -v t="$best_trace" -v b="$best_bare" 'BEGIN{printf "%.2f", t/b}')
  printf "%-6s %-5s %12s %12s %7s %16s %18s\n" "$s" "$tile" "$best_bare" "$best_trace" "$ratio" "$rss_off" "$rss_checks"
done
