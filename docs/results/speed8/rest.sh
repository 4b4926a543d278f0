#!/bin/bash
# Issue 30 (speed8): the sizes a sitting's bench did not reach before its time limit (SIZES, as given), with cuBLAS
# before and after in the same call, as sitting.sh measures them (fresh XDG_DATA_HOME: the trial runs again).
# usage (from the checkout): SIZES=S,S,... bash .carry/speed8/rest.sh
D=.carry/speed8; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning
B=$D/tilescope; J=/tmp/j; mkdir -p $J; export XDG_DATA_HOME=$J/xdg
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $J/device.txt
echo "$SIZES" > $J/sizes.txt
timeout 60 python3 $D/cublas.py $SIZES $OUT/cublas_before.json 2>&1 | grep -v Warn
T0=$(date +%s.%N)
timeout ${BENCH_T:-240} $B bench --kernel fastest --size $SIZES --reps 10 --warmup 2 --json $OUT/bench.json 2>&1 | grep -v "^\[" | tee $J/bench.log
echo "bench wall $(python3 -c "print(round($(date +%s.%N)-$T0,1))") s" | tee -a $J/bench.log
timeout 60 python3 $D/cublas.py $SIZES $OUT/cublas_after.json 2>&1 | grep -v Warn
date -u
cp $XDG_DATA_HOME/tilescope/tuning/*.timed.json $J/timed.json 2>/dev/null; rm -rf $XDG_DATA_HOME
cd /tmp && tar czf $OUT/rest.tgz j && rm -rf /tmp/j
