#!/usr/bin/env bash
# cache6, device call 5 (issue 31): how much ncu's figures move from one cold launch to the next:
# reg2d and reg2d_tpad at 640, 1,408 and 1,536^3, and naive at 320^3, five times each, with
# caches_heldout.sh's metrics. Writes $OUT/repeat.tgz.
set -u
export PATH=$PATH:/usr/local/cuda/bin
o=$OUT/repeat; mkdir -p $o; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $o/gpu.txt
nvcc -O3 -arch=sm_90 -o /tmp/tw scripts/validation/caches_twins.cu || exit 1
metrics=$(grep -A3 '^metrics=' scripts/validation/caches_heldout.sh | tr -d '\\\n' | sed 's/^metrics=//')
for i in 1 2 3 4 5; do
  for sk in 640:reg2d,reg2d_tpad 1408:reg2d,reg2d_tpad 1536:reg2d,reg2d_tpad 320:naive,tiled_wpt; do
    timeout 60 ncu --metrics "$metrics" --csv /tmp/tw ${sk%%:*} ${sk#*:} > $o/ncu_${sk%%:*}_$i.csv 2>>$o/err.txt
  done
done
ls $o | wc -l; tar czf $OUT/repeat.tgz -C $OUT repeat && rm -rf $o
