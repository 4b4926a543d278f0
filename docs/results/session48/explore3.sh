#!/bin/bash
# Session 48 (issue 30 item 1), call 4: the weak shapes of call 3's sitting (H200; a short C with a long K) against
# 128x128 tiles (TSK 16), whole and split, 128x64 tiles with INPLACE 2 split 4 and 8 ways, 64x64 split 12
# and 16 ways, and the pick's point at the padded size (what the copies cost). cuBLAS FP32 (TF32 off) before and after.
# Every bench runs at the padded size P (N and K rounded up to 4): nothing is copied, so these are the kernels' own
# speeds. (Written to run the other points at the user's size; call 4's step() set the global sz, so they ran at P; the
# script now says so and runs what ran.)
# usage (from the checkout, on the lent machine): D=.carry/s47 bash docs/results/session48/explore3.sh
D=${D:-.carry/s47}; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
mkdir -p /tmp/t48; export TILESCOPE_TUNING_DIR=/tmp/t48 XDG_DATA_HOME=/tmp/xdg48; J=$OUT
ALL=1311x1465x7288,1326x3685x3551,9847x1080x8179,985x8361x8908
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $J/device.txt
timeout 60 python3 $D/cublas.py $ALL $J/cublas_before.json 2>&1 | grep -v Warn
H="TM=8 TN=4 TSK=8 WM=32 WN=64 WNITER=2 PAD=4 NDIV=2 NMUL=1"    # 128x64 (TS 128)
F="TM=4 TN=4 TSK=16 WM=64 WN=64 WNITER=4 PAD=4 NDIV=1 NMUL=1"   # 128x128 (TS 128)
S="TM=8 TN=4 TSK=8 WM=32 WN=64 WNITER=2 PAD=4 NDIV=1 NMUL=1"    # 64x64 (TS 64)
step() { local name=$1 kern=$2 ts=$3 ps=$4 sz=$5 a=""; for p in $ps; do a="$a --param $p"; done
  echo "$name $(timeout 40 $D/tilescope bench --kernel $kern --tile $ts $a --size $sz --reps 10 --warmup 2 --json $J/$name.json 2>&1 | grep -v "^\[" | tail -1 | cut -c1-130)"; }
for z in 1311x1465x7288:a 1326x3685x3551:b 9847x1080x8179:c 985x8361x8908:d; do sz=${z%:*}; n=${z#*:}
  P=$(python3 -c "import sys; m,n,k=map(int,'$sz'.split('x')); print('%dx%dx%d'%(m,(n+3)//4*4,(k+3)//4*4))")
  step ${n}_s8_pad splitk 64 "$S INPLACE=0 SLICES=8" $P
  step ${n}_f_wt warp_tile 128 "$F INPLACE=0" $P
  for s in 2 3 4 6; do step ${n}_f_s$s splitk 128 "$F INPLACE=0 SLICES=$s" $P; done
  for s in 4 8; do step ${n}_h_s${s}_i2 splitk 128 "$H INPLACE=2 SLICES=$s" $P; done
  for s in 12 16; do step ${n}_s_s$s splitk 64 "$S INPLACE=0 SLICES=$s" $P; done
done
timeout 60 python3 $D/cublas.py $ALL $J/cublas_after.json 2>&1 | grep -v Warn
date -u
