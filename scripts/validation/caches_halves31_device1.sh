#!/usr/bin/env bash
# cache8, device call 1 (issue 31): ncu at 6,144^3 on the H100 (naive, tiled) and, beside it, the
# sampled replays of the two-half L2 (halves=2, copy_ways 16/8) against one L2 (halves=1) on the
# fit set's launches past and near the L2 (1,920^3, 2,048^3, 4,096^3) and at 6,144^3.
set -u
export PATH=$PATH:/usr/local/cuda/bin LD_LIBRARY_PATH=$PWD/.carry/cache8/lib
C=.carry/cache8; S=$C/s; mkdir -p $OUT/ncu
( timeout 200 bash scripts/validation/caches_ncu.sh $OUT/ncu 6144 > $OUT/ncu/log.txt 2>&1 ) &
jobs=$C/jobs.txt; : > $jobs
add() { echo "$*" >> $jobs; }
for gpu in h200 h100; do
  for v in "halves=1" "halves=2 copy_ways=16" "halves=2 copy_ways=8"; do
    add naive_6144 4224 $gpu resident=8 l1_kb=256 lsample=16 $v
    add naive_4096 4224 $gpu resident=8 l1_kb=256 lsample=16 $v
    add tiled_6144 36864 $gpu resident=8 l1_kb=224 lsample=32 $v
    add tiled_4096 0 $gpu resident=8 l1_kb=224 lsample=32 $v
  done
  for v in "halves=2 copy_ways=16" "halves=2 copy_ways=8" "halves=2 copy_ways=4"; do
    add naive_2048 0 $gpu resident=8 l1_kb=256 lsample=32 $v
    add tiled_1920 0 $gpu resident=8 l1_kb=224 lsample=16 $v
  done
done
run1() { local t0=$(date +%s); local r; local left=$(( DEADLINE - t0 )); [ $left -gt 10 ] || { echo "$* | skipped" >> $OUT/all.txt; return; }
  r=$(timeout $left $C/cache_replay smodel $S/$1.sstream "${@:2}" 2>&1);
  echo "$* | $r | $(echo $(( $(date +%s) - t0 ))) s" >> $OUT/all.txt; }
export -f run1; export C S OUT; export DEADLINE=$(( $(date +%s) + 195 ))
grep -E '^naive_(6144|4096)' $jobs > $jobs.1; grep -vE '^naive_(6144|4096)' $jobs >> $jobs.1; mv $jobs.1 $jobs
nproc > $OUT/nproc.txt
xargs -P 15 -L 1 bash -c 'run1 "$@"' _ < $jobs
wait
echo done >> $OUT/all.txt
