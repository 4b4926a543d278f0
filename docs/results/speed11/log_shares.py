# Shares of cuBLAS from a sitting's bench.log (for a bench stopped at its time limit, which writes no --json): each
# verified result line (kernel, size, ..., GFLOP/s, "ok") against the mean of cuBLAS before and after; the draw's
# sizes not measured are named. usage: log_shares.py DIR   (DIR holds bench.log, sizes.txt, cublas_{before,after}.json)
import json, sys
d = sys.argv[1]
cb = {}
for f in ("before", "after"):
    for r in json.load(open("%s/cublas_%s.json" % (d, f))): cb.setdefault((r["M"], r["N"], r["K"]), []).append(r["gflops"])
sizes = open(d + "/sizes.txt").read().strip().split(",")
key = lambda s: tuple([int(s)] * 3) if "x" not in s else tuple(int(v) for v in s.split("x"))
got = {}
for line in open(d + "/bench.log"):
    f = line.split()
    if len(f) > 9 and f[0] in ("warp_tile", "splitk", "reg2d_dbuf") and " ok " in line:
        got[key(f[1])] = (f[0], float(f[7]))
shares = []
for s in sizes:
    k = key(s); c = cb[k]
    if k not in got:
        print("| %s | not measured (bench stopped at its time limit) | | %.0f–%.0f | |" % (s, min(c), max(c))); continue
    kern, g = got[k]; share = g / (sum(c) / len(c)); shares.append(share)
    print("| %s | %s | %.0f | %.0f–%.0f | %.0f %% |" % (s, kern, g, min(c), max(c), 100 * share))
print("measured %d of %d; worst %.1f %%; %d at >= 92 %%" % (len(shares), len(sizes), 100 * min(shares), sum(x >= 0.92 for x in shares)))
