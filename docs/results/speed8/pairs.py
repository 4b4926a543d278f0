# Issue 30 (speed8): explore2.sh's records side by side: GFLOP/s of main's binary (C copied back) and this branch's
# (C stored in place), pass 1 / pass 2, per point and size; "alone" rows are the padded size itself (no copies).
# usage: python3 docs/results/speed8/pairs.py DIR   (DIR holds e2/*.json, as explore2.sh packs them)
import glob, json, os, sys
d = sys.argv[1]
rows = {}
for f in sorted(glob.glob(os.path.join(d, "*.json"))):
    name = os.path.basename(f)[:-5]  # e.g. w64_new2
    point, rest = name.split("_")
    binary, npass = rest[:-1], rest[-1]
    for r in json.load(open(f)):
        size = "%dx%dx%d" % (r["M"], r["N"], r["K"])
        rows.setdefault((point, size), {})[(binary, npass)] = (r["gflops"], r.get("padded_copies"), r.get("padded_to"))
print("| point | size | padded to | copies (new) | main p1 / p2 | new p1 / p2 | gain |")
print("|---|---|---|---|---|---|---|")
for (point, size), v in rows.items():
    g = lambda b, p: v.get((b, p), (0, None, None))[0]
    m = (g("main", "1") + g("main", "2")) / 2; n = (g("new", "1") + g("new", "2")) / 2
    pad = v.get(("new", "1"), (0, None, None))[2] or "- (alone)"
    cop = v.get(("new", "1"), (0, None, None))[1]
    print("| %s | %s | %s | %s | %.0f / %.0f | %.0f / %.0f | %+.1f %% |" % (point, size, pad, ", ".join(cop) if cop else "-",
          g("main", "1"), g("main", "2"), g("new", "1"), g("new", "2"), 100 * (n / m - 1) if m else 0))
