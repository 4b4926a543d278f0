# cpu8: cpu7's runs read again (issue 30 item 4). For each run whose tune --quick stored a TS=16
# point: after tune, 1234^3 against 1024^3 (wall | CPU time, share of the peak), the peak
# kernel's median GFLOP/s in each size's 30 pairs (it touches no memory: the load it feels is
# the cores taken), and the stored point's own paired look against the start at 1234 a minute
# earlier (tune_quick.log). usage: python3 docs/results/pocl_issue30_cpu8/lag_evidence.py SETDIR...
import json, os, re, sys
print("| set/run | point | 1024³ wall \\| CPU | 1234³ wall \\| CPU | gap (wall, CPU) | peak GFLOP/s at 1024, 1234 | look at 1234 in tune | load |")
print("|---|---|---|---|---|---|---|---|")
for d in sys.argv[1:]:
    for r in sorted((x for x in os.listdir(d) if re.fullmatch(r"run[0-9]+", x)), key=lambda x: int(x[3:])):
        j = json.load(open(os.path.join(d, r, "after_quick.json")))
        recs = {x["M"]: x for x in j["results"]}
        a, b = recs[1024], recs[1234]
        if a["tile"] != 16:
            continue
        log = open(os.path.join(d, r, "tune_quick.log")).read().splitlines()[-1]
        stored = log.split("; before it")[0]
        m = re.search(r"at 1234 median ([0-9.]+x) \(by CPU time ([0-9.]+x)", stored)
        look = "%s (CPU %s)" % m.groups() if m else "-"
        w = lambda x: 100 * x["share_median"]
        c = lambda x: 100 * x["cpu_share_median"]
        print("| %s/%s | TS=16 WGM=%d WGN=%d | %.0f %% \\| %.0f %% | %.0f %% \\| %.0f %% | %.1f, %.1f | %.0f, %.0f | %s | %.1f |" % (
            os.path.basename(d.rstrip("/")), r, a["params"]["WGM"], a["params"]["WGN"], w(a), c(a), w(b), c(b),
            w(a) - w(b), c(a) - c(b), a["peak_gflops_median"], b["peak_gflops_median"], look, j["load_before"][0]))
