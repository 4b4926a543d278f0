#!/bin/bash
# Issue 30 (speed8), H200 call 1: where the missing 8-15 % goes at the weak draws of speed7 (and the H100's worst).
# For each shape S and the point the pick ran there: the padded pipeline at S (copies in, product, C back, timed
# together), the same point at the padded size alone (no copies), at S with INPLACE=1 (no copies, unaligned reads),
# and at the aligned size nearby; then a few other points at those shapes.
# usage (from the checkout, on the lent machine): bash .carry/speed8/explore1.sh
D=.carry/speed8; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning XDG_DATA_HOME=/tmp/xdg8
B=${B:-$D/tilescope_main}; J=/tmp/e1; mkdir -p $J
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader
P64="--param TM=8 --param TN=4 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param PAD=4 --param NDIV=1"
P128="--param TM=4 --param TN=4 --param TSK=16 --param WM=64 --param WN=64 --param WNITER=4 --param PAD=4 --param NDIV=1"
N2C="--param NDIV=2 --param TM=8 --param TN=4 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param PAD=4"
step() { name=$1; t=$2; shift 2; echo "== $name $(date -u +%T)"; timeout $t $B bench "$@" --reps 10 --warmup 2 --json $J/$name.json 2>&1 | grep -v "^\[" | grep -v '^picked' | awk '{print $1, $2, $3, $6, $8, $NF}'; }
# warp_tile TS 128 (2043^3's pick)
step w128 60 --kernel warp_tile --tile 128 $P128 --param INPLACE=0 --size 2043,2043x2044x2044,2044,2048
step w128i 40 --kernel warp_tile --tile 128 $P128 --param INPLACE=1 --size 2043
# warp_tile TS 64 (8300x2395x628, 2049^3, 1401^3, H100's 1799x2385x7370)
step w64 90 --kernel warp_tile --tile 64 $P64 --param INPLACE=0 --size 8300x2395x628,8300x2396x628,8300x2400x628,2049,2049x2052x2052,2052,1401,1401x1404x1404,1404,1799x2385x7370,1799x2388x7372,1800x2388x7372
step w64i 60 --kernel warp_tile --tile 64 $P64 --param INPLACE=1 --size 8300x2395x628,2049,1401,1799x2385x7370
# splitk TS 64 (2495^3: 4 slices; 1267x2611x6816: 8 slices)
step s4 60 --kernel splitk --tile 64 $P64 --param SLICES=4 --param INPLACE=0 --size 2495,2495x2496x2496,2496,1799x2385x7370,2043
step s4i 40 --kernel splitk --tile 64 $P64 --param SLICES=4 --param INPLACE=1 --size 2495,1799x2385x7370
step s8 60 --kernel splitk --tile 64 $P64 --param SLICES=8 --param INPLACE=0 --size 1267x2611x6816,1267x2612x6816,1268x2612x6816,1799x2385x7370
step s8i 40 --kernel splitk --tile 64 $P64 --param SLICES=8 --param INPLACE=1 --size 1267x2611x6816
# other points at the weak shapes
W="2043,2495,2049,1401,8300x2395x628,1799x2385x7370,1267x2611x6816"
step w64n2 60 --kernel warp_tile --tile 128 $N2C --param INPLACE=0 --size $W
step s2 60 --kernel splitk --tile 64 $P64 --param SLICES=2 --param INPLACE=0 --size $W
step s3n2 60 --kernel splitk --tile 128 $N2C --param SLICES=3 --param INPLACE=0 --size $W
date -u
cd /tmp && tar czf $OUT/e1.tgz e1
