# Shares of cuBLAS for one sitting (issue 30, speed5): the verified `bench --kernel fastest` record per size against
# the mean of cuBLAS before and after, with the table the pick came from (this device's own or a similar device's).
# usage: shares.py DIR DRAWN [HELD]   (DIR holds bench.json, cublas_before.json, cublas_after.json; DRAWN: how many of
# the sizes after the first HELD (default 0; sittings list their held sizes first) are the random draw, whose worst
# share and count at >= 92 % are printed)
import json, sys
d, drawn = sys.argv[1], int(sys.argv[2])
held = int(sys.argv[3]) if len(sys.argv) > 3 else 0
cb = {}
for f in ("before", "after"):
    for r in json.load(open("%s/cublas_%s.json" % (d, f))): cb.setdefault((r["M"], r["N"], r["K"]), []).append(r["gflops"])
rows = []
for r in json.load(open(d + "/bench.json")):
    k = (r["M"], r["N"], r["K"])
    if not r.get("verified"): continue
    why = r.get("pick_reason", "")
    src = "own" if "tuned here" in why else ("H200's" if "similar device" in why else "defaults")
    at = why.split("fastest measured at ")[1].split(",")[0] if "fastest measured at " in why else "?"
    c = cb[k]; share = r["gflops"] / (sum(c) / len(c))
    lab = str(k[0]) if k[0] == k[1] == k[2] else "%dx%dx%d" % k
    rows.append(share)
    print("| %s | %s | %s (%s) | %.0f | %.0f–%.0f | %.0f %% |" % (lab, r["kernel"], at, src, r["gflops"], min(c), max(c), 100 * share))
dr = rows[held:held + drawn]
w = min(dr); print("worst of the %d drawn: %.1f %%; %d of %d at >= 92 %%" % (drawn, 100 * w, sum(x >= 0.92 for x in dr), drawn))
