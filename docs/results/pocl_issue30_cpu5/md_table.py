import json, sys, os, re
d = sys.argv[1]
print("| run | phase: point | 1024³ | 1000³ | 1234³ | load |")
print("|---|---|---|---|---|---|")
for r in (1, 2, 3):
    for phase in ("fallback", "after_quick"):
        j = json.load(open(os.path.join(d, "run%d" % r, phase + ".json")))
        recs = {x["M"]: x for x in j["results"]}
        p = recs[1024]
        pt = "TS=%d " % p["tile"] + " ".join("%s=%s" % kv for kv in sorted(p["params"].items()) if not (kv[0] == "VW" and kv[1] == 16))
        if phase == "fallback":
            label = "fallback `[defaults for CPUs]`" if r == 1 else "fallback"
        else:
            log = open(os.path.join(d, "run%d" % r, "tune_quick.log")).read().strip().splitlines()[-1]
            if log.startswith("kept"):
                m = re.findall(r"median ([0-9.]+)x", log)
                why = "kept the start" + (" (pairs: %s)" % ", ".join(x + "×" for x in m) if m else " (nothing faster)")
            else:
                m = re.findall(r"median ([0-9.]+)x", log)
                why = "stored %s (pairs: %s)" % (pt, ", ".join(x + "×" for x in m))
            label = "after `tune --quick`: " + why
        cells = " | ".join("%.0f %% \\| %.0f %%" % (100 * recs[s]["share_median"], 100 * recs[s]["cpu_share_median"]) for s in (1024, 1000, 1234))
        print("| %d | %s | %s | %.1f–%.1f |" % (r, label, cells, j["load_before"][0], j["load_after"][0]))
