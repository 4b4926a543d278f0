# A set of scripts/cpu_peak_share.sh as a markdown table (cpu5's md_table.py; cpu7: a look at the
# point the defaults for CPUs name, "also_try", is marked "named").
# usage: python3 docs/results/pocl_issue30_cpu7/md_table.py SETDIR
import json, sys, os, re
d = sys.argv[1]


def looks(log):
    # The paired look's medians per size; since cpu6 also by CPU time (the pairs taken are in the
    # log), and one look per candidate, "/" between candidates:
    # "median 1.15x (by CPU time 0.92x, 30 pairs)" -> "1.15× (CPU 0.92×)".
    out = []
    for part in re.split(r"; (?=TS=)|; before it, ", log):
        one = []
        for wall, extra in re.findall(r"median ([0-9.]+)x(?: \(([^)]*)\))?", part):
            cpu = re.search(r"by CPU time ([0-9.]+)x", extra)
            one.append(wall + "×" + (" (CPU %s×)" % cpu.group(1) if cpu else ""))
        if one:
            out.append(("named: " if "(named by the defaults" in part else "") + ", ".join(one))
    return " / ".join(out)


print("| run | phase: point | 1024³ | 1000³ | 1234³ | load |")
print("|---|---|---|---|---|---|")
runs = sorted(int(x[3:]) for x in os.listdir(d) if re.fullmatch(r"run[0-9]+", x))  # every run of the set
for r in runs:
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
                m = looks(log)
                why = "kept the start" + (" (pairs: %s)" % m if m else " (nothing faster)")
            else:
                won, _, before = log.partition("; before it, ")  # cpu6: the candidates that lost first
                why = "stored %s (pairs: %s%s)" % (pt, looks(won), "; before it, lost: " + looks(before) if before else "")
            label = "after `tune --quick`: " + why
        cells = " | ".join("%.0f %% \\| %.0f %%" % (100 * recs[s]["share_median"], 100 * recs[s]["cpu_share_median"]) for s in (1024, 1000, 1234))
        print("| %d | %s | %s | %.1f–%.1f |" % (r, label, cells, j["load_before"][0], j["load_after"][0]))
