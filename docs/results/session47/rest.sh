#!/bin/bash
# Session 47: the sizes of a sitting's draw that its bench did not reach (stopped at its time limit), measured in a second
# call the same way (cuBLAS before and after, `bench --kernel fastest --reps 10 --warmup 2` with the trial, the embedded
# tables only, a fresh XDG_DATA_HOME). No sizes are drawn here: SIZES names them.
# usage (from the checkout): SIZES=a,b,c [BENCH_T=seconds] bash docs/results/session47/rest.sh
D=${D:-.carry/s47}; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning
B=$D/tilescope; J=/tmp/j; mkdir -p $J; export XDG_DATA_HOME=$J/xdg
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $J/device.txt
echo "$SIZES" > $J/sizes.txt
timeout 70 python3 $D/cublas.py $SIZES $J/cublas_before.json 2>&1 | grep -v Warn
T0=$(date +%s.%N)
timeout ${BENCH_T:-300} $B bench --kernel fastest --size $SIZES --reps 10 --warmup 2 --json $J/bench.json 2>&1 | grep -v "^\[" > $J/bench.log
echo "bench wall $(python3 -c "print(round($(date +%s.%N)-$T0,1))") s" | tee -a $J/bench.log
timeout 70 python3 $D/cublas.py $SIZES $J/cublas_after.json 2>&1 | grep -v Warn
date -u; rm -rf $XDG_DATA_HOME; cd /tmp && tar czf $OUT/rest.tgz j && rm -rf /tmp/j
