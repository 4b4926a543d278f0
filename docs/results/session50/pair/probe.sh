#!/bin/bash
# Session 50 probe (issue 30 item 1): INPLACE 3 (rows that are not float4-aligned read in place as two aligned
# float4s shifted into place, kernels/warp_tile.cl load4_pair) against the padded copies (INPLACE 0) and INPLACE 2 (a
# float per work-item and load) at the points the trial picked at the H200's weak draws, and at the wide and 128x128
# points that won at two others. Every bench verified against the CPU; cuBLAS FP32 (TF32 off) before and after.
# usage (from the checkout, on the lent machine): [ROUNDS=2] [INS="0 2 3"] D=.carry/s47 bash docs/results/session50/pair/probe.sh
D=${D:-.carry/s47}; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
mkdir -p /tmp/t50; export TILESCOPE_TUNING_DIR=/tmp/t50 XDG_DATA_HOME=/tmp/xdg50; J=${OUT:-/tmp/pair_out}; mkdir -p $J
ALL=941x4323x2607,1311x1465x7288,9847x1080x8179,2827x2827x2827,985x8361x8908,1234x1234x1234
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $J/device.txt
timeout 80 python3 $D/cublas.py $ALL $J/cublas_before.json 2>&1 | grep -v Warn
P64="TM=8 TN=4 TSK=8 WM=32 WN=64 WNITER=2 PAD=4 NDIV=1 NMUL=1"      # 64x64, TS 64
H="TM=8 TN=4 TSK=8 WM=32 WN=64 WNITER=2 PAD=4 NDIV=2 NMUL=1"        # 128x64, TS 128
WIDE="TM=8 TN=4 TSK=16 WM=32 WN=64 WNITER=2 PAD=4 NDIV=1 NMUL=2"    # 64x128, TS 64
BIG="TM=4 TN=4 TSK=16 WM=64 WN=64 WNITER=4 PAD=4 NDIV=1 NMUL=1"     # 128x128, TS 128
step() { local name=$1 kern=$2 ts=$3 ps=$4 sz=$5 a="" p; for p in $ps; do a="$a --param $p"; done
  echo "$name $(timeout 60 $D/tilescope bench --kernel $kern --tile $ts $a --size $sz --reps 10 --warmup 2 --json $J/$name.json 2>&1 | grep -v "^\[" | tail -1 | cut -c1-150)"; }
for rep in $(seq ${ROUNDS:-2}); do
for z in "941x4323x2607:a:splitk 64 P64 3" "1311x1465x7288:b:splitk 64 P64 8" "9847x1080x8179:c:splitk 128 H 2" \
         "941x4323x2607:a128:splitk 128 H 3" "2827x2827x2827:d:warp_tile 64 WIDE 1" "985x8361x8908:e:warp_tile 128 BIG 1" \
         "1234x1234x1234:f:warp_tile 64 P64 1" "1234x1234x1234:fw:warp_tile 64 WIDE 1"; do
  sz=${z%%:*}; r=${z#*:}; n=${r%%:*}; set -- ${r#*:}; kern=$1 ts=$2 pt=${!3} sl=$4
  s=""; [ $kern = splitk ] && s="SLICES=$sl"
  for in in ${INS:-0 2 3}; do
    [ $in = 2 ] && { [ $3 = P64 ] || [ $3 = H ]; } || [ $in != 2 ] || continue
    step r${rep}_${n}_in$in $kern $ts "$pt $s INPLACE=$in" $sz
  done
done
done
timeout 80 python3 $D/cublas.py $ALL $J/cublas_after.json 2>&1 | grep -v Warn
date -u
