#!/bin/bash
# speed15, call 2: `bench --kernel fastest` (the trial at each shape, a fresh XDG_DATA_HOME and only the embedded
# tables) at the six shapes of explore.sh, main's binary (6bfa13a's code) then this branch's (the in-place point beside
# warp_tile winners at a short K too), cuBLAS before and after; then the copies point of warp_tile TS 64 at the two
# short-K shapes, main's binary and this branch's alternated three times (does the per-operand kernel cost anything
# at INPLACE 0: explore.sh's one pair differed by 8 % at 2248x1853x646).
# usage (from the checkout, on the lent machine): bash .carry/speed15/fastest.sh
D=.carry/speed15; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning; J=/tmp/f15; mkdir -p $J $D/tuning
ALL=3286x571x7062,1481x709x8271,529x1701x2138,8797x659x1841,2248x1853x646,3001x2503x701; WT=2248x1853x646,3001x2503x701
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $J/device.txt
timeout 60 python3 $D/cublas.py $ALL $J/cublas_before.json 2>&1 | grep -v Warn
for b in main this; do bin=$D/tilescope; [ $b = main ] && bin=$D/tilescope_main; export XDG_DATA_HOME=/tmp/xdg_$b; rm -rf $XDG_DATA_HOME
  echo "== fastest $b $(date -u +%T)"
  timeout 150 $bin bench --kernel fastest --size $ALL --reps 10 --warmup 2 --json $J/fastest_$b.json 2>&1 | grep -v "^\[" | tee $J/fastest_$b.log | cut -c1-150
done
P64="--param TM=8 --param TN=4 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param PAD=4 --param NDIV=1 --param NMUL=1 --param INPLACE=0"
for r in 1 2 3; do for b in main this; do bin=$D/tilescope; [ $b = main ] && bin=$D/tilescope_main
  echo "== wt_i0_${b}_$r $(date -u +%T)"
  timeout 60 $bin bench --kernel warp_tile --tile 64 $P64 --size $WT --reps 10 --warmup 2 --json $J/wt_i0_${b}_$r.json 2>&1 | grep -v "^\[" | cut -c1-150
done; done
timeout 60 python3 $D/cublas.py $ALL $J/cublas_after.json 2>&1 | grep -v Warn
date -u; cd /tmp && tar czf $OUT/f15.tgz f15
