#!/bin/bash
# Session 51 probe (issue 30 item 1): a single padded copy (only A's rows or only B's need padding) in pad_copy2_x4
# (a float4 per work-item) instead of the element-wise pad_copy. The same points timed by main before the change
# ($D/tilescope_base, 3ac4ce1) and after it ($D/tilescope), in turn, twice each; every bench verified; cuBLAS FP32
# (TF32 off) before and after. Shapes: exactly one of N and K not a multiple of 4.
# usage (from the checkout, on the lent machine): D=.carry/s47 bash docs/results/session51/copy1/probe.sh
D=${D:-.carry/s47}; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
mkdir -p /tmp/t51; export TILESCOPE_TUNING_DIR=/tmp/t51 XDG_DATA_HOME=/tmp/xdg51; J=${OUT:-/tmp/o51}; mkdir -p $J
S="TM=8 TN=4 TSK=8 WM=32 WN=64 WNITER=2 PAD=4 NDIV=1 NMUL=1"    # 64x64 (TS 64)
H="TM=8 TN=4 TSK=8 WM=32 WN=64 WNITER=2 PAD=4 NDIV=2 NMUL=1"    # 128x64 (TS 128)
POINTS=${POINTS:-"1311x1465x7288:splitk:64:S:8 9847x1080x8179:splitk:128:H:2 2000x3001x4000:warp_tile:64:S:1 3000x2000x3001:warp_tile:64:S:1 1500x1501x1500:warp_tile:64:S:1 1501x1500x1501:warp_tile:64:S:1 700x900x20001:splitk:64:S:8"}
ALL=$(for p in $POINTS; do echo -n "${p%%:*},"; done); ALL=${ALL%,}
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $J/device.txt
timeout 90 python3 $D/cublas.py $ALL $J/cublas_before.json 2>&1 | grep -v Warn
for rep in 1 2; do for p in $POINTS; do
  IFS=: read sz kern ts pset sl <<< "$p"; ps=$S; [ "$pset" = H ] && ps=$H; a=""
  for q in $ps SLICES=$sl INPLACE=0; do [ "$kern" = warp_tile ] && [ "${q%%=*}" = SLICES ] && continue; a="$a --param $q"; done
  for bin in tilescope_base tilescope; do
    echo "$rep $bin $(timeout 40 $D/$bin bench --kernel $kern --tile $ts $a --size $sz --reps 10 --warmup 2 --json $J/${bin}_${sz}_$rep.json 2>&1 | grep -v "^\[" | tail -1 | cut -c1-190)"
  done
done; done
timeout 90 python3 $D/cublas.py $ALL $J/cublas_after.json 2>&1 | grep -v Warn
date -u
