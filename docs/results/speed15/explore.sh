#!/bin/bash
# speed15 (issue 30 item 1): one operand copied, the other read in place. At the four one-short-side weak shapes
# (session 44) and two short-K shapes, the pick's point (splitk TS 64 x TSK 8, SLICES 8 or 4; warp_tile TS 64 at the
# short K) timed on padded copies (INPLACE 0), both read in place (2), A in place + B copied (3), B in place + A
# copied (4), each verified; the same steps again at the end (the spread), main's binary at 0 and 2 (the kernel's
# restructured loads cost nothing at those); cuBLAS FP32 (TF32 off) before and after.
# usage (from the checkout, on the lent machine): bash .carry/speed15/explore.sh
D=.carry/speed15; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning XDG_DATA_HOME=/tmp/xdg15; J=/tmp/e15; mkdir -p $J $D/tuning
S8=3286x571x7062,1481x709x8271,529x1701x2138; S4=8797x659x1841; WT=2248x1853x646,3001x2503x701
ALL=$S8,$S4,$WT
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $J/device.txt
timeout 60 python3 $D/cublas.py $ALL $J/cublas_before.json 2>&1 | grep -v Warn
P64="TM=8 TN=4 TSK=8 WM=32 WN=64 WNITER=2 PAD=4 NDIV=1 NMUL=1"
step() { name=$1; bin=$2; kern=$3; ps=$4; sz=$5; a=""; for p in $ps; do a="$a --param $p"; done; echo "== $name $(date -u +%T)"
  timeout 60 $D/$bin bench --kernel $kern --tile 64 $a --size $sz --reps 10 --warmup 2 --json $J/$name.json 2>&1 | grep -v "^\[" | cut -c1-150; }
for r in "" _again; do
  for i in 0 2 3 4; do
    step s8_i$i$r tilescope splitk "$P64 INPLACE=$i SLICES=8" $S8
    step s4_i$i$r tilescope splitk "$P64 INPLACE=$i SLICES=4" $S4
    step wt_i$i$r tilescope warp_tile "$P64 INPLACE=$i" $WT
  done
  [ -z "$r" ] && for i in 0 2; do
    step main_s8_i$i tilescope_main splitk "$P64 INPLACE=$i SLICES=8" $S8
    step main_s4_i$i tilescope_main splitk "$P64 INPLACE=$i SLICES=4" $S4
    step main_wt_i$i tilescope_main warp_tile "$P64 INPLACE=$i" $WT
  done
done
timeout 60 python3 $D/cublas.py $ALL $J/cublas_after.json 2>&1 | grep -v Warn
date -u; cd /tmp && tar czf $OUT/e15.tgz e15
