#!/usr/bin/env python3
"""Turns `tilescope bench --json` files into the Markdown tables of docs/benchmarks.md.

usage: scripts/bench_table.py [--peak GFLOPS] [--reference KERNEL] FILE.json [FILE.json ...]
One row per (kernel, tile, parameters), one GFLOP/s column per size, medians as measured.
With --peak, a column gives the best size's share of that peak; with --reference (e.g.
clblast), its share of the reference kernel at the same size.
"""
import argparse
import json

ap = argparse.ArgumentParser()
ap.add_argument("--peak", type=float)
ap.add_argument("--reference")
ap.add_argument("files", nargs="+")
args = ap.parse_args()

records = []
for path in args.files:
    with open(path) as f:
        records.extend(json.load(f))
sizes = sorted({r["M"] for r in records})
rows, order = {}, []
for r in records:
    params = " ".join(f"{k}={v}" for k, v in sorted((r.get("params") or {}).items()))
    key = (r["kernel"], None if r.get("library") else r["tile"], params)
    if key not in rows:
        rows[key] = {}
        order.append(key)
    rows[key][r["M"]] = r["gflops"] if r["verified"] else None

ref = {}
if args.reference:
    for key in order:
        if key[0] == args.reference:
            ref.update({s: v for s, v in rows[key].items() if v})

head = "| kernel | TS | parameters | " + " | ".join(f"{s}³ GFLOP/s" for s in sizes)
sep = "|---|---|---|" + "---|" * len(sizes)
if args.peak:
    head += " | best, % of peak"
    sep += "---|"
if ref:
    head += f" | % of {args.reference} (same size)"
    sep += "---|"
print(head + " |")
print(sep)
for key in order:
    kernel, tile, params = key
    cells = []
    for s in sizes:
        v = rows[key].get(s)
        cells.append("" if s not in rows[key] else ("not verified" if v is None else f"{v:,.1f}"))
    line = f"| {kernel}{' (library)' if tile is None else ''} | {'-' if tile is None else tile} | {params} | " + " | ".join(cells)
    measured = {s: v for s, v in rows[key].items() if v}
    if args.peak:
        line += f" | {100 * max(measured.values()) / args.peak:.1f}%" if measured else " | "
    if ref:
        shares = [f"{s}³: {100 * v / ref[s]:.0f}%" for s, v in sorted(measured.items()) if s in ref]
        line += " | " + ", ".join(shares)
    print(line + " |")
