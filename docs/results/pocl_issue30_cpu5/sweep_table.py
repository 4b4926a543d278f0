#!/usr/bin/env python3
"""Issue 30 item 4 (cpu5): the paired shares of cpu_panel points, one line per `ceilings --against`
record, in the order they ran (sweep.sh writes sw_<tag>_<i>.json), and per point the lowest share of
any size by CPU time over its sweeps.  usage: sweep_table.py FILE.json...  (the shell sorts
sw_s1_10 before sw_s1_2: pass them in run order, e.g. $(ls -v sweep/sw_*.json))"""
import json, sys
worst = {}
print("record | point | 1024 | 1000 | 1234 (share of the peak, median of the pairs: wall | CPU time) | load")
for path in sys.argv[1:]:
    j = json.load(open(path))
    recs = j["results"]
    r0 = recs[0]
    point = "TS=%d " % r0["tile"] + " ".join("%s=%s" % kv for kv in sorted(r0["params"].items()))
    cells = " | ".join("%.0f | %.0f" % (100 * r["share_median"], 100 * r["cpu_share_median"]) for r in recs)
    print("%s | %s | %s | %.1f" % (path.rsplit("/", 1)[-1], point, cells, j["load_before"][0]))
    low = min(100 * r["cpu_share_median"] for r in recs)
    worst.setdefault(point, []).append((low, j["load_before"][0]))
print()
print("point | lowest size by CPU time in each sweep (load)")
for point, v in worst.items():
    print("%s | %s" % (point, ", ".join("%.0f %% (%.1f)" % x for x in v)))
