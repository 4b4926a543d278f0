#!/usr/bin/env bash
# The long fuzz run (the test suite runs a short one): every user-input parser given RUNS
# generated inputs (default 1,000,000 each) from SEED (default: the current time).
#   scripts/fuzz.sh [RUNS] [SEED]      reproduce a failure: the same RUNS and SEED
# Builds build/ first if needed (scripts/build.sh). Exit 0 when nothing failed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TILESCOPE_BUILD_DIR:-$root/build}"
runs="${1:-1000000}"
seed="${2:-$(date +%s)}"
case "$runs$seed" in *[!0-9]*) echo "fuzz: RUNS and SEED must be non-negative integers; usage: scripts/fuzz.sh [RUNS] [SEED]" >&2; exit 2;; esac
[ -f "$build/build.ninja" ] || "$root/scripts/build.sh"
cmake --build "$build" --target tilescope_fuzz >/dev/null
echo "fuzz: $runs inputs per parser, seed $seed (to reproduce: scripts/fuzz.sh $runs $seed)"
status=0
"$build/tests/tilescope_fuzz" --corpus "$root/tests/hardening/corpus" --runs "$runs" --seed "$seed" || status=$?
if [ "$status" -gt 128 ]; then
  echo "fuzz: CRASHED with signal $((status - 128)) (seed $seed): a parser let a signal through" >&2
elif [ "$status" -ne 0 ]; then
  echo "fuzz: FAILED (seed $seed): see the FAIL lines above" >&2
fi
exit "$status"
