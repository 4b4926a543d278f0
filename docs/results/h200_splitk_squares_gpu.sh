#!/bin/bash
# Issue 20, split-K branch, second call of the same session: warp_tile.cl changed (the K loop
# now starts at the group's slice), so warp_tile at squares the edges and the tuning lookup
# treat differently, against cuBLAS measured before and after (same method as h200_splitk_gpu.sh).
D=.carry/splitk; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=libnvidia-opencl.so.1 PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$(mktemp -d)   # empty: the committed (embedded) tuning only
B=$D/tilescope
date -u; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,driver_version --format=csv,noheader
SQ=1000,3000,5000,8000,2048,8192
timeout 100 python3 $D/cublas.py $SQ $OUT/cublas_before.json 2>&1 | grep -v Warn
timeout 200 $B bench --kernel warp_tile --size $SQ --reps 10 --warmup 2 --json $OUT/bench_squares.json 2>&1 | grep -v "^\["
timeout 100 python3 $D/cublas.py $SQ $OUT/cublas_after.json 2>&1 | grep -v Warn
date -u
