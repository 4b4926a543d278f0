#!/bin/bash
# Issue 30 (speed5): one sitting on the lent GPU. With EXPLORE=1 (the H100): first the weak shapes at six
# points into this device's own "fastest" table (a new file, nvidia-cuda-nvidia-h100-80gb-hbm3.json);
# then, after the tables' last change, sizes drawn here (draw-sizes, seeds printed; four tiny outputs with
# Python's random, seed printed), cuBLAS before, `bench --kernel fastest` on the draw, issue 30's held-out
# list and the tiny outputs, cuBLAS after.  usage (from the checkout): [EXPLORE=1] bash .carry/speed5/sitting.sh
D=.carry/speed5; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning   # the branch's tables (bench reads ./assets/tuning only after this)
B=$D/tilescope; J=$OUT/j; mkdir -p $J
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader
if [ "$EXPLORE" = 1 ]; then
  SQ=1009,1105,1209,1234,1301,1399,1536,1777,2063,2231,2500,3321,3637
  SK=3345x1362x6981,9173x1134x6485,1234x5678x910,2814x2539x2149,3691x3613x7425
  TY=245x252x71683,271x171x24661
  P64="--param TM=8 --param TN=4 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param PAD=4"
  P128="--param TM=4 --param TN=4 --param TSK=16 --param WM=64 --param WN=64 --param WNITER=4 --param PAD=4"
  N2C="--param NDIV=2 --param TM=8 --param TN=4 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param PAD=4"
  step() { name=$1; t=$2; shift 2; echo "== $name $(date -u +%T)"; timeout $t $B bench "$@" --reps 5 --warmup 1 --json $J/$name.json 2>&1 | tee $J/$name.log | grep -v "^\[" | awk '{print $1, $2, $3, $6, $8, $10}'; }
  step p64 30 --kernel warp_tile --tile 64 $P64 --size $SQ,$SK
  step sk3 30 --kernel splitk --tile 64 $P64 --param SLICES=3 --size $SQ,$SK
  step sk2 30 --kernel splitk --tile 64 $P64 --param SLICES=2 --size $SQ,$SK
  step n2c 30 --kernel warp_tile --tile 128 $N2C --size $SQ,$SK
  step p128 30 --kernel warp_tile --tile 128 $P128 --size $SQ,$SK
  step skc2 30 --kernel splitk --tile 128 $N2C --param SLICES=2 --size $SQ,$SK
  step c128s66 12 --kernel splitk --tile 128 $N2C --param SLICES=66 --size $TY
  step p64s96 12 --kernel splitk --tile 64 $P64 --param SLICES=96 --size $TY
  step p64s128 12 --kernel splitk --tile 64 $P64 --param SLICES=128 --size $TY
  T=$D/tuning/nvidia-cuda-nvidia-h100-80gb-hbm3.json
  python3 -c "import json,sys; json.dump({'comment': 'The H100s own fastest table (issue 30, speed5): bench records measured on it; rungs tuned for it are looked up in a similar device file (the H200s) while this file has none.', 'device': sys.argv[1], 'slug': 'nvidia-cuda-nvidia-h100-80gb-hbm3', 'kernels': {}, 'fastest': []}, open(sys.argv[2], 'w'), indent=2)" "NVIDIA CUDA / $(nvidia-smi --query-gpu=name --format=csv,noheader)" $T
  python3 $D/fastest_table.py $T "bench on the H100 (docs/results/speed5), speed5's exploration" $J/*.json
  cp $T $OUT/
  tar czf $OUT/explore.tgz -C $J . && rm -rf $J && mkdir -p $J
fi
SQD=$(python3 $D/draw-sizes --squares 12 --shapes 0 --min 1000 --max 10000 2>$J/seed_squares); echo "squares $(cat $J/seed_squares): $SQD"
SHD=$(python3 $D/draw-sizes --squares 0 --shapes 12 --min 512 2>$J/seed_shapes); echo "shapes $(cat $J/seed_shapes): $SHD"
TYD=$(python3 -c "
import random, secrets; s = secrets.randbelow(2**31); r = random.Random(s)
print(','.join('%dx%dx%d' % (r.randint(48, 300), r.randint(48, 300), r.randint(20000, 131072)) for _ in range(int(__import__('os').environ.get('NTINY', '4')))))
import sys; print('tiny seed', s, file=sys.stderr)" 2>$J/seed_tiny); echo "tiny $(cat $J/seed_tiny): $TYD"
HELD=${HELD:-1234,2500,3333,4097,5555,7777,9000,10000,1234x5678x910}
TINY=${TINY-96x6000x9000,128x128x65536,256x512x32768,64x64x65536,64x64x131072}
ALL=$SQD,$SHD,$HELD${TINY:+,$TINY},$TYD
echo "$ALL" > $J/sizes.txt
timeout 100 python3 $D/cublas.py $ALL $OUT/cublas_before.json 2>&1 | grep -v Warn
timeout 240 $B bench --kernel fastest --size $ALL --reps 10 --warmup 2 --json $OUT/bench.json 2>&1 | grep -v "^\[" | tee $J/bench.log
timeout 100 python3 $D/cublas.py $ALL $OUT/cublas_after.json 2>&1 | grep -v Warn
date -u
tar czf $OUT/sitting.tgz -C $J . && rm -rf $J
