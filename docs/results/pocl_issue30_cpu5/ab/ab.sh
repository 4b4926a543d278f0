#!/bin/bash
# A/B: main's binary (no skew) against this branch's, alternating, paired shares at 1024,1000,1234
for i in 1 2; do
 for b in old new; do
  [ $b = old ] && B=/work/main/build/tilescope || B=/work/wt-cpu5/build/tilescope
  export TILESCOPE_TUNING_DIR=$(mktemp -d) XDG_DATA_HOME=$(mktemp -d)
  $B ceilings --device pocl --against cpu_panel --size 1024,1000,1234 --pairs 20 --json ab_${b}_$i.json 2>/dev/null > ab_${b}_$i.log
  python3 -c "
import json,sys; j=json.load(open('ab_${b}_$i.json'))
print('$b $i', ' '.join('%d: wall %.0f%% cpu %.0f%% (ran_at %s)'%(r['M'],100*r['share_median'],100*r['cpu_share_median'],r.get('ran_at','?')) for r in j['results']), 'load', j['load_before'][0])"
 done
done
