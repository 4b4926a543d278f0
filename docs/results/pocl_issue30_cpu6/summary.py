# Issue 30 item 4 over several sets of scripts/cpu_peak_share.sh: per target, in how many runs it
# was met (by wall time and by CPU time), and the worst run with its load.
# usage: python3 docs/results/pocl_issue30_cpu6/summary.py SETDIR...
import json, os, re, sys
sizes = (1024, 1000, 1234)
runs = []
for d in sys.argv[1:]:
    for r in sorted((x for x in os.listdir(d) if re.fullmatch(r"run[0-9]+", x)), key=lambda x: int(x[3:])):
        one = {"set": os.path.basename(d.rstrip("/")), "run": r}
        for phase in ("fallback", "after_quick"):
            j = json.load(open(os.path.join(d, r, phase + ".json")))
            recs = {x["M"]: x for x in j["results"]}
            for kind, key in (("wall", "share_median"), ("cpu", "cpu_share_median")):
                one[(phase, kind)] = {s: 100 * recs[s][key] if recs[s]["verified"] else 0.0 for s in sizes}
            one[(phase, "load")] = (j["load_before"][0], j["load_after"][0])
        runs.append(one)
loads = [l for x in runs for p in ("fallback", "after_quick") for l in x[(p, "load")]]
print("%d runs in %d sets, load average (1 min) %.1f to %.1f" % (len(runs), len(sys.argv) - 1, min(loads), max(loads)))
for kind in ("wall", "cpu"):
    for phase, target in (("fallback", 60), ("after_quick", 85)):
        met = [x for x in runs if x[(phase, kind)][1024] >= target]
        worst = min(runs, key=lambda x: x[(phase, kind)][1024])
        print("%s, %s at 1024 >= %d %%: %d of %d; worst %.0f %% (%s %s, load %.1f-%.1f)" % (
            kind, phase, target, len(met), len(runs), worst[(phase, kind)][1024], worst["set"], worst["run"], *worst[(phase, "load")]))
        gaps = [(max(x[(phase, kind)][1024] - x[(phase, kind)][s] for s in (1000, 1234)), x) for x in runs]
        g, x = max(gaps, key=lambda t: t[0])
        print("    1000 and 1234 within 10 points below 1024: %d of %d; largest gap %.1f (%s %s)" % (
            sum(1 for gg, _ in gaps if gg <= 10), len(runs), g, x["set"], x["run"]))
