#!/bin/bash
# Issue 30 (speed9): one sitting on the lent GPU with C stored in place on padded copies (no copy of C back) and the
# pick timed at shapes that are no table row (speed7): sizes drawn here (draw-sizes, seeds printed), cuBLAS before,
# `bench --kernel fastest` on the draw (and issue 30's held-out list, HELD; empty to leave it out), cuBLAS after.
# speed7's sitting.sh with the held-out list back and the small files packed into one archive (8 files come back).
# usage (from the checkout): [HELD=...] [BENCH_T=seconds] bash .carry/s43/sitting.sh (session43: the carry folder .carry/s43: tilescope built from main, lib/, cublas.py, draw-sizes, tuning/ empty)
D=.carry/s43; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning   # empty: the embedded tables of the build
B=$D/tilescope; J=/tmp/j; mkdir -p $J; export XDG_DATA_HOME=$J/xdg
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $J/device.txt
SQD=$(python3 $D/draw-sizes --squares 12 --shapes 0 --min 1000 --max 10000 2>$J/seed_squares); echo "squares $(cat $J/seed_squares): $SQD"
SHD=$(python3 $D/draw-sizes --squares 0 --shapes 12 --min 512 2>$J/seed_shapes); echo "shapes $(cat $J/seed_shapes): $SHD"
HELD=${HELD-1234,2500,3333,4097,5555,7777,9000,10000,1234x5678x910,96x6000x9000,128x128x65536,256x512x32768,64x64x131072}
ALL=$SQD,$SHD${HELD:+,$HELD}
echo "$ALL" > $J/sizes.txt
timeout 70 python3 $D/cublas.py $ALL $OUT/cublas_before.json 2>&1 | grep -v Warn
T0=$(date +%s.%N)
timeout ${BENCH_T:-200} $B bench --kernel fastest --size $ALL --reps 10 --warmup 2 --json $OUT/bench.json 2>&1 | grep -v "^\[" | tee $J/bench.log
echo "bench wall $(python3 -c "print(round($(date +%s.%N)-$T0,1))") s" | tee -a $J/bench.log
timeout 70 python3 $D/cublas.py $ALL $OUT/cublas_after.json 2>&1 | grep -v Warn
date -u
cp $XDG_DATA_HOME/tilescope/tuning/*.timed.json $J/timed.json 2>/dev/null; rm -rf $XDG_DATA_HOME
cd /tmp && tar czf $OUT/sitting.tgz j && rm -rf /tmp/j
