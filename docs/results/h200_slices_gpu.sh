#!/bin/bash
# Issue 30 item 2: splitk with many more K-slices at the tiny-output shapes (H200), cuBLAS before and after.
D=.carry/speed; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=libnvidia-opencl.so.1 PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$(mktemp -d)
S=128x128x65536,64x64x131072,256x512x32768
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 60 python3 $D/cublas.py $S $OUT/cublas_before.json 2>&1 | grep -v Warn
for s in 8 32 64 128 256; do timeout 60 $D/tilescope bench --kernel splitk --size $S --tile 64 --param SLICES=$s --reps 10 --warmup 2 --json $OUT/splitk_$s.json 2>&1 | grep -v "^\[" | grep splitk | awk '{print $1, $2, $6, $8}'; done
timeout 60 python3 $D/cublas.py $S $OUT/cublas_after.json 2>&1 | grep -v Warn
date -u
