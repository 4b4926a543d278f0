#!/usr/bin/env python3
"""Builds the "fastest" table of a tuning file (issue 30 item 3) from bench --json records:
for each shape measured, the verified rung and point that ran fastest. Measured data only.
The table already in TUNING.json is kept: a shape measured again keeps whichever entry ran faster.
usage: fastest_table.py TUNING.json SOURCE_LABEL BENCH.json [BENCH.json ...]  (rewrites TUNING.json)"""
import json, sys, os
tuning_path, label, sources = sys.argv[1], sys.argv[2], sys.argv[3:]
best = {}
for path in sources:
    for r in json.load(open(path)):
        if not r.get("verified") or r.get("gflops") is None or r.get("library"): continue
        key = (r["M"], r["N"], r["K"])
        if key not in best or r["gflops"] > best[key][0]["gflops"]: best[key] = (r, os.path.basename(path))
doc = json.load(open(tuning_path))
rows = {}
for e in doc.get("fastest", []):
    rows[tuple(int(v) for v in e["size"].split("x"))] = e
for (M, N, K), (r, src) in best.items():
    if (M, N, K) in rows and rows[(M, N, K)]["gflops"] >= r["gflops"]: continue
    rows[(M, N, K)] = {"size": f"{M}x{N}x{K}", "kernel": r["kernel"], "tile": r["tile"], "params": r["params"],
                       "gflops": round(r["gflops"], 1), "from": f"{label}, {src}"}
doc["fastest"] = [rows[key] for key in sorted(rows)]
open(tuning_path, "w").write(json.dumps(doc, indent=2) + "\n")
print(f"{tuning_path}: {len(doc['fastest'])} shapes")
