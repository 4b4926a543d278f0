#!/bin/bash
# Issue 30 (speed8), call 2: C stored in place on padded copies (this branch) against main's binary (cf60d32: C copied
# back), the same points at the weak shapes of explore1.sh, interleaved main/new/main/new, and each point at its
# padded size alone (no copies: the ceiling of any copy scheme).
# usage (from the checkout, on the lent machine): bash .carry/speed8/explore2.sh
D=.carry/speed8; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning XDG_DATA_HOME=/tmp/xdg8
J=/tmp/e2; mkdir -p $J
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader
P64="--param TM=8 --param TN=4 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param PAD=4 --param NDIV=1 --param INPLACE=0"
P128="--param TM=4 --param TN=4 --param TSK=16 --param WM=64 --param WN=64 --param WNITER=4 --param PAD=4 --param NDIV=1 --param INPLACE=0"
step() { name=$1; b=$2; shift 2; echo "== $name $(date -u +%T)"; timeout 40 $b bench "$@" --reps 10 --warmup 2 --json $J/$name.json 2>&1 | grep -v "^\[" | grep -v '^picked' | awk '{print $1, $2, $3, $6, $8, $NF}'; }
W128="--kernel warp_tile --tile 128 $P128 --size 2043,4097,2043x2044x2044"
W64="--kernel warp_tile --tile 64 $P64 --size 8300x2395x628,2049,1401,1799x2385x7370,8300x2396x628,1401x1404x1404"
S4="--kernel splitk --tile 64 $P64 --param SLICES=4 --size 2495,1799x2385x7370,2495x2496x2496"
S8="--kernel splitk --tile 64 $P64 --param SLICES=8 --size 1267x2611x6816,1267x2612x6816"
for pass in 1 2; do
  for v in main new; do
    b=$D/tilescope_main; [ $v = new ] && b=$D/tilescope
    step w128_${v}$pass $b $W128; step w64_${v}$pass $b $W64; step s4_${v}$pass $b $S4; step s8_${v}$pass $b $S8
  done
done
date -u
cd /tmp && tar czf $OUT/e2.tgz e2
