#!/usr/bin/env python3
"""Turns `tilescope bench --json` files into the Markdown tables of docs/benchmarks.md.

usage: scripts/bench_table.py FILE.json [FILE.json ...]
Prints one row per (kernel, tile) with one GFLOP/s column per size, medians as measured.
"""
import json
import sys

records = []
for path in sys.argv[1:]:
    with open(path) as f:
        records.extend(json.load(f))
sizes = sorted({r["M"] for r in records})
rows = {}
order = []
for r in records:
    key = (r["kernel"], None if r.get("library") else r["tile"])
    if key not in rows:
        rows[key] = {}
        order.append(key)
    rows[key][r["M"]] = r["gflops"] if r["verified"] else None

print("| kernel | TS | " + " | ".join(f"{s}³ GFLOP/s" for s in sizes) + " |")
print("|---|---|" + "---|" * len(sizes))
for key in order:
    kernel, tile = key
    cells = []
    for s in sizes:
        v = rows[key].get(s)
        cells.append("" if s not in rows[key] else ("not verified" if v is None else f"{v:,.1f}"))
    label = kernel + (" (library)" if tile is None else "")
    print(f"| {label} | {'-' if tile is None else tile} | " + " | ".join(cells) + " |")
