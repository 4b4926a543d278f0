# cpu8: runs of scripts/cpu_peak_share.sh as one markdown table, a row a run: the fallback's and
# (after tune --quick) the stored point's share of the peak at 1024, 1000, 1234 as wall | CPU
# time, the largest gap below 1024 (points, wall | CPU), the load average (1 min) over the run.
# usage: python3 docs/results/pocl_issue30_cpu8/runs_table.py SETDIR...
import json, os, re, sys
sizes = (1024, 1000, 1234)
print("| set/run | fallback: 1024³, 1000³, 1234³ | after `tune --quick`: point | 1024³, 1000³, 1234³ | gap after | load |")
print("|---|---|---|---|---|---|")
for d in sys.argv[1:]:
    for r in sorted((x for x in os.listdir(d) if re.fullmatch(r"run[0-9]+", x)), key=lambda x: int(x[3:])):
        cells, loads = {}, []
        for phase in ("fallback", "after_quick"):
            j = json.load(open(os.path.join(d, r, phase + ".json")))
            recs = {x["M"]: x for x in j["results"]}
            cells[phase] = {s: (100 * recs[s]["share_median"], 100 * recs[s]["cpu_share_median"]) if recs[s]["verified"] else (0, 0)
                            for s in sizes}
            loads += [j["load_before"][0], j["load_after"][0]]
            if phase == "after_quick":
                p = recs[1024]
                point = "TS=%d WGM=%d WGN=%d" % (p["tile"], p["params"]["WGM"], p["params"]["WGN"])
                point += "" if p["params_source"] == "tuned" and p["tile"] != 48 else " (start kept)" if p["tile"] == 48 else ""
        fmt = lambda c: ", ".join("%.0f \\| %.0f" % c[s] for s in sizes)
        a = cells["after_quick"]
        gap = tuple(max(a[1024][k] - a[s][k] for s in (1000, 1234)) for k in (0, 1))
        print("| %s/%s | %s | %s | %s | %.1f \\| %.1f | %.1f–%.1f |" % (os.path.basename(d.rstrip("/")), r, fmt(cells["fallback"]),
                                                                      point, fmt(a), gap[0], gap[1], min(loads), max(loads)))
