#!/bin/bash
# speed12, call 1 (issue 30 item 1): the group swizzle GSW (kernels/warp_tile.cl: bands of GSW tile-columns, down M
# inside a band) at the weak draws and controls: the pick (`bench --kernel fastest`), then the pick's own point with
# GSW 0 (as the pick), 8, 4, 16, 0, 8 (interleaved to see the spread); then 64x128 tiles (cuBLAS's tile shape at
# 2474^3) from a --source copy whose TSN is a define (tsn.sh) at float4-aligned neighbours; cuBLAS before and after.
# usage (from the checkout, on the lent machine): [SIZES=...] [TSIZES=...] bash .carry/speed12/gsw_explore.sh
# (.carry/speed12: tilescope built from branch speed12, lib/, cublas.py, tsn.sh, tuning/ empty, kernels/warp_tile.cl)
D=.carry/speed12; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning XDG_DATA_HOME=/tmp/xdg12; B=$D/tilescope; J=/tmp/g1; mkdir -p $J
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $J/device.txt
SIZES=${SIZES:-2474,2489,2449,1109,3900x4779x1928,4097}; TSIZES=${TSIZES:-2476,2488,2448,1108,3900x4780x1928}
timeout 60 python3 $D/cublas.py $SIZES,$TSIZES $J/cublas_before.json 2>&1 | grep -v Warn
# the pick's point as bench options: --kernel K --tile T --param P=V ...
point() { python3 -c "import json,sys; r=json.load(open(sys.argv[1]))[0]; print('--kernel', r['kernel'], '--tile', r['tile'], *['--param %s=%d' % kv for kv in r['params'].items() if kv[0] != 'GSW'])" $1; }
for S in ${SIZES//,/ }; do
  echo "== $S $(date -u +%T)"
  timeout 60 $B bench --kernel fastest --size $S --reps 10 --warmup 2 --json $J/fastest_$S.json 2>&1 | grep -v "^\[" | awk '{print "fastest", $1, $2, $3, $4, $6, $8}'
  P=$(point $J/fastest_$S.json); echo "point: $P"
  for g in 0 8 4 16 0 8; do
    echo -n "GSW=$g "; timeout 40 $B bench $P --param GSW=$g --size $S --reps 10 --warmup 2 --json $J/g${g}_$S.json 2>&1 | grep -v "^\[" | tail -1
  done
done
sed -e 's|^#define TSN (TS / NDIV)|#ifndef TSN\n#define TSN (TS / NDIV)\n#endif|' \
    -e 's|^#define LOADS .*|#define LOADS ((AVECS + NT - 1) / NT > BLOADS ? (AVECS + NT - 1) / NT : BLOADS)|' \
    -e 's|(AVECS % NT == 0 \|\| |((AVECS % NT == 0 \&\& l * NT < AVECS) \|\| |g' $D/warp_tile.cl > $D/wt_tsn.cl
for S in ${TSIZES//,/ }; do
  echo "== tsn $S $(date -u +%T)"
  timeout 60 $B bench --kernel fastest --size $S --reps 10 --warmup 2 2>&1 | grep -v "^\[" | awk '{print "fastest", $1, $2, $3, $4, $6, $8}'
  for cfg in "128 64 32 64 8 0" "64 128 32 64 8 0" "64 128 32 64 16 0"; do set -- $cfg
    echo -n "TSM=$1 TSN=$2 WM=$3 WN=$4 TSK=$5 GSW=$6: "
    B=$B SIZE=$S TSM=$1 TSN=$2 WM=$3 WN=$4 TSK=$5 TM=8 TN=4 GSW=$6 timeout 40 bash $D/tsn.sh 2>&1 | tail -1
  done
done
timeout 60 python3 $D/cublas.py $SIZES,$TSIZES $J/cublas_after.json 2>&1 | grep -v Warn
date -u; cd /tmp && tar czf $OUT/g1.tgz g1
