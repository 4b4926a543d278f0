#!/usr/bin/env bash
# Session 46 (issue 31): where each block of reg2d_tpad and reg2d ran at 1,984^3 (draw 7's size where reg2d_tpad
# hits 8.9 % in L1 on the GPU and 0.7 % in the model) and at 1,600^3 (0.1 %): %smid and start time per block,
# caches_twins' place.csv. Run on the GPU machine from a copy holding caches_twins.cu beside this script
# (.carry/place46/). Writes $OUT/place_GPU.csv.gz and $OUT/gpu_GPU.txt.
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -o 'H[12]00' | tr H h | head -1)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu_$gpu.txt
/usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -o /tmp/tw "$here/caches_twins.cu" || exit 1
p=$OUT/place_$gpu.csv
for s in 1984 1984 1600; do /tmp/tw $s reg2d_tpad $p; done
for s in 1984; do /tmp/tw $s reg2d $p; done
wc -l $p; gzip $p
