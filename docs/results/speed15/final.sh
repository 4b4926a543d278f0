#!/bin/bash
# speed15, call 3 (the branch's final code: main's kernel, the trial's in-place point beside warp_tile winners at
# K <= 1024 too): `bench --kernel fastest` (fresh XDG_DATA_HOME each, only the embedded tables) at the six shapes of
# explore.sh, main's binary then this branch's, cuBLAS before and after; then a fresh draw (draw-sizes --squares 0
# --shapes 12 --min 512, seed printed) with this branch's binary alone, stopped at DRAW_T seconds.
# usage (from the checkout, on the lent machine): [DRAW_T=seconds] bash .carry/speed15/final.sh
D=.carry/speed15; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning; J=/tmp/c3; mkdir -p $J $D/tuning
SIX=3286x571x7062,1481x709x8271,529x1701x2138,8797x659x1841,2248x1853x646,3001x2503x701
SHD=$(python3 $D/draw-sizes --squares 0 --shapes 12 --min 512 2>$J/seed_shapes); echo "shapes $(cat $J/seed_shapes): $SHD"
echo "$SHD" > $J/draw.txt
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $J/device.txt
timeout 60 python3 $D/cublas.py $SIX,$SHD $J/cublas_before.json 2>&1 | grep -v Warn
for b in main this; do bin=$D/tilescope; [ $b = main ] && bin=$D/tilescope_main; export XDG_DATA_HOME=/tmp/xdg_$b; rm -rf $XDG_DATA_HOME
  echo "== six $b $(date -u +%T)"
  timeout 90 $bin bench --kernel fastest --size $SIX --reps 10 --warmup 2 --json $J/six_$b.json 2>&1 | grep -v "^\[" > $J/six_$b.log
  grep -v "^picked\|^bench:" $J/six_$b.log | cut -c1-110
done
export XDG_DATA_HOME=/tmp/xdg_draw; echo "== draw this $(date -u +%T)"
timeout ${DRAW_T:-110} $D/tilescope bench --kernel fastest --size $SHD --reps 10 --warmup 2 --json $J/draw_this.json 2>&1 | grep -v "^\[" > $J/draw_this.log
grep -v "^picked\|^bench:" $J/draw_this.log | cut -c1-110
timeout 60 python3 $D/cublas.py $SIX,$SHD $J/cublas_after.json 2>&1 | grep -v Warn
date -u; cd /tmp && tar czf $OUT/c3.tgz c3
