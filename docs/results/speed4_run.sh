#!/bin/bash
# Issue 30, speed4's sitting: cuBLAS before, `bench --kernel fastest` (the branch's tuning files) at the sizes
# drawn at random after the table's last change, the held-out sizes and the tiny outputs (held-out ones
# drawn too), cuBLAS after.
# usage (on the lent machine, from the checkout): bash .carry/speed4/run.sh DRAWN_SIZES TINY_HELD_OUT
D=.carry/speed4; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
# The branch's tuning files, carried: bench reads ./assets/tuning (here the checkout's, not the branch's)
# after TILESCOPE_TUNING_DIR, so this folder comes first.
export TILESCOPE_TUNING_DIR=$D/tuning
B=$D/tilescope
DRAW="$1"; TINYHELD="$2"; HELD=1234,2500,3333,4097,5555,7777,9000,10000,1234x5678x910
TINY=96x6000x9000,128x128x65536,256x512x32768,64x64x65536,64x64x131072
ALL=$DRAW,$HELD,$TINY,$TINYHELD
date -u; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,driver_version --format=csv,noheader
timeout 100 python3 $D/cublas.py $ALL $OUT/cublas_before.json 2>&1 | grep -v Warn
timeout 300 $B bench --kernel fastest --size $ALL --reps 10 --warmup 2 --json $OUT/bench.json 2>&1 | grep -v "^\[" | tee $OUT/bench.log
timeout 100 python3 $D/cublas.py $ALL $OUT/cublas_after.json 2>&1 | grep -v Warn
date -u
