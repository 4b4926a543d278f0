#!/bin/bash
# speed13 (issue 30 item 1): round 2 where round 1 has one point, on the H200, one call: cuBLAS before,
# main's binary (tilescope_before: /work/main 9d7c9de, speed12's round 2) at SIZES with a fresh XDG_DATA_HOME,
# this branch's binary (tilescope) at SIZES with a fresh XDG_DATA_HOME (its first run: the trials), the same
# binary again with that XDG_DATA_HOME (the remembered rows: nothing timed), cuBLAS after.
# usage (from the checkout): bash .carry/speed13/sitting.sh (carry folder .carry/speed13: tilescope,
# tilescope_before, lib/ (ldd's libraries), cublas.py (= docs/results/speed5/cublas.py), tuning/ empty; gzipped)
D=.carry/speed13; for z in $D/*.gz $D/lib/*.gz; do [ -f "$z" ] && gunzip -f "$z"; done; chmod +x $D/tilescope $D/tilescope_before
export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning   # empty: the embedded tables of each build
SIZES=${SIZES-3900x4779x1928,2500,5781,4097,6000}
J=/tmp/j; mkdir -p $J $D/tuning
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $J/device.txt
echo "$SIZES" > $J/sizes.txt
timeout 60 python3 $D/cublas.py $SIZES $OUT/cublas_before.json 2>&1 | grep -v Warn
run() {  # name binary xdg
  local T0=$(date +%s.%N); echo "== $1: $2 (XDG_DATA_HOME $3)"
  XDG_DATA_HOME=$3 timeout ${BENCH_T:-75} $2 bench --kernel fastest --size $SIZES --reps 10 --warmup 2 --json $OUT/$1.json 2>&1 | grep -v "^\[" | tee $J/$1.log
  echo "$1 wall $(python3 -c "print(round($(date +%s.%N)-$T0,1))") s" | tee -a $J/$1.log; }
run before $D/tilescope_before $J/xdg_before
run after $D/tilescope $J/xdg
run after_again $D/tilescope $J/xdg
timeout 60 python3 $D/cublas.py $SIZES $OUT/cublas_after.json 2>&1 | grep -v Warn
date -u
cp $J/xdg/tilescope/tuning/*.timed.json $J/timed.json 2>/dev/null; cp $J/xdg_before/tilescope/tuning/*.timed.json $J/timed_before.json 2>/dev/null
rm -rf $J/xdg $J/xdg_before; cd /tmp && tar czf $OUT/sitting.tgz j && rm -rf /tmp/j
