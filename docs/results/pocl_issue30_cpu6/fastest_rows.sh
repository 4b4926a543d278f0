#!/usr/bin/env bash
# Issue 30 item 4 (cpu6): which cpu_panel point should the CPU type defaults' "fastest" rows name?
# The fallback (TS=48 VW=16 WGM=16 WGN=1 WPTM=8, from an empty tuning folder: [defaults for CPUs])
# against the two points the rows named before (TS=32 WGM=4 WGN=4, TS=32 WGM=1 WGN=1, VW=16 WPTM=8),
# each as a share of the peak timed in pairs (ceilings --against) at 256, 1024 and 1234, the three
# points taken in turn ROUNDS times, so that each meets the machine's load alike.
# usage: docs/results/pocl_issue30_cpu6/fastest_rows.sh OUTDIR [ROUNDS] [PAIRS]   (TILESCOPE_BIN: the binary)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
out="${1:?usage: fastest_rows.sh OUTDIR [ROUNDS] [PAIRS]}"; rounds="${2:-2}"; pairs="${3:-20}"
B="${TILESCOPE_BIN:-$root/build/tilescope}"
mkdir -p "$out"
tuning="$(mktemp -d)"; data="$(mktemp -d)"
export TILESCOPE_TUNING_DIR="$tuning" XDG_DATA_HOME="$data"
echo "cpu: $(lscpu | sed -n 's/^Model name: *//p'), family $(lscpu | sed -n 's/^CPU family: *//p'), model $(lscpu | sed -n 's/^Model: *//p'), $(nproc) cores; $(date -u +%FT%TZ); $("$B" version 2>/dev/null | head -1)"
for ((r = 1; r <= rounds; r++)); do
  for p in fallback ts32_wgm4_wgn4 ts32_wgm1_wgn1; do
    case "$p" in
      fallback) args=();;
      ts32_wgm4_wgn4) args=(--tile 32 --param VW=16 --param WGM=4 --param WGN=4 --param WPTM=8);;
      ts32_wgm1_wgn1) args=(--tile 32 --param VW=16 --param WGM=1 --param WGN=1 --param WPTM=8);;
    esac
    echo "round $r $p: $(date -u +%T), load $(cut -d' ' -f1-3 /proc/loadavg)"
    "$B" ceilings --device pocl --against cpu_panel --size 256,1024,1234 --pairs "$pairs" "${args[@]}" \
      --json "$out/r${r}_$p.json" >"$out/r${r}_$p.log" 2>&1
  done
done
rm -rf "$tuning" "$data"
/usr/bin/python3 - "$out" "$rounds" <<'PY'
import json, sys, os
out, rounds = sys.argv[1], int(sys.argv[2])
print("round | point | size | wall share (middle half) | CPU-time share | cpu_panel median GFLOP/s | load")
for r in range(1, rounds + 1):
    for p in ("fallback", "ts32_wgm4_wgn4", "ts32_wgm1_wgn1"):
        j = json.load(open(os.path.join(out, "r%d_%s.json" % (r, p))))
        for x in j["results"]:
            print("%d | %s TS=%d %s | %d | %.0f%% (%.0f-%.0f) | %.0f%% | %.1f | %.1f" % (
                r, p, x["tile"], " ".join("%s=%s" % kv for kv in sorted(x["params"].items())), x["M"],
                100 * x.get("share_median", 0), 100 * x.get("share_q1", 0), 100 * x.get("share_q3", 0),
                100 * x.get("cpu_share_median", 0), x.get("rung_gflops_median", 0), j["load_before"][0]))
PY
