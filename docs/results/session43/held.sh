#!/bin/bash
# Issue 30 (session 43): the issue's held-out list and its tiny outputs, plus NTINY tiny outputs with long K drawn with
# Python's random (seed printed), on the final code: cuBLAS before, `bench --kernel fastest`, cuBLAS after, one call.
# usage (from the checkout): [NTINY=6] [BENCH_T=seconds] bash .carry/s43/held.sh (carry .carry/s43 as for sitting.sh)
D=.carry/s43; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning   # empty: the embedded tables of the build
B=$D/tilescope; J=/tmp/j; mkdir -p $J; export XDG_DATA_HOME=$J/xdg
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $J/device.txt
TYD=$(python3 -c "
import random, secrets; s = secrets.randbelow(2**31); r = random.Random(s)
print(','.join('%dx%dx%d' % (r.randint(48, 300), r.randint(48, 300), r.randint(20000, 131072)) for _ in range(int(__import__('os').environ.get('NTINY', '6')))))
import sys; print('tiny seed', s, file=sys.stderr)" 2>$J/seed_tiny); echo "tiny $(cat $J/seed_tiny): $TYD"
HELD=1234,2500,3333,4097,5555,7777,9000,10000,1234x5678x910,96x6000x9000,128x128x65536,256x512x32768,64x64x131072
ALL=$HELD,$TYD
echo "$ALL" > $J/sizes.txt
timeout 90 python3 $D/cublas.py $ALL $OUT/cublas_before.json 2>&1 | grep -v Warn
T0=$(date +%s.%N)
timeout ${BENCH_T:-300} $B bench --kernel fastest --size $ALL --reps 10 --warmup 2 --json $OUT/bench.json 2>&1 | grep -v "^\[" | tee $J/bench.log
echo "bench wall $(python3 -c "print(round($(date +%s.%N)-$T0,1))") s" | tee -a $J/bench.log
timeout 90 python3 $D/cublas.py $ALL $OUT/cublas_after.json 2>&1 | grep -v Warn
date -u
cp $XDG_DATA_HOME/tilescope/tuning/*.timed.json $J/timed.json 2>/dev/null; rm -rf $XDG_DATA_HOME
cd /tmp && tar czf $OUT/sitting.tgz j && rm -rf /tmp/j
