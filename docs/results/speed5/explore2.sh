#!/bin/bash
# Issue 30 (speed5), H200 call 2: warp_tile on zero-padded copies (the rung, --pad auto) against the
# same loop reading unaligned rows with vload4 (kernels/warp_tile.cl of the branch, as a custom kernel:
# no copies), same points, same sitting.
D=.carry/speed5; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning
B=$D/tilescope; J=$OUT/j; mkdir -p $J
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader
SQ=1009,1105,1209,1234,1301,1399,2231,3333,4097
SK=9173x1134x6485,3345x1362x6981,1234x5678x910,3162x1269x9839
P64="--param TM=8 --param TN=4 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param PAD=4"
N2C="--param NDIV=2 --param TM=8 --param TN=4 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param PAD=4"
COMMON="--arg M=int:M --arg N=int:N --arg K=int:K --arg A=matrix:MxK:in --arg B=matrix:KxN:in --arg C=matrix:MxN:out --check C=A*B --define PAD=4 --define TSK=8 --define WM=32 --define WN=64 --define WNITER=2 --define TM=8 --define TN=4 --define ODD=K%4+N%4"
SRC64="--source $D/warp_tile_new.cl --entry mm_warp_tile --global ((N+63)/64)*64,(M+63)/64 --local 64,1 --define TS=64 --define NDIV=1 --define EDGES=M%64+N%64+K%8 $COMMON"
SRCC="--source $D/warp_tile_new.cl --entry mm_warp_tile --global ((N+63)/64)*128,(M+127)/128 --local 128,1 --define TS=128 --define NDIV=2 --define EDGES=M%128+N%64+K%8 $COMMON"
step() { name=$1; t=$2; shift 2; echo "== $name $(date -u +%T)"; timeout $t $B bench "$@" --reps 10 --warmup 2 --json $J/$name.json 2>&1 | tee $J/$name.log | grep -v "^\[" | awk '{print $1, $2, $3, $6, $8, $10, $NF}'; }
for r in 1 2; do
step pad64_$r 30 --kernel warp_tile --tile 64 $P64 --size $SQ,$SK
step new64_$r 30 $SRC64 --size $SQ,$SK
step padC_$r 30 --kernel warp_tile --tile 128 $N2C --size $SQ,$SK
step newC_$r 30 $SRCC --size $SQ,$SK
done
date -u
tar czf $OUT/explore2.tgz -C $J . && rm -rf $J
