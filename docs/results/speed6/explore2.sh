#!/bin/bash
# Issue 30 (speed6), H200 call 2: INPLACE=1 (rows read in place, no padded copies) against the padded copies
# (INPLACE=0, pad_copy2_x4), same binary, same call: splitk at tiny outputs with long K, splitk 3 slices at
# squares, warp_tile 128x64 (NDIV 2) at shapes.  usage (from the checkout): bash .carry/speed6/explore2.sh
D=.carry/speed6; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning
B=$D/tilescope; J=$OUT/e2; mkdir -p $J
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader
P64="--param TM=8 --param TN=4 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param PAD=4"
N2C="--param NDIV=2 --param TM=8 --param TN=4 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param PAD=4"
step() { name=$1; t=$2; shift 2; echo "== $name $(date -u +%T)"; timeout $t $B bench "$@" --json $J/$name.json 2>&1 | tee $J/$name.log | grep -v "^\[" | awk '{print $1, $2, $3, $6, $8, $10}'; }
TY=168x257x77735,264x254x96278,234x123x53677,260x260x121695,90x286x66799,204x80x85993,245x252x71683
for ip in 1 0; do
  for s in 64 128 256; do step p64s${s}_ip$ip 45 --kernel splitk --tile 64 $P64 --param SLICES=$s --param INPLACE=$ip --size $TY --reps 5 --warmup 1; done
  step n2cs66_ip$ip 45 --kernel splitk --tile 128 $N2C --param SLICES=66 --param INPLACE=$ip --size $TY --reps 5 --warmup 1
done
SQ=1009,1234,1301,2231,3333
SH=1234x5678x910,9173x1134x6485,7133x9770x751,3162x1269x9839
for ip in 1 0; do
  step sq3_ip$ip 40 --kernel splitk --tile 64 $P64 --param SLICES=3 --param INPLACE=$ip --size $SQ --reps 5 --warmup 1
  step shn2c_ip$ip 40 --kernel warp_tile --tile 128 $N2C --param INPLACE=$ip --size $SH --reps 5 --warmup 1
done
date -u
