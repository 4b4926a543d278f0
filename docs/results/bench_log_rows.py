#!/usr/bin/env python3
"""Bench records rebuilt from `tilescope bench`'s own table lines (its standard output), for runs
stopped by a script's `timeout` before they wrote their --json (issue 30, speed4's exploration).
A line becomes one verified record only when its check column says "ok"; the rung, tile and
parameters come from the line itself ("[given: NAME=V ...]").
usage: bench_log_rows.py OUT.json BENCH.log [BENCH.log ...]"""
import json, re, sys
out = []
for path in sys.argv[2:]:
    for line in open(path):
        f = line.split()
        if len(f) < 10 or f[9] != "ok" or "[given:" not in line: continue
        size = [int(v) for v in f[1].split("x")] if "x" in f[1] else [int(f[1])] * 3
        given = re.search(r"\[given: ([^\]]*)\]", line).group(1).split()
        params = {k: int(v) for k, v in (p.split("=") for p in given)}
        out.append({"kernel": f[0], "M": size[0], "N": size[1], "K": size[2], "tile": int(f[2]), "params": params,
                    "median_s": float(f[5]) / 1e3, "gflops": float(f[7]), "verified": True, "from_log": path.split("/")[-1]})
json.dump(out, open(sys.argv[1], "w"), indent=1)
print(f"{sys.argv[1]}: {len(out)} records")
