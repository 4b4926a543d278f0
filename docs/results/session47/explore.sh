#!/bin/bash
# Session 47 (issue 30 item 1): what the copies cost at the weak draws of sessions 45-46, and whether reading A and B in
# place (INPLACE 2, a float per work-item) pays at the 128-row tiles there. At each shape: the pick's point on padded
# copies (INPLACE 0), the same point in place (2), and on copies at the padded size itself (no copies made: the
# kernel's own speed); at the warp_tile shapes also the 128x64 point split in two (SLICES 2). cuBLAS FP32 (TF32 off)
# before and after. Each bench verified against the CPU reference.
# usage (from the checkout, on the lent machine): D=.carry/s46 bash docs/results/session47/explore.sh
D=${D:-.carry/s46}; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
mkdir -p /tmp/t47; export TILESCOPE_TUNING_DIR=/tmp/t47 XDG_DATA_HOME=/tmp/xdg47; J=/tmp/e47; mkdir -p $J
ALL=9847x1080x8179,2015,3807x638x3879,1575x1016x8803,2855,7411x1243x7136
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $J/device.txt
timeout 70 python3 $D/cublas.py $ALL $J/cublas_before.json 2>&1 | grep -v Warn
H="TM=8 TN=4 TSK=8 WM=32 WN=64 WNITER=2 PAD=4 NDIV=2 NMUL=1"    # 128x64 (TS 128)
F="TM=4 TN=4 TSK=16 WM=64 WN=64 WNITER=4 PAD=4 NDIV=1 NMUL=1"   # 128x128 (TS 128; 2015's pick)
S="TM=8 TN=4 TSK=8 WM=32 WN=64 WNITER=2 PAD=4 NDIV=1 NMUL=1"    # 64x64 (TS 64)
W="TM=8 TN=4 TSK=16 WM=32 WN=64 WNITER=2 PAD=4 NDIV=1 NMUL=2"   # 64x128 (TS 64; 3807x638x3879's pick)
step() { name=$1; kern=$2; ts=$3; ps=$4; sz=$5; a=""; for p in $ps; do a="$a --param $p"; done; echo "== $name $(date -u +%T)"
  timeout 60 $D/tilescope bench --kernel $kern --tile $ts $a --size $sz --reps 10 --warmup 2 --json $J/$name.json 2>&1 | grep -v "^\[" | cut -c1-170; }
for i in 0 2; do
  step a_wt_h_i$i warp_tile 128 "$H INPLACE=$i" 9847x1080x8179
  step a_sk2_h_i$i splitk 128 "$H INPLACE=$i SLICES=2" 9847x1080x8179
  step b_wt_f_i$i warp_tile 128 "$F INPLACE=$i" 2015
  step b_wt_h_i$i warp_tile 128 "$H INPLACE=$i" 2015
  step c_sk8_w_i$i splitk 64 "$W INPLACE=$i SLICES=8" 3807x638x3879
  step c_sk8_s_i$i splitk 64 "$S INPLACE=$i SLICES=8" 3807x638x3879
  step d_sk5_s_i$i splitk 64 "$S INPLACE=$i SLICES=5" 1575x1016x8803
  step e_sk4_s_i$i splitk 64 "$S INPLACE=$i SLICES=4" 2855
  step e_wt_h_i$i warp_tile 128 "$H INPLACE=$i" 2855
  step f_wt_h_i$i warp_tile 128 "$H INPLACE=$i" 7411x1243x7136
  step f_wt_s_i$i warp_tile 64 "$S INPLACE=$i" 7411x1243x7136
done
step a_wt_h_pad warp_tile 128 "$H INPLACE=0" 9847x1080x8180
step b_wt_f_pad warp_tile 128 "$F INPLACE=0" 2016
step c_sk8_w_pad splitk 64 "$W INPLACE=0 SLICES=8" 3807x640x3880
step d_sk5_s_pad splitk 64 "$S INPLACE=0 SLICES=5" 1575x1016x8804
step e_sk4_s_pad splitk 64 "$S INPLACE=0 SLICES=4" 2856
step f_wt_h_pad warp_tile 128 "$H INPLACE=0" 7411x1244x7136
timeout 70 python3 $D/cublas.py $ALL $J/cublas_after.json 2>&1 | grep -v Warn
date -u; cd /tmp && tar czf $OUT/e47.tgz e47
