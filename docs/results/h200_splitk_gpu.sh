#!/bin/bash
# Issue 20, item 2, one sitting on the lent H200: cuBLAS before; splitk and warp_tile with the
# committed tuning (bench --reps 10 --warmup 2) at the five skinny and flat shapes and 4096^3;
# splitk at 64x8192x8192 with 4 and 16 slices beside the default 8; cuBLAS after.
D=.carry/splitk; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=libnvidia-opencl.so.1 PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$(mktemp -d)   # empty: the committed (embedded) tuning only
B=$D/tilescope
date -u; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,driver_version --format=csv,noheader
$B devices | head -4
SH=8192x8192x256,256x8192x8192,8192x256x8192,64x8192x8192,2048x2048x32768
SK=256x8192x8192,8192x256x8192,64x8192x8192,2048x2048x32768
timeout 100 python3 $D/cublas.py $SH,4096 $OUT/cublas_before.json 2>&1 | grep -v Warn
timeout 150 $B bench --kernel splitk --size $SK --reps 10 --warmup 2 --json $OUT/bench_splitk.json 2>&1 | grep -v "^\["
timeout 150 $B bench --kernel warp_tile --size $SH,4096 --reps 10 --warmup 2 --json $OUT/bench_warp_tile.json 2>&1 | grep -v "^\["
P="--tile 64 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param TM=8 --param TN=4 --param PAD=4"
for s in 4 16; do
  timeout 60 $B bench --kernel splitk --size 64x8192x8192 $P --param SLICES=$s --reps 10 --warmup 2 --json $OUT/bench_splitk_slices$s.json 2>&1 | grep -v "^\["
done
timeout 100 python3 $D/cublas.py $SH,4096 $OUT/cublas_after.json 2>&1 | grep -v Warn
date -u
