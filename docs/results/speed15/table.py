# speed15: each step's median time at each shape and its share of the mean of cuBLAS's two runs (before and after,
# same call); a shape a step did not run is blank. usage: python3 docs/results/speed15/table.py docs/results/speed15/e15
import glob, json, os, sys
d = sys.argv[1]
cb = json.load(open(d + "/cublas_before.json")); ca = json.load(open(d + "/cublas_after.json"))
cub = {(r["M"], r["N"], r["K"]): (r["gflops"], a["gflops"]) for r, a in zip(cb, ca)}
shapes = list(cub)
print("| step | " + " | ".join("%dx%dx%d" % s for s in shapes) + " |")
print("|---" * (len(shapes) + 1) + "|")
for f in sorted(glob.glob(d + "/*.json")):
    n = os.path.basename(f)[:-5]
    if n.startswith("cublas"): continue
    got = {(r["M"], r["N"], r["K"]): r for r in json.load(open(f))}
    out = []
    for s in shapes:
        r = got.get(s)
        if not r: out.append(""); continue
        ok = r.get("verified", r.get("verification", {}).get("verified", "?"))
        out.append("%.0f us, %.1f %%%s" % (r["median_s"] * 1e6, 100 * r["gflops"] / ((cub[s][0] + cub[s][1]) / 2),
                                           "" if ok in (True, "?") else " NOT VERIFIED"))
    print("| %s | %s |" % (n, " | ".join(out)))
print("| cuBLAS before-after (TFLOP/s) | " + " | ".join("%.1f-%.1f" % (a / 1e3, b / 1e3) for a, b in cub.values()) + " |")
