#!/bin/bash
# Issue 30, session 45: one sitting with main after speed14 (INPLACE 2 beside splitk winners on padded copies in round 2):
# sizes drawn here (draw-sizes, seeds printed), cuBLAS before, `bench --kernel fastest` on the draw and on HELD (earlier
# sittings' weak sizes; empty to leave them out), cuBLAS after. session44/sitting.sh with the carry folder renamed, HELD first (the weak shapes of session 44) so a bench stopped at its limit still has them.
# usage (from the checkout): [HELD=...] [BENCH_T=seconds] bash .carry/s45/sitting.sh (session45: the carry folder .carry/s45: tilescope built from main, lib/, cublas.py, draw-sizes, tuning/ empty)
D=${D:-.carry/s45}; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning   # empty: the embedded tables of the build
B=$D/tilescope; J=/tmp/j; mkdir -p $J; export XDG_DATA_HOME=$J/xdg
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $J/device.txt
SQD=$(python3 $D/draw-sizes --squares 12 --shapes 0 --min 1000 --max 10000 2>$J/seed_squares); echo "squares $(cat $J/seed_squares): $SQD"
SHD=$(python3 $D/draw-sizes --squares 0 --shapes 12 --min 512 2>$J/seed_shapes); echo "shapes $(cat $J/seed_shapes): $SHD"
HELD=${HELD-3286x571x7062,8797x659x1841,1481x709x8271,529x1701x2138}
ALL=${HELD:+$HELD,}$SHD,$SQD
echo "$ALL" > $J/sizes.txt
timeout 70 python3 $D/cublas.py $ALL $OUT/cublas_before.json 2>&1 | grep -v Warn
T0=$(date +%s.%N)
timeout ${BENCH_T:-200} $B bench --kernel fastest --size $ALL --reps 10 --warmup 2 --json $OUT/bench.json 2>&1 | grep -v "^\[" | tee $J/bench.log
echo "bench wall $(python3 -c "print(round($(date +%s.%N)-$T0,1))") s" | tee -a $J/bench.log
timeout 70 python3 $D/cublas.py $ALL $OUT/cublas_after.json 2>&1 | grep -v Warn
date -u
cp $XDG_DATA_HOME/tilescope/tuning/*.timed.json $J/timed.json 2>/dev/null; rm -rf $XDG_DATA_HOME
cd /tmp && tar czf $OUT/sitting.tgz j && rm -rf /tmp/j
