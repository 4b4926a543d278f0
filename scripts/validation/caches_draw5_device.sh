#!/usr/bin/env bash
# cache6, device calls 2 and 3 (issue 31): ncu on this GPU at draw 5's sizes (seed 190506960:
# 631,1675,307 rounded to multiples of 64: 320, 640, 1664), seven twins, one cold launch each,
# then where each block of reg2d_tpad / reg2d ran. Writes $OUT/GPU.tgz.
set -u
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -o 'H[12]00' | tr H h | head -1)
timeout 300 bash scripts/validation/caches_heldout.sh $OUT/$gpu 320 640 1664 2>&1 | grep -v '^kernel=' 
/usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -o /tmp/tw scripts/validation/caches_twins.cu &&
for s in 320 640 1664 1536 1408 1728; do /tmp/tw $s reg2d_tpad,reg2d $OUT/$gpu/place.csv >/dev/null; done
gzip $OUT/$gpu/place.csv; tar czf $OUT/$gpu.tgz -C $OUT $gpu && rm -rf $OUT/$gpu; ls -la $OUT
