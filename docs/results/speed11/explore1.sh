#!/bin/bash
# Issue 30 (speed11), call 1 per GPU: at the sittings' weak draws, what registers each kernel point takes (so how many
# groups an SM holds), what cuBLAS runs there, and a grid of points (tile shape x K-slices) timed at those shapes.
# usage (from the checkout, on the lent machine): SIZES=2474,1109,4313x631x5246 bash .carry/speed11/explore1.sh
D=.carry/speed11; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning XDG_DATA_HOME=/tmp/xdg11
mkdir -p /tmp/icd && echo $TILESCOPE_ICDS > /tmp/icd/nvidia.icd   # for nvregs only
B=$D/tilescope; J=/tmp/e1; mkdir -p $J
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $J/device.txt
P64="TM=8 TN=4 TSK=8 WM=32 WN=64 WNITER=2 PAD=4 NDIV=1"     # TS 64: 64 work-items
P128="TM=4 TN=4 TSK=16 WM=64 WN=64 WNITER=4 PAD=4 NDIV=1"   # TS 128: 128 work-items, 128 sums each
N2C="TM=8 TN=4 TSK=8 WM=32 WN=64 WNITER=2 PAD=4 NDIV=2"     # TS 128 x 64: 128 work-items
Q="TM=8 TN=4 TSK=8 WM=32 WN=64 WNITER=2 PAD=4 NDIV=1"       # TS 128: 256 work-items, 64 sums each
defs() { for p in $2; do printf -- "-D %s " $p; done; printf -- "-D TS=%s -D EDGES=0 -D ODD=0 -D INPLACE=0 -D PPS=%s" $1 ${3:-0}; }
for x in "64 P64" "128 P128" "128 N2C" "128 Q"; do set -- $x; echo "== regs $2 TS=$1"; OCL_ICD_VENDORS=/tmp/icd $D/nvregs $D/warp_tile.cl mm_warp_tile "$(defs $1 "${!2}")" 2>&1 | tail -3
  echo "== regs $2 TS=$1 splitk"; OCL_ICD_VENDORS=/tmp/icd $D/nvregs $D/warp_tile.cl mm_warp_tile "$(defs $1 "${!2}" 40)" 2>&1 | tail -3; done | tee $J/regs.txt
timeout 60 python3 $D/cublas_profile.py $SIZES $J/cublas_profile.json 2>&1 | grep -v Warn | tee $J/cublas_profile.log
timeout 40 python3 $D/cublas.py $SIZES $J/cublas_before.json 2>&1 | grep -v Warn
step() { name=$1; k=$2; t=$3; ps=$4; shift 4; echo "== $name $(date -u +%T)"; a=""; for p in $ps; do a="$a --param $p"; done
  timeout 60 $B bench --kernel $k --tile $t $a "$@" --size $SIZES --reps 10 --warmup 2 --json $J/$name.json 2>&1 | grep -v "^\[" | awk '{print $1, $2, $3, $4, $6, $8}'; }
step w64 warp_tile 64 "$P64 INPLACE=0"
step w128 warp_tile 128 "$P128 INPLACE=0"
step wn2 warp_tile 128 "$N2C INPLACE=0"
step wq warp_tile 128 "$Q INPLACE=0"
for s in ${SL128:-2 3 4}; do step s128_$s splitk 128 "$P128 INPLACE=0 SLICES=$s"; step sn2_$s splitk 128 "$N2C INPLACE=0 SLICES=$s"; step sq_$s splitk 128 "$Q INPLACE=0 SLICES=$s"; done
for s in ${SL64:-2 3 4 6}; do step s64_$s splitk 64 "$P64 INPLACE=0 SLICES=$s"; done
timeout 40 python3 $D/cublas.py $SIZES $J/cublas_after.json 2>&1 | grep -v Warn
date -u
cd /tmp && tar czf $OUT/e1.tgz e1
