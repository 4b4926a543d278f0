#!/bin/bash
# Issue 30 item 1, one sitting: cuBLAS before, tilescope (padded warp_tile; splitk for the tiny outputs) at sizes
# drawn at random and the held-out sizes, cuBLAS after. Embedded tuning only.
D=.carry/speed; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=libnvidia-opencl.so.1 PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$(mktemp -d)
B=$D/tilescope
DRAW="$1"; HELD=1234,2500,3333,4097,5555,7777,9000,10000,1234x5678x910
TINY=96x6000x9000,128x128x65536
date -u; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,driver_version --format=csv,noheader
timeout 100 python3 $D/cublas.py $DRAW,$HELD,$TINY $OUT/cublas_before.json 2>&1 | grep -v Warn
timeout 330 $B bench --kernel warp_tile --size $DRAW,$HELD --reps 10 --warmup 2 --json $OUT/bench.json 2>&1 | grep -v "^\["
timeout 40 $B bench --kernel warp_tile,splitk --size $TINY --reps 10 --warmup 2 --json $OUT/bench_tiny.json 2>&1 | grep -v "^\["
timeout 100 python3 $D/cublas.py $DRAW,$HELD,$TINY $OUT/cublas_after.json 2>&1 | grep -v Warn
date -u
