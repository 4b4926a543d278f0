# Shares of cuBLAS from a sitting's bench.log (its table rows) where the bench stopped at its time limit before
# writing bench.json (the H100's second sitting): GFLOP/s per size against the mean of cuBLAS before and after.
# usage: python3 docs/results/speed8/shares_log.py DIR   (DIR holds bench.log, cublas_before.json, cublas_after.json)
import json, sys
d = sys.argv[1]
cb = {}
for f in ("before", "after"):
    for r in json.load(open("%s/cublas_%s.json" % (d, f))): cb.setdefault((r["M"], r["N"], r["K"]), []).append(r["gflops"])
shares = []
for line in open(d + "/bench.log"):
    if not line.startswith(("warp_tile", "splitk")) or " ok (" not in line: continue
    p = line.split(); s = p[1]
    k = tuple(int(v) for v in s.split("x")) if "x" in s else (int(s),) * 3
    g = float(p[7]); c = cb[k]; share = g / (sum(c) / len(c)); shares.append(share)
    print("| %s | %s | %.0f | %.0f–%.0f | %.0f %% |" % (s, p[0], g, min(c), max(c), 100 * share))
print("worst of these %d: %.1f %%; %d at >= 92 %%" % (len(shares), 100 * min(shares), sum(x >= 0.92 for x in shares)))
