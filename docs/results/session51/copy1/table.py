#!/usr/bin/env python3
# The table of docs/benchmarks.md's "B's copy alone in the float4 copy kernel" (session 51) from probe.sh's output:
# GFLOP/s of each point by main before (tilescope_base) and after (tilescope), the mean of its rounds, and the
# share of the mean of cuBLAS's runs before and after.   usage: table.py docs/results/session51/copy1
import json, statistics, sys
d = sys.argv[1].rstrip("/") + "/"
cub = {}
for f in ("cublas_before.json", "cublas_after.json"):
    for r in json.load(open(d + "json/" + f)):
        cub.setdefault("%dx%dx%d" % (r["M"], r["N"], r["K"]), []).append(r["gflops"])
res = {}
for line in open(d + "out.txt"):
    f = line.split()
    if len(f) > 9 and f[0] in ("1", "2"):
        res.setdefault((f[3], f[2]), {}).setdefault(f[1], []).append(float(f[9]))
print("| shape | point | before | after | change | cuBLAS before-after | share after |")
print("|---|---|---|---|---|---|---|")
for (sz, k), v in res.items():
    b, a, c = statistics.mean(v["tilescope_base"]), statistics.mean(v["tilescope"]), cub[sz]
    print("| %s | %s | %s | %s | %+.1f %% | %s-%s | %.1f %% |" % (sz, k, f"{b:,.0f}", f"{a:,.0f}", (a / b - 1) * 100,
          f"{min(c):,.0f}", f"{max(c):,.0f}", a / statistics.mean(c) * 100))
