#!/bin/bash
# Session 47 (issue 30 item 1), call 2: the 128x128 point (TS 128, TSK 16; the H200's at 2001^3), whole and split, and the
# 128x64 point split in place, at the H100 draw's three weakest (985x8361x8908, 545x4366x1795, 2845^3) and the held
# 3807x638x3879, none of which the trial's rows offer; the trial's picks there on copies and at the padded size for
# reference. cuBLAS FP32 (TF32 off) before and after; each bench verified.
# usage (from the checkout, on the lent machine): D=.carry/s47 bash docs/results/session47/explore2.sh
D=${D:-.carry/s47}; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
mkdir -p /tmp/t47; export TILESCOPE_TUNING_DIR=/tmp/t47 XDG_DATA_HOME=/tmp/xdg47; J=/tmp/e47b; mkdir -p $J
ALL=985x8361x8908,545x4366x1795,2845,3807x638x3879
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $J/device.txt
timeout 70 python3 $D/cublas.py $ALL $J/cublas_before.json 2>&1 | grep -v Warn
H="TM=8 TN=4 TSK=8 WM=32 WN=64 WNITER=2 PAD=4 NDIV=2 NMUL=1"    # 128x64 (TS 128)
F="TM=4 TN=4 TSK=16 WM=64 WN=64 WNITER=4 PAD=4 NDIV=1 NMUL=1"   # 128x128 (TS 128)
S="TM=8 TN=4 TSK=8 WM=32 WN=64 WNITER=2 PAD=4 NDIV=1 NMUL=1"    # 64x64 (TS 64)
W="TM=8 TN=4 TSK=16 WM=32 WN=64 WNITER=2 PAD=4 NDIV=1 NMUL=2"   # 64x128 (TS 64)
step() { name=$1; kern=$2; ts=$3; ps=$4; sz=$5; a=""; for p in $ps; do a="$a --param $p"; done; echo "== $name $(date -u +%T)"
  timeout 60 $D/tilescope bench --kernel $kern --tile $ts $a --size $sz --reps 10 --warmup 2 --json $J/$name.json 2>&1 | grep -v "^\[" | tail -1 | cut -c1-150; }
step a_pick splitk 64 "$W INPLACE=0 SLICES=4" 985x8361x8908
step a_pick_pad splitk 64 "$W INPLACE=0 SLICES=4" 985x8364x8908
step a_f_wt warp_tile 128 "$F INPLACE=0" 985x8361x8908
step a_f_s2 splitk 128 "$F INPLACE=0 SLICES=2" 985x8361x8908
step a_f_s4 splitk 128 "$F INPLACE=0 SLICES=4" 985x8361x8908
step a_h_s2_i2 splitk 128 "$H INPLACE=2 SLICES=2" 985x8361x8908
step a_h_s4_i2 splitk 128 "$H INPLACE=2 SLICES=4" 985x8361x8908
step b_pick splitk 64 "$S INPLACE=0 SLICES=7" 545x4366x1795
step b_f_s4 splitk 128 "$F INPLACE=0 SLICES=4" 545x4366x1795
step b_h_s4_i2 splitk 128 "$H INPLACE=2 SLICES=4" 545x4366x1795
step c_pick warp_tile 64 "$W INPLACE=0" 2845
step c_f_wt warp_tile 128 "$F INPLACE=0" 2845
step c_f_s2 splitk 128 "$F INPLACE=0 SLICES=2" 2845
step c_h_s2_i2 splitk 128 "$H INPLACE=2 SLICES=2" 2845
step d_pick splitk 64 "$S INPLACE=0 SLICES=7" 3807x638x3879
step d_f_s4 splitk 128 "$F INPLACE=0 SLICES=4" 3807x638x3879
step d_f_s8 splitk 128 "$F INPLACE=0 SLICES=8" 3807x638x3879
step d_h_s4_i2 splitk 128 "$H INPLACE=2 SLICES=4" 3807x638x3879
timeout 70 python3 $D/cublas.py $ALL $J/cublas_after.json 2>&1 | grep -v Warn
date -u; cd /tmp && tar czf $OUT/e47b.tgz e47b
