#!/usr/bin/env bash
# Issue 30 item 4: cpu_panel as a share of the peak, on this machine's CPU (PoCL), timed in pairs
# so that a machine others load does not decide the figure. Each run, in a fresh, empty tuning
# folder: `tilescope ceilings --against cpu_panel` at 1024, 1000 and 1234 from the fallback alone
# (each pair launches the peak kernel and cpu_panel one right after the other, every size's pairs
# in the same rounds since cpu8; the share is the median of the pairs' own ratios); `tune --quick`
# at 1024; the paired share again at the three sizes. Repeats RUNS times and prints every run and the worst of them, by wall time (the
# pairs' ratios of GFLOP/s) and by CPU time (of GFLOP per CPU-second of the process).
# usage: scripts/cpu_peak_share.sh RUNS OUTDIR [PAIRS]   (PAIRS default 20; TILESCOPE_BIN: the binary,
#        default build/tilescope)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage="usage: scripts/cpu_peak_share.sh RUNS OUTDIR [PAIRS]"
runs="${1:?$usage}"; out="${2:?$usage}"; pairs="${3:-20}"
case "$runs" in ''|*[!0-9]*|0) echo "cpu_peak_share: RUNS '$runs': accepted: a whole number of at least 1" >&2; exit 2;; esac
case "$pairs" in ''|*[!0-9]*|0) echo "cpu_peak_share: PAIRS '$pairs': accepted: a whole number of at least 1" >&2; exit 2;; esac
B="${TILESCOPE_BIN:-$root/build/tilescope}"
mkdir -p "$out"
echo "cpu: $(lscpu | sed -n 's/^Model name: *//p'), family $(lscpu | sed -n 's/^CPU family: *//p'), model $(lscpu | sed -n 's/^Model: *//p'), $(nproc) cores; $(date -u +%FT%TZ); $("$B" version 2>/dev/null | head -1)"
for ((r = 1; r <= runs; r++)); do
  d="$out/run$r"; mkdir -p "$d"
  tuning="$(mktemp -d)"; data="$(mktemp -d)"
  export TILESCOPE_TUNING_DIR="$tuning" XDG_DATA_HOME="$data"  # never the user's tuning
  echo "run $r: $(date -u +%T), load before $(cut -d' ' -f1-3 /proc/loadavg)"
  "$B" ceilings --device pocl --against cpu_panel --size 1024,1000,1234 --pairs "$pairs" --json "$d/fallback.json" >"$d/fallback.log" 2>"$d/fallback.err"
  "$B" tune --quick --device pocl --kernel cpu_panel --size 1024 --json "$d/tune_quick.json" >"$d/tune_quick.log" 2>&1 || true
  "$B" ceilings --device pocl --against cpu_panel --size 1024,1000,1234 --pairs "$pairs" --json "$d/after_quick.json" >"$d/after_quick.log" 2>"$d/after_quick.err"
  echo "run $r: $(date -u +%T), load after $(cut -d' ' -f1-3 /proc/loadavg)"
  rm -rf "$tuning" "$data"
done
/usr/bin/python3 - "$out" "$runs" <<'PY'
import json, sys, os
out, runs = sys.argv[1], int(sys.argv[2])
sizes = [1024, 1000, 1234]
worst, worst_gap = {}, {}
print("run | phase | point | wall: share of the peak, median of the pairs (middle half) at 1024, 1000, 1234 | by CPU time: the same | load 1 min")
for r in range(1, runs + 1):
    for phase in ("fallback", "after_quick"):
        j = json.load(open(os.path.join(out, "run%d" % r, phase + ".json")))
        recs = {x["M"]: x for x in j["results"]}
        point = recs[1024]
        cells = {}
        for kind, key in (("wall", "share"), ("cpu", "cpu_share")):
            shares = {s: (100 * recs[s].get(key + "_median", 0) if recs[s]["verified"] else 0.0) for s in sizes}
            cells[kind] = ", ".join("%.0f%% (%.0f-%.0f)" % (shares[s], 100 * recs[s].get(key + "_q1", 0), 100 * recs[s].get(key + "_q3", 0))
                                    for s in sizes)
            for s in sizes:
                worst[(kind, phase, s)] = min(worst.get((kind, phase, s), 1e9), shares[s])
                if s != 1024:
                    worst_gap[(kind, phase, s)] = max(worst_gap.get((kind, phase, s), -1e9), shares[1024] - shares[s])
        params = " ".join("%s=%s" % kv for kv in sorted(point["params"].items()))
        print("%d | %s | TS=%d %s [%s] | %s | %s | %.1f-%.1f" % (r, phase, point["tile"], params, point.get("tuning", point["params_source"]),
                                                                cells["wall"], cells["cpu"], j["load_before"][0], j["load_after"][0]))
for kind in ("wall", "cpu"):
    for phase, target in (("fallback", 60), ("after_quick", 85)):
        print("worst %s, %s: " % (kind, phase) + ", ".join("%d: %.0f%%" % (s, worst[(kind, phase, s)]) for s in sizes) +
              " (target 1024 >= %d%%); largest gap below 1024 in one run: 1000 %.1f, 1234 %.1f points (target <= 10)"
              % (target, worst_gap[(kind, phase, 1000)], worst_gap[(kind, phase, 1234)]))
PY
