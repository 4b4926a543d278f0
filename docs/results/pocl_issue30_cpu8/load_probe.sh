#!/usr/bin/env bash
# cpu8: is cpu_panel's TS=16 point weaker at 1234^3 than at 1024^3 when another process streams
# memory on one of the two cores? Points taken in turn (cpu6's points_in_turn.sh, this branch's
# binary: both sizes in the same rounds), once with nothing of ours beside them, once beside
# `load MIB` (a one-thread loop reading and writing a MIB buffer, 64 bytes apart: others' memory
# traffic, which the peak kernel does not feel), once beside `load 0` (one thread of register
# arithmetic: a core taken, no memory traffic). usage: load_probe.sh OUTDIR PAIRS MIB LOADER POINT...
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$1"; pairs="$2"; mib="$3"; loader="$4"; shift 4
for kind in quiet mem compute; do
  pid=""
  case $kind in mem) "$loader" "$mib" 100000 >/dev/null & pid=$!;; compute) "$loader" 0 100000 >/dev/null & pid=$!;; esac
  echo "$kind: $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
  "$here/../pocl_issue30_cpu6/points_in_turn.sh" "$out/$kind" 1 "$pairs" 1024,1234 "$@" | grep -v '^round'
  [ -n "$pid" ] && kill "$pid"
done
