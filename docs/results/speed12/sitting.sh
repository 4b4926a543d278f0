#!/bin/bash
# speed12 (issue 30 item 1): one H200 sitting with the wide point in the trial's second round (64x128 tiles, NMUL 2):
# sizes drawn here (draw-sizes, seeds printed), cuBLAS before, `bench --kernel fastest` on the draw and on the weak
# sizes of earlier sittings (HELD), the binary before this change on HELD alone (its own fresh XDG_DATA_HOME), cuBLAS after.
# session43/sitting.sh with the before binary and HELD = the weak draws.
# usage (from the checkout): [HELD=...] [BENCH_T=seconds] bash .carry/speed12/sitting.sh (carry folder .carry/speed12:
# tilescope built from branch speed12, tilescope_before (call 1's binary: main d16edae + the unused GSW define), lib/,
# cublas.py, draw-sizes, tuning/ empty)
D=.carry/speed12; for z in $D/tilescope_before.gz $D/lib/*.gz; do [ -f "$z" ] && gunzip -f "$z"; done; chmod +x $D/tilescope_before 2>/dev/null; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning   # empty: the embedded tables of the build
B=$D/tilescope; J=/tmp/j; mkdir -p $J; export XDG_DATA_HOME=$J/xdg
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $J/device.txt
SQD=$(python3 $D/draw-sizes --squares 12 --shapes 0 --min 1000 --max 10000 2>$J/seed_squares); echo "squares $(cat $J/seed_squares): $SQD"
SHD=$(python3 $D/draw-sizes --squares 0 --shapes 12 --min 512 2>$J/seed_shapes); echo "shapes $(cat $J/seed_shapes): $SHD"
HELD=${HELD-2474,2489,2449,1109,3900x4779x1928,2500,4097}
ALL=$SQD,$SHD${HELD:+,$HELD}
echo "$ALL" > $J/sizes.txt
timeout 70 python3 $D/cublas.py $ALL $OUT/cublas_before.json 2>&1 | grep -v Warn
T0=$(date +%s.%N)
timeout ${BENCH_T:-200} $B bench --kernel fastest --size $ALL --reps 10 --warmup 2 --json $OUT/bench.json 2>&1 | grep -v "^\[" | tee $J/bench.log
echo "bench wall $(python3 -c "print(round($(date +%s.%N)-$T0,1))") s" | tee -a $J/bench.log
if [ -n "$HELD" ]; then echo "== before: $D/tilescope_before on $HELD"
  XDG_DATA_HOME=$J/xdg_before timeout ${BEFORE_T:-120} $D/tilescope_before bench --kernel fastest --size $HELD --reps 10 --warmup 2 \
    --json $OUT/bench_before.json 2>&1 | grep -v "^\[" | tee $J/bench_before.log; fi
timeout 70 python3 $D/cublas.py $ALL $OUT/cublas_after.json 2>&1 | grep -v Warn
date -u
cp $XDG_DATA_HOME/tilescope/tuning/*.timed.json $J/timed.json 2>/dev/null; rm -rf $XDG_DATA_HOME $J/xdg_before
cd /tmp && tar czf $OUT/sitting.tgz j && rm -rf /tmp/j
