#!/bin/bash
# Issue 30 (speed11), call 2 (H200): (1) rows read in place (INPLACE=1, no copies) where only K is odd (N a multiple
# of 4, so B's rows are aligned and only A is read unaligned) against the padded copies; (2) more K-slices of the
# 2-groups-per-SM point (TS 128, 128 sums a work-item) where its tiles fill 132 SMs badly; (3) a 64-work-item 128x64 tile.
# usage (from the checkout, on the lent machine): bash .carry/speed11/explore2.sh
D=.carry/speed11; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning XDG_DATA_HOME=/tmp/xdg11
B=$D/tilescope; J=/tmp/e2; mkdir -p $J
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $J/device.txt
P64="TM=8 TN=4 TSK=8 WM=32 WN=64 WNITER=2 PAD=4 NDIV=1"
P128="TM=4 TN=4 TSK=16 WM=64 WN=64 WNITER=4 PAD=4 NDIV=1"
N2C="TM=8 TN=4 TSK=8 WM=32 WN=64 WNITER=2 PAD=4 NDIV=2"
N2W="TM=4 TN=4 TSK=16 WM=64 WN=64 WNITER=4 PAD=4 NDIV=2"    # TS 128 x 64: 64 work-items, 128 sums each
mkdir -p /tmp/icd && echo $TILESCOPE_ICDS > /tmp/icd/nvidia.icd
echo "== regs N2W"; OCL_ICD_VENDORS=/tmp/icd $D/nvregs $D/warp_tile.cl mm_warp_tile "$(for p in $N2W; do printf -- "-D %s " $p; done) -D TS=128 -D EDGES=0 -D ODD=0 -D INPLACE=0 -D PPS=0" 2>&1 | tail -2 | tee $J/regs.txt
step() { name=$1; k=$2; t=$3; ps=$4; sz=$5; shift 5; echo "== $name $(date -u +%T)"; a=""; for p in $ps; do a="$a --param $p"; done
  timeout 60 $B bench --kernel $k --tile $t $a "$@" --size $sz --reps 10 --warmup 2 --json $J/$name.json 2>&1 | grep -v "^\[" | awk '{print $1, $2, $3, $4, $6, $8}'; }
ODDK=4313x632x5246,2474x2476x2474,1109x1112x1109,6001x3000x4001
timeout 60 python3 $D/cublas.py $ODDK,4313x631x5246,2474 $J/cublas_before.json 2>&1 | grep -v Warn
for i in 0 1; do step s64_3_i$i splitk 64 "$P64 SLICES=3 INPLACE=$i" $ODDK; step sn2_2_i$i splitk 128 "$N2C SLICES=2 INPLACE=$i" $ODDK; step w64_i$i warp_tile 64 "$P64 INPLACE=$i" $ODDK; done
for s in 5 6 7 8; do step s128_$s splitk 128 "$P128 INPLACE=0 SLICES=$s" 4313x631x5246,2474; done
step wn2w warp_tile 128 "$N2W INPLACE=0" 2474,1109,4313x631x5246
for s in 2 3; do step sn2w_$s splitk 128 "$N2W INPLACE=0 SLICES=$s" 2474,1109,4313x631x5246; done
timeout 60 python3 $D/cublas.py $ODDK,4313x631x5246,2474 $J/cublas_after.json 2>&1 | grep -v Warn
date -u
cd /tmp && tar czf $OUT/e2.tgz e2
