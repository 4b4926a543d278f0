#!/usr/bin/env bash
# Issue 30 item 4: cpu_panel as a share of the peak `tilescope ceilings` measures, in one run,
# on this machine's CPU (PoCL). Each run: the peak; cpu_panel at 1024, 1000 and 1234 from the
# fallback alone (a fresh, empty tuning folder); `tune --quick` at 1024; cpu_panel again at the
# three sizes; the peak again. The share is taken against the higher of the run's two peaks
# (the harsher ratio). Repeats RUNS times and prints every run and the worst.
# usage: scripts/cpu_peak_share.sh RUNS OUTDIR     (TILESCOPE_BIN: the binary, default build/tilescope)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:?usage: scripts/cpu_peak_share.sh RUNS OUTDIR}"; out="${2:?usage: scripts/cpu_peak_share.sh RUNS OUTDIR}"
case "$runs" in ''|*[!0-9]*|0) echo "cpu_peak_share: RUNS '$runs': accepted: a whole number of at least 1" >&2; exit 2;; esac
B="${TILESCOPE_BIN:-$root/build/tilescope}"
mkdir -p "$out"
echo "cpu: $(lscpu | sed -n 's/^Model name: *//p'), family $(lscpu | sed -n 's/^CPU family: *//p'), $(nproc) cores; $(date -u +%FT%TZ)"
for ((r = 1; r <= runs; r++)); do
  d="$out/run$r"; mkdir -p "$d"
  tuning="$(mktemp -d)"; data="$(mktemp -d)"
  export TILESCOPE_TUNING_DIR="$tuning" XDG_DATA_HOME="$data"  # never the user's tuning
  echo "run $r: load before $(cut -d' ' -f1-3 /proc/loadavg)"
  "$B" ceilings --device pocl --json "$d/peak_before.json" >/dev/null 2>&1
  "$B" bench --device pocl --kernel cpu_panel --size 1024,1000,1234 --reps 5 --json "$d/fallback.json" >"$d/fallback.log" 2>&1
  "$B" tune --quick --device pocl --kernel cpu_panel --size 1024 --json "$d/tune_quick.json" >"$d/tune_quick.log" 2>&1 || true
  "$B" bench --device pocl --kernel cpu_panel --size 1024,1000,1234 --reps 5 --json "$d/after_quick.json" >"$d/after_quick.log" 2>&1
  "$B" ceilings --device pocl --json "$d/peak_after.json" >/dev/null 2>&1
  echo "run $r: load after $(cut -d' ' -f1-3 /proc/loadavg)"
  rm -rf "$tuning" "$data"
done
/usr/bin/python3 - "$out" "$runs" <<'PY'
import json, sys, os
out, runs = sys.argv[1], int(sys.argv[2])
sizes = [1024, 1000, 1234]
worst = {}
print("run | peak before/after | fallback 1024 1000 1234 (GFLOP/s, % of peak) | after tune --quick 1024 1000 1234")
for r in range(1, runs + 1):
    d = os.path.join(out, "run%d" % r)
    pb = json.load(open(os.path.join(d, "peak_before.json")))["peak_gflops"]
    pa = json.load(open(os.path.join(d, "peak_after.json")))["peak_gflops"]
    peak = max(pb, pa)
    cells = []
    for phase in ("fallback", "after_quick"):
        recs = {x["M"]: x for x in json.load(open(os.path.join(d, phase + ".json"))) if x["kernel"] == "cpu_panel"}
        row = []
        for s in sizes:
            x = recs.get(s)
            g = x["gflops"] if x and x["verified"] else 0.0
            share = 100 * g / peak
            row.append("%.1f %.0f%%" % (g, share))
            key = (phase, s)
            worst[key] = min(worst.get(key, 1e9), share)
            gap = 100 * (recs[1024]["gflops"] - g) / peak if s != 1024 and 1024 in recs else 0
            worst[(phase, s, "gap")] = max(worst.get((phase, s, "gap"), -1e9), gap)
        cells.append(", ".join(row))
    print("%d | %.1f / %.1f | %s | %s" % (r, pb, pa, cells[0], cells[1]))
for phase, target in (("fallback", 60), ("after_quick", 85)):
    print("worst %s: " % phase + ", ".join("%d: %.0f%%" % (s, worst[(phase, s)]) for s in sizes) +
          " (target 1024 >= %d%%); largest gap below 1024: 1000 %.1f, 1234 %.1f points (target <= 10)"
          % (target, worst[(phase, 1000, "gap")], worst[(phase, 1234, "gap")]))
PY
