#!/bin/bash
# Issue 30 item 1 (speed10): the other half of speed9's H100 training sweep: the shapes speed9 did not reach
# (K < 2500 with M or N >= 5000, one short side 500-700 with long K, mid squares), most useful first.
# usage (from the checkout): bash .carry/speed10/sweep.sh   (each step's log goes to $OUT/sweep.tgz as it ends)
D=.carry/speed10; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$(mktemp -d)   # explicit points: no table needed
B=$D/tilescope; J=/tmp/sweep; mkdir -p $J
# squares: draw-sizes --squares 10 --shapes 0, seed 723552056 (mid ones first: the H100's weak squares are 5077, 5887);
# shapes: draw-sizes --squares 0 --shapes 400 --min 512, seed 26413425: K < 2500 with max(M,N) >= 5000 (largest first),
# and the ones with 500 <= min(M,N) <= 700 and K >= 4000 (N short first, like the weak 4313x631x5246)
SQ=5064,4839,4275,3989,9197x7335x2255,9377x7549x2433,8885x8727x2240,6318x8093x1935,9161x5979x1239,7633,3019x6937x2191,9435x8715x1291,7480x3693x747,9232x6287x678,1415x9621x2468,9975x3181x869,2249x8058x1631,2669,7781,8116
SH=7481x651x5932,4903x566x7989,7809x556x6231,4437x599x9693,8763x663x8753,627x4436x5113,673x5053x9508,633x9313x6717,521x4860x8151,613x1893x5857,1169x673x4310
P64="--param NDIV=1 --param TM=8 --param TN=4 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param PAD=4"
N2C="--param NDIV=2 --param TM=8 --param TN=4 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param PAD=4"
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $J/device.txt
step() { name=$1; t=$2; S=$3; shift 3; echo "== $name $(date -u +%T)"; timeout $t $B bench "$@" --size $S --reps 5 --warmup 1 --json $J/$name.json > $J/$name.log 2>&1; echo "rc $? $(grep -c "ok (err" $J/$name.log) lines $(date -u +%T)"; tar czf $OUT/sweep.tgz -C $J .; }
step sq_wt128 58 $SQ --kernel warp_tile --tile 128 $N2C
step sq_wt64 52 $SQ --kernel warp_tile --tile 64 $P64
step sh_sk64s8 36 $SH --kernel splitk --tile 64 $P64 --param SLICES=8
step sh_sk64s4 36 $SH --kernel splitk --tile 64 $P64 --param SLICES=4
step sh_wt64 34 $SH --kernel warp_tile --tile 64 $P64
step sh_sk64s2 32 $SH --kernel splitk --tile 64 $P64 --param SLICES=2
step sh_sk64s6 ${T6:-30} $SH --kernel splitk --tile 64 $P64 --param SLICES=6
date -u
