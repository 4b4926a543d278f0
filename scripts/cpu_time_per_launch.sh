#!/usr/bin/env bash
# CPU seconds one launch of a rung costs on PoCL, for comparing two variants on a shared, busy
# machine where wall-clock times say more about the other users than about the kernel: the
# process's user+system time with 1 and with 1+N timed launches (no warm-up), the difference
# divided by N. Build, verification and start-up cancel out. Prints ms of CPU per launch and
# GFLOP per CPU-second (two busy cores give twice that per wall second at best).
# usage: scripts/cpu_time_per_launch.sh SIZE N [bench arguments...]   e.g. 1234 30 --kernel cpu_panel --pad off
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
size="${1:?usage: scripts/cpu_time_per_launch.sh SIZE N [bench arguments...]}"; n="${2:?usage: scripts/cpu_time_per_launch.sh SIZE N [bench arguments...]}"; shift 2
case "$size" in ''|*[!0-9]*) echo "cpu_time_per_launch: SIZE '$size': accepted: one whole number (a cube)" >&2; exit 2;; esac
case "$n" in ''|*[!0-9]*|0) echo "cpu_time_per_launch: N '$n': accepted: a whole number of at least 1" >&2; exit 2;; esac
B="${TILESCOPE_BIN:-$root/build/tilescope}"
err="$(mktemp)"; trap 'rm -f "$err"' EXIT
cpu() {
  local reps="$1"; shift
  /usr/bin/time -f "%U %S" "$B" bench --device pocl --size "$size" --reps "$reps" --warmup 0 "$@" >/dev/null 2>"$err" || { cat "$err" >&2; exit 1; }
  tail -1 "$err" | awk '{print $1 + $2}'
}
one="$(cpu 1 "$@")"; many="$(cpu $((n + 1)) "$@")"
python3 -c "
s, n, a, b = $size, $n, $one, $many
d = (b - a) / n
print('size %d, %s: %.1f ms of CPU per launch, %.1f GFLOP per CPU-second (%d launches; load %s)'
      % (s, '$*', d * 1e3, 2 * s**3 / d * 1e-9 if d > 0 else 0, n, open('/proc/loadavg').read().split()[0]))"
