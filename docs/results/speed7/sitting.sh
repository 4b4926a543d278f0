#!/bin/bash
# Issue 30 (speed7): one sitting on the lent GPU with the pick timed at shapes that are no table row: sizes drawn
# here (draw-sizes, seeds printed), cuBLAS before, `bench --kernel fastest` on the draw (each size that is no row has
# the points of its 3 nearest rows timed there first; the winner is remembered in a fresh XDG_DATA_HOME, copied
# out as timed.json), cuBLAS after. speed6's sitting.sh, shortened to fit a 300 s call (no held-out list, no tiny
# outputs).  usage (from the checkout): bash .carry/speed7/sitting.sh
D=.carry/speed7; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning   # the branch's tables
B=$D/tilescope; J=$OUT/j; mkdir -p $J; export XDG_DATA_HOME=$J/xdg
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $J/device.txt
SQD=$(python3 $D/draw-sizes --squares 12 --shapes 0 --min 1000 --max 10000 2>$J/seed_squares); echo "squares $(cat $J/seed_squares): $SQD"
SHD=$(python3 $D/draw-sizes --squares 0 --shapes 12 --min 512 2>$J/seed_shapes); echo "shapes $(cat $J/seed_shapes): $SHD"
ALL=$SQD,$SHD
echo "$ALL" > $J/sizes.txt
timeout 50 python3 $D/cublas.py $ALL $OUT/cublas_before.json 2>&1 | grep -v Warn
T0=$(date +%s.%N)
timeout 140 $B bench --kernel fastest --size $ALL --reps 10 --warmup 2 --json $OUT/bench.json 2>&1 | grep -v "^\[" | tee $J/bench.log
echo "bench wall $(python3 -c "print(round($(date +%s.%N)-$T0,1))") s"
timeout 50 python3 $D/cublas.py $ALL $OUT/cublas_after.json 2>&1 | grep -v Warn
date -u
cp $XDG_DATA_HOME/tilescope/tuning/*.timed.json $J/timed.json 2>/dev/null; rm -rf $XDG_DATA_HOME
cp $J/* $OUT/ && rm -rf $J
