#!/bin/bash
# Issue 30, session 45: the weak shapes only (no draw), on the code of sitting.sh's call: cuBLAS before,
# `bench --kernel fastest` at SIZES (a fresh tuning folder: the trial runs at each), cuBLAS after.
# usage (from the checkout): SIZES=... [BENCH_T=seconds] bash .carry/s45/weak.sh (carry .carry/s45 as sitting.sh's)
D=.carry/s45; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning   # empty: the embedded tables of the build
B=$D/tilescope; J=/tmp/j; mkdir -p $J; export XDG_DATA_HOME=$J/xdg
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $J/device.txt
ALL=${SIZES:?SIZES: the shapes, comma-separated}
echo "$ALL" > $J/sizes.txt
timeout 70 python3 $D/cublas.py $ALL $OUT/cublas_before.json 2>&1 | grep -v Warn
T0=$(date +%s.%N)
timeout ${BENCH_T:-200} $B bench --kernel fastest --size $ALL --reps 10 --warmup 2 --json $OUT/bench.json 2>&1 | grep -v "^\[" | tee $J/bench.log
echo "bench wall $(python3 -c "print(round($(date +%s.%N)-$T0,1))") s" | tee -a $J/bench.log
timeout 70 python3 $D/cublas.py $ALL $OUT/cublas_after.json 2>&1 | grep -v Warn
date -u
cp $XDG_DATA_HOME/tilescope/tuning/*.timed.json $J/timed.json 2>/dev/null; rm -rf $XDG_DATA_HOME
cd /tmp && tar czf $OUT/sitting.tgz j && rm -rf /tmp/j
