# speed14: the sitting's before/after table: per size, what main's binary (before) and the branch's (after) ran, their
# GFLOP/s, the share of the mean of cuBLAS's two runs, and what the branch's round 2 timed in place.
# usage: python3 docs/results/speed14/sitting_shares.py docs/results/speed14/h100_sitting
import json, os, re, sys
d = sys.argv[1]
cb = json.load(open(d + "/cublas_before.json")); ca = json.load(open(d + "/cublas_after.json"))
cub = {"%dx%dx%d" % (r["M"], r["N"], r["K"]): (r["gflops"] + a["gflops"]) / 2 for r, a in zip(cb, ca)}
print("| size | before | after | after's in-place point in round 2 | share before -> after |")
print("|---|---|---|---|---|")
for s in open(d + "/sizes.txt").read().strip().split(","):
    got = {}
    for w in ("before", "after"):
        f = "%s/%s/%s.json" % (d, w, s)
        if os.path.exists(f): got[w] = json.load(open(f))[0]
    def point(r):
        p = r["params"]
        return "%s %s%s%s, %.0f" % (r["kernel"], "64x128" if p.get("NMUL", 1) == 2 else "TS %d" % r["tile"],
                                   " x %d" % p["SLICES"] if "SLICES" in p else "", " in place" if p.get("INPLACE") == 2 else "", r["gflops"])
    b, a = got.get("before"), got.get("after")
    inpl = ""
    if a:
        m = re.search(r"[a-z_]+ [^,;]* in place (\d+)", a["pick_reason"])
        inpl = m.group(0) if m else "not timed"
    share = lambda r: "%.1f %%" % (100 * r["gflops"] / cub[s]) if r else "-"
    print("| %s | %s | %s | %s | %s -> %s |" % (s, point(b) if b else "not reached", point(a) if a else "not reached", inpl if a else "-",
                                              share(b), share(a)))
