#!/bin/bash
# Issue 30 (speed6): one sitting on the lent GPU after the tables' last change: sizes drawn here (draw-sizes, seeds
# printed; NTINY tiny outputs with long K drawn with Python's random, seed printed), cuBLAS before, `bench --kernel
# fastest` on the draw, issue 30's held-out list and the tiny outputs, cuBLAS after (the structure of speed5's
# sitting.sh, without its exploration).  usage (from the checkout): [NTINY=6] bash .carry/speed6/sitting.sh
D=.carry/speed6; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning   # the branch's tables (bench reads ./assets/tuning only after this)
B=$D/tilescope; J=$OUT/j; mkdir -p $J
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $J/device.txt
SQD=$(python3 $D/draw-sizes --squares 12 --shapes 0 --min 1000 --max 10000 2>$J/seed_squares); echo "squares $(cat $J/seed_squares): $SQD"
SHD=$(python3 $D/draw-sizes --squares 0 --shapes 12 --min 512 2>$J/seed_shapes); echo "shapes $(cat $J/seed_shapes): $SHD"
TYD=$(python3 -c "
import random, secrets; s = secrets.randbelow(2**31); r = random.Random(s)
print(','.join('%dx%dx%d' % (r.randint(48, 300), r.randint(48, 300), r.randint(20000, 131072)) for _ in range(int(__import__('os').environ.get('NTINY', '6')))))
import sys; print('tiny seed', s, file=sys.stderr)" 2>$J/seed_tiny); echo "tiny $(cat $J/seed_tiny): $TYD"
HELD=${HELD:-1234,2500,3333,4097,5555,7777,9000,10000,1234x5678x910}
TINY=${TINY-96x6000x9000,128x128x65536,256x512x32768,64x64x65536,64x64x131072}
ALL=$SQD,$SHD,$HELD${TINY:+,$TINY},$TYD
echo "$ALL" > $J/sizes.txt
timeout 110 python3 $D/cublas.py $ALL $OUT/cublas_before.json 2>&1 | grep -v Warn
timeout 240 $B bench --kernel fastest --size $ALL --reps 10 --warmup 2 --json $OUT/bench.json 2>&1 | grep -v "^\[" | tee $J/bench.log
timeout 110 python3 $D/cublas.py $ALL $OUT/cublas_after.json 2>&1 | grep -v Warn
date -u
cp $J/* $OUT/ && rm -rf $J
