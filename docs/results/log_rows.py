#!/usr/bin/env python3
"""Bench records rebuilt from a session log's table lines, for steps whose `bench` was stopped by
the script's per-step `timeout` before it wrote its --json (issue 30, speed3's mid-size sweep).
Each "== STEP" header names the rung, tile and parameters of the lines below it (see STEPS);
each line "RUNG SIZE TILE GFLOP/S ok" printed by that step becomes one verified record (the
line is printed only for a result the run verified: "ok"). Steps with a JSON of their own are skipped.
usage: log_rows.py SESSION.log SKIP_STEP[,..] OUT.json"""
import json, sys
P64 = {"PAD": 4, "TM": 8, "TN": 4, "TSK": 8, "WM": 32, "WN": 64, "WNITER": 2}
P128 = {"PAD": 4, "TM": 4, "TN": 4, "TSK": 16, "WM": 64, "WN": 64, "WNITER": 4}
STEPS = {"wt128": ("warp_tile", 128, P128), "wt64": ("warp_tile", 64, P64),
         "sk128s2": ("splitk", 128, dict(P128, SLICES=2)), "sk64s2": ("splitk", 64, dict(P64, SLICES=2)),
         "sk128s4": ("splitk", 128, dict(P128, SLICES=4)), "sk64s4": ("splitk", 64, dict(P64, SLICES=4)),
         "sk64s8": ("splitk", 64, dict(P64, SLICES=8)), "sk64s16": ("splitk", 64, dict(P64, SLICES=16))}
log, skip, out_path = sys.argv[1], set(sys.argv[2].split(",")), sys.argv[3]
out, step = [], None
for line in open(log):
    f = line.split()
    if line.startswith("== "): step = f[1]; continue
    if step not in STEPS or step in skip or len(f) != 5 or f[4] != "ok": continue
    kernel, tile, params = STEPS[step]
    if f[0] != kernel or int(f[2]) != tile: continue
    m, n, k = [int(v) for v in f[1].split("x")] if "x" in f[1] else [int(f[1])] * 3
    out.append({"M": m, "N": n, "K": k, "kernel": kernel, "tile": tile, "params": params, "gflops": float(f[3]),
                "verified": True, "library": False, "reps": 5, "from_log": step})
json.dump(out, open(out_path, "w"), indent=1)
print(f"{out_path}: {len(out)} records")
