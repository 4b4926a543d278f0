#!/bin/bash
# Issue 30 (speed5), H200 call 4: main's binary (213a9cb), the branch's with A's and B's copies in one
# launch (fused), and the same with every command of a padded launch queued behind one user event
# (gate), interleaved; then splitk with large tiles and about one group per unit at two tiny outputs.
D=.carry/speed5; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning
J=$OUT/j; mkdir -p $J
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader
SQ=1009,1105,1209,1232,1234,1301,1399,2231,3333
SK=9173x1134x6485,3345x1362x6981,1234x5678x910
TY=245x252x71683,271x171x24661
P64="--param TM=8 --param TN=4 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param PAD=4"
P128="--param TM=4 --param TN=4 --param TSK=16 --param WM=64 --param WN=64 --param WNITER=4 --param PAD=4"
N2C="--param NDIV=2 --param TM=8 --param TN=4 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param PAD=4"
step() { name=$1; B=$D/tilescope_$2; t=$3; shift 3; echo "== $name $(date -u +%T)"; timeout $t $B bench "$@" --reps 10 --warmup 2 --json $J/$name.json 2>&1 | tee $J/$name.log | grep -v "^\[" | awk '{print $1, $2, $3, $6, $8, $10}'; }
for r in 1 2; do
for b in main fused gate; do
step wt_${b}_$r $b 25 --kernel warp_tile --tile 64 $P64 --size $SQ,$SK
step sk3_${b}_$r $b 25 --kernel splitk --tile 64 $P64 --param SLICES=3 --size $SQ,$SK,$TY
done; done
for s in 22 33 66; do step b128s$s gate 15 --kernel splitk --tile 128 $P128 --param SLICES=$s --size $TY; done
for s in 16 33 66; do step c128s$s gate 15 --kernel splitk --tile 128 $N2C --param SLICES=$s --size $TY; done
date -u
tar czf $OUT/explore4.tgz -C $J . && rm -rf $J
