#!/bin/bash
# Issue 30 (speed5), H200 call 5: splitk with the slice counts cuBLAS's grid shows (8 slices of 128x128 at
# 3345x1362x6981 and 4579x1557x9854, 3-5 slices of 64x64 at 1536^3 and 2063^3) at the weak shapes.
D=.carry/speed5; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning
B=$D/tilescope; J=$OUT/j; mkdir -p $J
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader
S=3345x1362x6981,4579x1557x9854,3162x1269x9839,9173x1134x6485,1563x1092x8707,1536,2063
P64="--param TM=8 --param TN=4 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param PAD=4"
P128="--param TM=4 --param TN=4 --param TSK=16 --param WM=64 --param WN=64 --param WNITER=4 --param PAD=4"
N2C="--param NDIV=2 --param TM=8 --param TN=4 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param PAD=4"
step() { name=$1; t=$2; shift 2; echo "== $name $(date -u +%T)"; timeout $t $B bench "$@" --reps 5 --warmup 1 --json $J/$name.json 2>&1 | tee $J/$name.log | grep -v "^\[" | awk '{print $1, $2, $3, $6, $8, $10}'; }
for s in 4 8; do step b128s$s 15 --kernel splitk --tile 128 $P128 --param SLICES=$s --size $S; step c128s$s 15 --kernel splitk --tile 128 $N2C --param SLICES=$s --size $S; done
for s in 4 5; do step p64s$s 15 --kernel splitk --tile 64 $P64 --param SLICES=$s --size $S; done
date -u
tar czf $OUT/explore5.tgz -C $J . && rm -rf $J
