#!/bin/bash
# Issue 30 item 3, one sitting: cuBLAS before, `bench --kernel fastest` (the rung, tile and parameters
# the embedded tuning's "fastest" table names for the nearest measured shape) at sizes drawn at random,
# the held-out sizes and the tiny outputs, cuBLAS after. Embedded tuning only.
# usage (on the lent machine, from the checkout): bash .carry/speed2/run.sh DRAWN_SIZES
D=.carry/speed2; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$(mktemp -d)
B=$D/tilescope
DRAW="$1"; HELD=1234,2500,3333,4097,5555,7777,9000,10000,1234x5678x910
TINY=96x6000x9000,128x128x65536,256x512x32768,64x64x65536
ALL=$DRAW,$HELD,$TINY
date -u; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,driver_version --format=csv,noheader
timeout 110 python3 $D/cublas.py $ALL $OUT/cublas_before.json 2>&1 | grep -v Warn
timeout 330 $B bench --kernel fastest --size $ALL --reps 10 --warmup 2 --json $OUT/bench.json 2>&1 | grep -v "^\["
timeout 110 python3 $D/cublas.py $ALL $OUT/cublas_after.json 2>&1 | grep -v Warn
date -u
