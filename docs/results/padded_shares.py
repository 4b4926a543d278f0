# Share of cuBLAS per size: the best verified tilescope rung against the mean of cuBLAS before and after.
# usage: padded_shares.py PREFIX   (reads PREFIX_bench.json, PREFIX_bench_tiny.json when there is one, PREFIX_cublas_{before,after}.json)
import json, sys
p = sys.argv[1]
cb = {}
for f in ("before", "after"):
    for r in json.load(open(p + "_cublas_%s.json" % f)): cb.setdefault((r["M"], r["N"], r["K"]), []).append(r["gflops"])
best = {}
import os
for f in ("bench", "bench_tiny"):
    if not os.path.exists(p + "_%s.json" % f): continue
    for r in json.load(open(p + "_%s.json" % f)):
        k = (r["M"], r["N"], r["K"])
        if r["verified"] and (k not in best or r["gflops"] > best[k]["gflops"]): best[k] = r
rows = []
for k, r in best.items():
    c = cb[k]; share = r["gflops"] / (sum(c) / len(c))
    rows.append((share, k, r))
for share, k, r in rows:
    lab = str(k[0]) if k[0] == k[1] == k[2] else "%dx%dx%d" % k
    print("| %s | %s | %s | %.0f | %.0f–%.0f | %.0f %% |" % (lab, r["kernel"], r.get("padded_to", "—"), r["gflops"], min(cb[k]), max(cb[k]), 100 * share))
w = min(rows[:24], key=lambda x: x[0])
print("worst random draw: %s %.1f %%" % (w[1], 100 * w[0]))
