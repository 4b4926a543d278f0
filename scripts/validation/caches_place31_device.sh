#!/usr/bin/env bash
# cache6, device call 1 (run as .carry/cache6/place.sh): where each block of the twins ran (%smid, start time), to find why
# reg2d_tpad 1536^3 hits 10 % in L1 on the GPU and 0.7 % in the model. Writes $OUT/place_GPU.csv.
set -u
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -o 'H[12]00' | tr H h | head -1)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu_$gpu.txt
/usr/local/cuda/bin/nvcc -O3 -arch=sm_90 -o /tmp/tw scripts/validation/caches_twins.cu || exit 1
p=$OUT/place_$gpu.csv
for s in 1536 1536 1408 1280 1728 1024 2048 1920 896 448; do /tmp/tw $s reg2d_tpad $p; done
for s in 1536 1408 1728; do /tmp/tw $s reg2d,tiled_wpt $p; done
for s in 1024 1536; do /tmp/tw $s tiled $p; done
for s in 1536; do /tmp/tw $s naive $p; done
wc -l $p; gzip $p
