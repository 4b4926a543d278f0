# What the trial's second round (the winner beside one K-slice fewer and one more) did in a sitting:
# per shape with a round 2, the winner's round-1 and round-2 figures, its neighbours', and which ran.
# usage: python3 rounds.py DIR   (DIR holds the sitting's bench.json)
import json, sys
recs = json.load(open(sys.argv[1] + "/bench.json"))
tot = n2 = won = 0
for r in recs:
    t = r.get("pick_trials") or []
    r2 = [x for x in t if x.get("round") == 2]
    tot += r.get("pick_trial_s", 0)
    if not r2:
        continue
    n2 += 1
    lab = lambda x: "%s S=%s" % (x["kernel"], x["params"].get("SLICES", 1))
    best = max(r2, key=lambda x: x["gflops"])
    if best is not r2[0]:
        won += 1
    print("%sx%sx%s: round 1 winner %s; round 2: %s; runs %s (%.1f %% over the winner's round-2 figure); bench %.0f GFLOP/s" % (
        r["M"], r["N"], r["K"], lab(r2[0]), ", ".join("%s %.0f" % (lab(x), x["gflops"]) for x in r2), lab(best),
        100 * (best["gflops"] / r2[0]["gflops"] - 1) if r2[0]["gflops"] else 0, r["gflops"]))
print("shapes with a round 2: %d, a neighbour ran at %d; trials in all %.1f s" % (n2, won, tot))
