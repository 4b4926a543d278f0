#!/usr/bin/env python3
"""Session 47's explore.sh table: each step's GFLOP/s and its share of the mean of cuBLAS's two runs (before/after).
usage: python3 docs/results/session47/table.py DIR"""
import json, glob, os, sys
d = sys.argv[1]
def cub(f):
    return {(r["M"], r["N"], r["K"]): r["gflops"] for r in json.load(open(os.path.join(d, f)))}
cb, ca = cub("cublas_before.json"), cub("cublas_after.json")
print("| step | kernel | size | GFLOP/s | checked (copies) | cuBLAS before–after | share |")
print("|---|---|---|---|---|---|---|")
for f in sorted(glob.glob(os.path.join(d, "[a-z]_*.json"))):
    for r in json.load(open(f)):
        m, n, k = r["M"], r["N"], r["K"]
        key = min(cb, key=lambda s: abs(s[0] - m) + abs(s[1] - n) + abs(s[2] - k))   # padded steps: the user's size
        mean = (cb[key] + ca[key]) / 2
        print(f"| {os.path.basename(f)[:-5]} | {r['kernel']} | {m}x{n}x{k} | {r['gflops']:.0f} | {'ok' if r['max_rel_error'] < 1e-4 else 'WRONG'} ({', '.join(r.get('padded_copies', [])) or 'none'} copied) | "
              f"{cb[key]:.0f}–{ca[key]:.0f} | {100 * r['gflops'] / mean:.1f} % |")
