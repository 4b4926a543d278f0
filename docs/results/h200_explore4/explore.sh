#!/bin/bash
# Issue 30 (speed4): explore warp_tile's half-wide tiles (NDIV=2: 128x64) beside the table's points at
# mid sizes, and splitk's slice counts at tiny outputs with long K. Embedded tuning only.
D=.carry/speed4; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}')
export TILESCOPE_TUNING_DIR=$(mktemp -d)
B=$D/tilescope; J=$OUT/j; mkdir -p $J
MID=1234,1307,1500,2127,2231,2500,2549,3199,3637,4097,1563x1092x8707,4579x1557x9854,8659x1189x7582,1791x9478x1675,2814x2539x2149,1793x1833x1193,4592x2197x2657,2226x2451x7627
TINY=64x64x131072,128x128x65536,256x512x32768,64x64x65536,137x119x125424,139x52x99855,237x299x58355,69x279x29294
P64="--param TM=8 --param TN=4 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param PAD=4"
P128="--param TM=4 --param TN=4 --param TSK=16 --param WM=64 --param WN=64 --param WNITER=4 --param PAD=4"
N2A="--param NDIV=2 --param TM=4 --param TN=4 --param TSK=16 --param WM=64 --param WN=64 --param WNITER=4 --param PAD=4"
N2B="--param NDIV=2 --param TM=4 --param TN=4 --param TSK=16 --param WM=64 --param WN=32 --param WNITER=2 --param PAD=4"
N2C="--param NDIV=2 --param TM=8 --param TN=4 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param PAD=4"
N2T="--param NDIV=2 --param TM=4 --param TN=4 --param TSK=8 --param WM=32 --param WN=32 --param WNITER=1 --param PAD=4"
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader
step() { name=$1; t=$2; shift 2; echo "== $name $(date -u +%T)"; timeout $t $B bench "$@" --reps 5 --warmup 1 --json $J/$name.json 2>&1 | tee $J/$name.log | grep -v "^\[" | awk '{print $1, $2, $3, $6, $8, $10}'; }
step n2a 25 --kernel warp_tile --tile 128 $N2A --size $MID
step n2b 25 --kernel warp_tile --tile 128 $N2B --size $MID
step n2c 25 --kernel warp_tile --tile 128 $N2C --size $MID
step wt128 25 --kernel warp_tile --tile 128 $P128 --size $MID
step wt64 25 --kernel warp_tile --tile 64 $P64 --size $MID
step skn2b2 25 --kernel splitk --tile 128 $N2B --param SLICES=2 --size $MID
for s in 128 256 512 1024; do step sk64s$s 15 --kernel splitk --tile 64 $P64 --param SLICES=$s --size $TINY; done
for s in 256 512; do step skt$s 15 --kernel splitk --tile 64 $N2T --param SLICES=$s --size $TINY; done
date -u
tar czf $OUT/explore.tgz -C $J . && rm -rf $J
