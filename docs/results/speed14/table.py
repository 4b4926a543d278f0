# speed14: the explore call's table: each config's median time at each shape and its share of the mean of cuBLAS's two
# runs (before and after, same call). usage: python3 docs/results/speed14/table.py docs/results/speed14/h200_e1
import glob, json, os, sys
d = sys.argv[1]
cb = json.load(open(d + "/cublas_before.json")); ca = json.load(open(d + "/cublas_after.json"))
cub = {(r["M"], r["N"], r["K"]): (r["gflops"], a["gflops"]) for r, a in zip(cb, ca)}
rows = {}
for f in sorted(glob.glob(d + "/*.json")):
    n = os.path.basename(f)[:-5]
    if n.startswith("cublas"): continue
    for r in json.load(open(f)):
        rows.setdefault(n, {})[(r["M"], r["N"], r["K"])] = (r["median_s"] * 1e6, r.get("gflops"))
shapes = list(cub)
print("| config | " + " | ".join("%dx%dx%d" % s for s in shapes) + " |")
print("|---" * (len(shapes) + 1) + "|")
for n, v in rows.items():
    out = []
    for s in shapes:
        ps = [k for k in v if k[0] == s[0]]  # the padded sizes share M
        t, g = v[ps[0]]
        out.append("%.0f us, %.1f %%" % (t, 100 * g / ((cub[s][0] + cub[s][1]) / 2)) if g else "%.0f us" % t)
    print("| %s | %s |" % (n, " | ".join(out)))
print("| cuBLAS before-after (TFLOP/s) | " + " | ".join("%.1f-%.1f" % (a / 1e3, b / 1e3) for a, b in cub.values()) + " |")
