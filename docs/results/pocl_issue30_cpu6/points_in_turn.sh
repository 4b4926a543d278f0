#!/usr/bin/env bash
# Issue 30 item 4 (cpu6): cpu_panel points compared as shares of the peak timed in pairs
# (ceilings --against), the points taken in turn ROUNDS times so that each meets the load alike,
# in a fresh, empty tuning folder (the point "fallback" runs with no --tile/--param: [defaults for CPUs]).
# usage: points_in_turn.sh OUTDIR ROUNDS PAIRS SIZES POINT...   POINT: fallback, or TS:VW:WGM:WGN:WPTM
#        (TILESCOPE_BIN: the binary, default build/tilescope)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
out="$1"; rounds="$2"; pairs="$3"; sizes="$4"; shift 4
B="${TILESCOPE_BIN:-$root/build/tilescope}"
mkdir -p "$out"
tuning="$(mktemp -d)"; data="$(mktemp -d)"
export TILESCOPE_TUNING_DIR="$tuning" XDG_DATA_HOME="$data"
echo "cpu: $(lscpu | sed -n 's/^Model name: *//p'), family $(lscpu | sed -n 's/^CPU family: *//p'), model $(lscpu | sed -n 's/^Model: *//p'), $(nproc) cores; $(date -u +%FT%TZ); $("$B" version 2>/dev/null | head -1)"
for ((r = 1; r <= rounds; r++)); do
  for p in "$@"; do
    if [ "$p" = fallback ]; then args=(); else
      IFS=: read -r ts vw wgm wgn wptm <<<"$p"
      args=(--tile "$ts" --param "VW=$vw" --param "WGM=$wgm" --param "WGN=$wgn" --param "WPTM=$wptm"); fi
    echo "round $r $p: $(date -u +%T), load $(cut -d' ' -f1-3 /proc/loadavg)"
    "$B" ceilings --device pocl --against cpu_panel --size "$sizes" --pairs "$pairs" "${args[@]}" \
      --json "$out/r${r}_${p//:/_}.json" >"$out/r${r}_${p//:/_}.log" 2>&1
  done
done
rm -rf "$tuning" "$data"
/usr/bin/python3 - "$out" <<'PY'
import json, sys, os, glob, re
out = sys.argv[1]
print("round | point | size | wall share (middle half) | CPU-time share (middle half) | cpu_panel median GFLOP/s | load")
for f in sorted(glob.glob(os.path.join(out, "r*.json")), key=lambda f: (int(re.search(r"/r(\d+)_", f).group(1)), os.path.getmtime(f))):
    j = json.load(open(f))
    r = re.search(r"/r(\d+)_", f).group(1)
    for x in j["results"]:
        print("%s | TS=%d %s | %d | %.0f%% (%.0f-%.0f) | %.0f%% (%.0f-%.0f) | %.1f | %.1f" % (
            r, x["tile"], " ".join("%s=%s" % kv for kv in sorted(x["params"].items())), x["M"],
            100 * x.get("share_median", 0), 100 * x.get("share_q1", 0), 100 * x.get("share_q3", 0),
            100 * x.get("cpu_share_median", 0), 100 * x.get("cpu_share_q1", 0), 100 * x.get("cpu_share_q3", 0),
            x.get("rung_gflops_median", 0), j["load_before"][0]))
PY
