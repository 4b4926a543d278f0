#!/bin/bash
# Issue 30 item 1 (speed9): a training sweep on the H100 for its own "fastest" table: the points the H200 table
# uses most, at 38 sizes weighted to the H100's weak kinds (drawn by draw-sizes, seeds in benchmarks.md).
# usage (from the checkout): bash .carry/speed9/sweep.sh   (each step's JSON and log go to $OUT/sweep.tgz as it ends)
D=.carry/speed9; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$(mktemp -d)   # explicit points: no table needed
B=$D/tilescope; J=/tmp/sweep; mkdir -p $J
# shapes: draw-sizes --squares 0 --shapes 400 --min 512, seed 26413425, the first 12 with 600 <= min(M,N) <= 2500
# and K >= 5000, the first 12 with K < 2500 and max(M,N) >= 5000; the four H100 draws below 92 % so far;
# squares: draw-sizes --squares 10 --shapes 0, seed 723552056
S=1393x5198x7965,873x8357x9565,651x7750x9505,1221x1165x5329,1311x6791x7461,5235x2097x5755,853x5424x6525,8684x1305x6421,2253x1989x7844,817x5731x5271,1122x6727x7298,1397x5866x5533
S=$S,9197x7335x2255,7480x3693x747,9377x7549x2433,9232x6287x678,1415x9621x2468,9161x5979x1239,9435x8715x1291,6318x8093x1935,3019x6937x2191,9975x3181x869,8885x8727x2240,2249x8058x1631
S=$S,9059x2021x6776,1509x2162x5719,659x6104x7757,7352x1291x5334
S=$S,2669,3989,4275,4839,5064,7633,7781,8116,9547,9913
P64="--param NDIV=1 --param TM=8 --param TN=4 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param PAD=4"
N2C="--param NDIV=2 --param TM=8 --param TN=4 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param PAD=4"
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $J/device.txt
step() { name=$1; t=$2; shift 2; echo "== $name $(date -u +%T)"; timeout $t $B bench "$@" --size $S --reps 5 --warmup 1 --json $J/$name.json > $J/$name.log 2>&1; echo "rc $? $(grep -c "ok (err" $J/$name.log) lines"; tar czf $OUT/sweep.tgz -C $J .; }
step wt128 ${T:-50} --kernel warp_tile --tile 128 $N2C
step sk64s3 ${T:-50} --kernel splitk --tile 64 $P64 --param SLICES=3
step wt64 ${T:-50} --kernel warp_tile --tile 64 $P64
step sk64s2 ${T:-50} --kernel splitk --tile 64 $P64 --param SLICES=2
step sk64s4 ${T:-50} --kernel splitk --tile 64 $P64 --param SLICES=4
step sk128s2 ${T:-45} --kernel splitk --tile 128 $N2C --param SLICES=2
date -u
