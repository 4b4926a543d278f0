#!/usr/bin/env bash
# The long fuzz campaign, outside CI (CI runs a short one for a time budget): every
# user-input parser and file reader fed generated inputs from SEED for a number of hours,
# or a fixed count of inputs per parser.
#   scripts/fuzz.sh --hours N [--seed S]     N hours in all, shared by the parsers (N may be 0.5)
#   scripts/fuzz.sh [RUNS] [SEED]            RUNS inputs per parser (default 1,000,000)
# To reproduce a failure of a campaign by hours: build/tests/tilescope_fuzz --corpus
# tests/hardening/corpus --target NAME --runs COUNT --seed SEED, with the count its line printed
# (the inputs depend only on the seed and the target). Builds build/ first if needed.
# Exit 0 when nothing failed. The counts of each campaign go in docs/reliability.md.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TILESCOPE_BUILD_DIR:-$root/build}"
usage="usage: scripts/fuzz.sh --hours N [--seed S]  |  scripts/fuzz.sh [RUNS] [SEED]"
hours="" runs="" seed=""
while [ $# -gt 0 ]; do
  case "$1" in
    --hours) [ $# -ge 2 ] || { echo "fuzz: --hours needs a value; $usage" >&2; exit 2; }; hours="$2"; shift 2;;
    --seed)  [ $# -ge 2 ] || { echo "fuzz: --seed needs a value; $usage" >&2; exit 2; }; seed="$2"; shift 2;;
    -h|--help) echo "$usage"; exit 0;;
    -*) echo "fuzz: unknown option '$1'; $usage" >&2; exit 2;;
    *) if [ -z "$runs" ]; then runs="$1"; elif [ -z "$seed" ]; then seed="$1"; else
         echo "fuzz: too many arguments; $usage" >&2; exit 2; fi; shift;;
  esac
done
seed="${seed:-$(date +%s)}"
case "$seed" in ''|*[!0-9]*) echo "fuzz: SEED must be a non-negative integer, got '$seed'; $usage" >&2; exit 2;; esac
if [ -n "$hours" ]; then
  [ -z "$runs" ] || { echo "fuzz: give --hours or RUNS, not both; $usage" >&2; exit 2; }
  # A positive number of hours, at most a week (168).
  if ! seconds=$(awk -v h="$hours" 'BEGIN { if (h !~ /^[0-9]*\.?[0-9]+$/ || h <= 0 || h > 168) exit 1; printf "%.0f", h * 3600 }'); then
    echo "fuzz: --hours takes a number of hours above 0 and at most 168, got '$hours'" >&2; exit 2
  fi
  budget=(--seconds "$seconds")
  what="$hours hour(s) in all"
else
  runs="${runs:-1000000}"
  case "$runs" in *[!0-9]*) echo "fuzz: RUNS must be a non-negative integer, got '$runs'; $usage" >&2; exit 2;; esac
  budget=(--runs "$runs")
  what="$runs inputs per parser"
fi
[ -f "$build/build.ninja" ] || "$root/scripts/build.sh"
cmake --build "$build" --target tilescope_fuzz >/dev/null
echo "fuzz: $what, seed $seed (each line below says how many inputs that parser ran)"
status=0
"$build/tests/tilescope_fuzz" --corpus "$root/tests/hardening/corpus" "${budget[@]}" --seed "$seed" || status=$?
if [ "$status" -gt 128 ]; then
  echo "fuzz: CRASHED with signal $((status - 128)) (seed $seed): a parser let a signal through" >&2
elif [ "$status" -ne 0 ]; then
  echo "fuzz: FAILED (seed $seed): see the FAIL lines above" >&2
fi
exit "$status"
