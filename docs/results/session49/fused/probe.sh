#!/bin/bash
# Session 49 probe (issue 30 item 1): splitk's slice sum inside the product's own launch (make_fused.py), against the
# rung (two launches) at the padded sizes of two weak shapes of the H200's sittings (nothing copied), same point
# (TS 64, TSK 8, WM 32, WN 64, WNITER 2, TM 8, TN 4, PAD 4), each verified against the CPU. cuBLAS before and after.
# FUSED=1 (default): the slices read with volatile scalar loads (past L1); FUSED=2: plain float4 loads (second call).
# usage (from the checkout): [FUSED=2] D=.carry/s47 bash docs/results/session49/fused/probe.sh   [DEV=pocl SIZES=... to try it here]
D=${D:-.carry/s47}; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
mkdir -p /tmp/t49f; export TILESCOPE_TUNING_DIR=/tmp/t49f XDG_DATA_HOME=/tmp/xdg49f; J=${OUT:-/tmp/fused_out}; mkdir -p $J
SIZES=${SIZES:-941x4324x2608:3,1311x1468x7288:8,9847x1080x8180:2}
DEV=${DEV:+--device $DEV}
python3 docs/results/session49/fused/make_fused.py kernels/warp_tile.cl docs/results/session49/fused/epilogue.cl /tmp/fused.cl
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader 2>/dev/null
CB=$(echo $SIZES | sed 's/:[0-9]*//g')
[ -z "$DEV" ] && timeout 60 python3 $D/cublas.py $CB $J/cublas_before.json 2>&1 | grep -v Warn
for z in ${SIZES//,/ }; do sz=${z%:*}; S=${z#*:}
  for rep in 1 2; do
  echo "rung_${sz}_S$S $(timeout 60 $D/tilescope bench $DEV --kernel splitk --tile 64 --param TM=8 --param TN=4 --param TSK=8 --param WM=32 \
    --param WN=64 --param WNITER=2 --param PAD=4 --param NDIV=1 --param NMUL=1 --param INPLACE=0 --param SLICES=$S --size $sz \
    --reps 10 --warmup 2 2>&1 | grep -v "^\[" | tail -1 | cut -c1-150)"
  P="((K+7)/8)"; PPS="(($P+$S-1)/$S)"; RUN="(($P+$PPS-1)/$PPS)"
  echo "fused_${sz}_S$S $(timeout 60 $D/tilescope bench $DEV --source /tmp/fused.cl --entry mm_warp_tile \
    --define TS=64 --define TSK=8 --define WM=32 --define WN=64 --define WNITER=2 --define TM=8 --define TN=4 --define PAD=4 \
    --define NDIV=1 --define NMUL=1 --define 'EDGES=M%64+N%64+K%8' --define 'ODD=K%4+N%4' --define INPLACE=0 --define "PPS=$PPS" \
    --define FUSED=${FUSED:-1} --global "((N+63)/64)*64,(M+63)/64,$RUN" --local 64,1,1 --arg M=int:M --arg N=int:N --arg K=int:K \
    --arg A=matrix:MxK:in --arg B=matrix:KxN:in --arg "W=matrix:$RUN*MxN:out" --arg C=matrix:MxN:out \
    --arg 'CNT=matrix:((M+63)/64)x((N+63)/64):out' --check C=A*B --size $sz --reps 10 --warmup 2 2>&1 | grep -v "^\[" | tail -1 | cut -c1-150)"
  done
done
[ -z "$DEV" ] && timeout 60 python3 $D/cublas.py $CB $J/cublas_after.json 2>&1 | grep -v Warn
date -u
