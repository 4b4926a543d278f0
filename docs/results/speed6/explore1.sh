#!/bin/bash
# Issue 30 (speed6), H200 call 1: (a) what the padded copies cost: main's binary (f34928b) against this one
# (pad_copy2_x4), and --pad off, at padded sizes, the table's pick (`--kernel fastest`); (b) splitk points at
# tiny outputs with long K (speed5's drawn shapes and three drawn here with Python's random.Random(1715131931));
# (c) warp_tile points at big M, N with a short K.
# usage (from the checkout, on the lent machine): bash .carry/speed6/explore1.sh
D=.carry/speed6; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning
B=$D/tilescope; J=$OUT/e1; mkdir -p $J
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader
P64="--param TM=8 --param TN=4 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param PAD=4"
P128="--param TM=4 --param TN=4 --param TSK=16 --param WM=64 --param WN=64 --param WNITER=4 --param PAD=4"
N2C="--param NDIV=2 --param TM=8 --param TN=4 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param PAD=4"
step() { name=$1; t=$2; b=$3; shift 3; echo "== $name $(date -u +%T)"; timeout $t $b bench "$@" --json $J/$name.json 2>&1 | tee $J/$name.log | grep -v "^\[" | awk '{print $1, $2, $3, $6, $8, $10}'; }
PADS=1234,245x252x71683,168x257x77735,234x123x53677,264x254x96278,7133x9770x751
step main 60 $D/tilescope_main --kernel fastest --size $PADS --reps 10 --warmup 2
step new 60 $B --kernel fastest --size $PADS --reps 10 --warmup 2
step padoff 60 $B --kernel fastest --size $PADS --reps 10 --warmup 2 --pad off
TY=168x257x77735,264x254x96278,234x123x53677,260x260x121695,90x286x66799,204x80x85993
for s in 64 128 256; do step p64s$s 45 $B --kernel splitk --tile 64 $P64 --param SLICES=$s --size $TY --reps 5 --warmup 1; done
step n2cs66 45 $B --kernel splitk --tile 128 $N2C --param SLICES=66 --size $TY --reps 5 --warmup 1
SK=7133x9770x751,4111x8222x600,9000x6000x1000,2500x9000x800
step skp128 40 $B --kernel warp_tile --tile 128 $P128 --size $SK --reps 5 --warmup 1
step skn2c 40 $B --kernel warp_tile --tile 128 $N2C --size $SK --reps 5 --warmup 1
step skp64 40 $B --kernel warp_tile --tile 64 $P64 --size $SK --reps 5 --warmup 1
date -u
