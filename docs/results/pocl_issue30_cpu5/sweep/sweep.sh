#!/bin/bash
B=/work/wt-cpu5/build/tilescope
export TILESCOPE_TUNING_DIR=$(mktemp -d) XDG_DATA_HOME=$(mktemp -d)
tag=$1; shift
i=0
while read -r pt; do
  i=$((i+1))
  args=""; for kv in $pt; do case $kv in TS=*) args="$args --tile ${kv#TS=}";; *) args="$args --param $kv";; esac; done
  $B ceilings --device pocl --against cpu_panel --size 1024,1000,1234 --pairs 12 $args --json sw_${tag}_$i.json 2>/dev/null >/dev/null
  python3 -c "
import json; j=json.load(open('sw_${tag}_$i.json'))
print('%-40s'%'$pt', ' '.join('%d: %.0f|%.0f'%(r['M'],100*r['share_median'],100*r['cpu_share_median']) for r in j['results']), 'load %.1f'%j['load_before'][0])"
done
