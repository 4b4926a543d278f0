#!/bin/bash
# Session 49 (issue 30 item 1): where the time goes at three weak shapes of the H200's sittings, each at the point the
# trial picked there: that point at the user's size (padded copies timed, or read in place), the same point at the padded
# size P (N and K rounded up to 4: nothing copied), and its second launch alone (mm_slice_sum over the same S slices of
# W, a custom-kernel bench of kernels/warp_tile.cl with the PPS the point uses; not verified, its median time is the
# figure). cuBLAS FP32 (TF32 off) before and after. Copies = user - P; slice sum = the sum's launch; GEMM = P - sum.
# usage (from the checkout, on the lent machine): D=.carry/s47 bash docs/results/session49/explore4.sh
D=${D:-.carry/s47}; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
mkdir -p /tmp/t49; export TILESCOPE_TUNING_DIR=/tmp/t49 XDG_DATA_HOME=/tmp/xdg49; J=$OUT
ALL=941x4323x2607,1311x1465x7288,9847x1080x8179
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $J/device.txt
timeout 60 python3 $D/cublas.py $ALL $J/cublas_before.json 2>&1 | grep -v Warn
S="TM=8 TN=4 TSK=8 WM=32 WN=64 WNITER=2 PAD=4 NDIV=1 NMUL=1"    # 64x64 (TS 64)
H="TM=8 TN=4 TSK=8 WM=32 WN=64 WNITER=2 PAD=4 NDIV=2 NMUL=1"    # 128x64 (TS 128)
step() { local name=$1 kern=$2 ts=$3 ps=$4 sz=$5 a="" p; for p in $ps; do a="$a --param $p"; done
  echo "$name $(timeout 40 $D/tilescope bench --kernel $kern --tile $ts $a --size $sz --reps 10 --warmup 2 --json $J/$name.json 2>&1 | grep -v "^\[" | tail -1 | cut -c1-150)"; }
# the slice sum alone: S slices of P's M x N (PPS = ceil(ceil(K/8)/S), TSK 8)
sum() { local name=$1 sz=$2 s=$3 k pps; k=${sz##*x}; pps=$(( ((k + 7) / 8 + s - 1) / s ))
  echo "$name $(timeout 40 $D/tilescope bench --source kernels/warp_tile.cl --entry mm_slice_sum --define PPS=$pps --define TSK=8 \
    --global '((M*N+1023)/1024)*256' --local 256 --arg M=int:M --arg N=int:N --arg K=int:K --arg W=matrix:$s*MxN:in \
    --arg C=matrix:MxN:out --size $sz --reps 10 --warmup 2 --json $J/$name.json 2>&1 | grep -v "^\[" | tail -1 | cut -c1-150)"; }
for z in "941x4323x2607:a:splitk 64 3 0" "1311x1465x7288:b:splitk 64 8 0" "9847x1080x8179:c:splitk 128 2 2"; do
  sz=${z%%:*}; r=${z#*:}; n=${r%%:*}; set -- ${r#*:}; kern=$1 ts=$2 sl=$3 in=$4
  P=$(python3 -c "m,n,k=map(int,'$sz'.split('x')); print('%dx%dx%d'%(m,(n+3)//4*4,(k+3)//4*4))")
  ps=$S; [ "$ts" = 128 ] && ps=$H
  step ${n}_user $kern $ts "$ps INPLACE=$in SLICES=$sl" $sz
  step ${n}_pad $kern $ts "$ps INPLACE=0 SLICES=$sl" $P
  sum ${n}_sum $P $sl
done
timeout 60 python3 $D/cublas.py $ALL $J/cublas_after.json 2>&1 | grep -v Warn
date -u
