#!/bin/bash
# Issue 30 (speed5), H200 call 1: what cuBLAS runs at the weak shapes, then warp_tile/splitk points
# at those shapes (the padding's own cost: 1232/1236 beside 1234).
D=.carry/speed5; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning
B=$D/tilescope; J=$OUT/j; mkdir -p $J
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader
PROF=1000,1105,1209,1234,1301,1536,2063,2500,3321,9173x1134x6485,3345x1362x6981,1234x5678x910,3162x1269x9839,4579x1557x9854,245x252x71683,271x171x24661,64x64x131072
timeout 90 python3 $D/cublas_profile.py $PROF $OUT/cublas_profile.json 2>&1 | grep -v Warn | tee $OUT/cublas_profile.log
SQ=1009,1105,1209,1232,1234,1236,1301,1399
SK=9173x1134x6485,3345x1362x6981,1234x5678x910,3162x1269x9839
TY=245x252x71683,271x171x24661
P64="--tile 64 --param TM=8 --param TN=4 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param PAD=4"
Q64="--tile 64 --param TM=4 --param TN=4 --param TSK=8 --param WM=32 --param WN=32 --param WNITER=1 --param PAD=4"
Q64K="--tile 64 --param TM=4 --param TN=4 --param TSK=16 --param WM=32 --param WN=32 --param WNITER=1 --param PAD=4"
N2T="--tile 64 --param NDIV=2 --param TM=4 --param TN=4 --param TSK=8 --param WM=32 --param WN=32 --param WNITER=1 --param PAD=4"
N2C="--tile 128 --param NDIV=2 --param TM=8 --param TN=4 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param PAD=4"
N2B="--tile 128 --param NDIV=2 --param TM=4 --param TN=4 --param TSK=16 --param WM=64 --param WN=32 --param WNITER=2 --param PAD=4"
step() { name=$1; t=$2; shift 2; echo "== $name $(date -u +%T)"; timeout $t $B bench "$@" --reps 5 --warmup 1 --json $J/$name.json 2>&1 | tee $J/$name.log | grep -v "^\[" | awk '{print $1, $2, $3, $6, $8, $10}'; }
step p64 20 --kernel warp_tile $P64 --size $SQ,$SK
step q64 20 --kernel warp_tile $Q64 --size $SQ,$SK
step q64k 20 --kernel warp_tile $Q64K --size $SQ,$SK
step n2t 20 --kernel warp_tile $N2T --size $SQ,$SK
step n2c 20 --kernel warp_tile $N2C --size $SQ,$SK
step sp2 20 --kernel splitk $P64 --param SLICES=2 --size $SQ,$SK
step sq2 20 --kernel splitk $Q64 --param SLICES=2 --size $SQ,$SK
step sp3 20 --kernel splitk $P64 --param SLICES=3 --size $SQ,$SK
step sc2 20 --kernel splitk $N2C --param SLICES=2 --size $SK
step sc3 20 --kernel splitk $N2C --param SLICES=3 --size $SK
step sb3 20 --kernel splitk $N2B --param SLICES=3 --size $SK
for s in 64 96 128 192; do step ty$s 15 --kernel splitk $P64 --param SLICES=$s --size $TY; step tq$s 15 --kernel splitk $Q64 --param SLICES=$s --size $TY; done
step tn128 15 --kernel splitk $N2T --param SLICES=128 --size $TY
date -u
tar czf $OUT/explore1.tgz -C $J . && rm -rf $J
