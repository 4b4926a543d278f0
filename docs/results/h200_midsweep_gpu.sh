#!/bin/bash
# Issue 30 item 1 (speed3): measure candidate rungs and points at a grid of mid sizes, for the "fastest" table.
D=.carry/speed3; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}')
export TILESCOPE_TUNING_DIR=$(mktemp -d)
B=$D/tilescope; J=$(mktemp -d)
SQ=1001,1127,1251,1375,1501,1627,1751,1875,2001,2127,2251,2375,2501,2627,2751,2875,3001,3251,3501,3751,4001,4251,4501,4751
SH=""
for m in 555 1111 1999 3001; do for n in 555 1111 1999 3001; do for k in 777 2555 7777; do SH=$SH,${m}x${n}x${k}; done; done; done
for p in 555x6001 6001x555 1111x6001 6001x1111; do for k in 777 2555 7777; do SH=$SH,${p}x${k}; done; done
ALL=$SQ$SH
SMALL=1001,1127,1251,1375,1501,1627,555x555x777,555x555x2555,555x555x7777,555x1111x777,555x1111x2555,555x1111x7777,1111x555x777,1111x555x2555,1111x555x7777,1111x1111x777,1111x1111x2555,1111x1111x7777
P64="--param TM=8 --param TN=4 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param PAD=4"
P128="--param TM=4 --param TN=4 --param TSK=16 --param WM=64 --param WN=64 --param WNITER=4 --param PAD=4"
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader
step() { name=$1; shift; echo "== $name $(date -u +%T)"; timeout ${T:-80} $B bench "$@" --reps 5 --warmup 1 --json $J/$name.json 2>&1 | grep -v "^\[" | awk '{print $1, $2, $3, $8, $10}'; tar czf $OUT/sweep.tgz -C $J .; }
step wt128 --kernel warp_tile --tile 128 $P128 --size $ALL
step wt64 --kernel warp_tile --tile 64 $P64 --size $ALL
step sk128s2 --kernel splitk --tile 128 $P128 --param SLICES=2 --size $ALL
step sk64s2 --kernel splitk --tile 64 $P64 --param SLICES=2 --size $ALL
step sk128s4 --kernel splitk --tile 128 $P128 --param SLICES=4 --size $ALL
step sk64s4 --kernel splitk --tile 64 $P64 --param SLICES=4 --size $ALL
step sk64s8 --kernel splitk --tile 64 $P64 --param SLICES=8 --size $ALL
step sk64s16 --kernel splitk --tile 64 $P64 --param SLICES=16 --size $ALL
step reg2d --kernel reg2d_dbuf --size $SMALL
date -u
