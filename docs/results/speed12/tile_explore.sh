#!/bin/bash
# speed12, call 2 (issue 30 item 1): tile shapes and TSK at the weak sizes, from a --source copy of warp_tile.cl whose
# TSN is a define (tsn.sh; float4-aligned neighbours of the weak draws, so no padded copies): 128x64 (the pick's
# shape) with TSK 8 and 16, 64x128 (cuBLAS's at 2474^3) with TSK 16 and 32 and with 64x32 warp tiles; then the
# catalog's own 128x64 TSK 16 point (`--kernel warp_tile`, padded copies) at the weak draws themselves; cuBLAS before and after.
# usage (from the checkout, on the lent machine): [TSIZES=...] [SIZES=...] bash .carry/speed12/tile_explore.sh
D=.carry/speed12; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning XDG_DATA_HOME=/tmp/xdg12; B=$D/tilescope; J=/tmp/t2; mkdir -p $J
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $J/device.txt
TSIZES=${TSIZES:-2476,2488,2448,3900x4780x1928,1108,4096,6144}; SIZES=${SIZES:-2474,2489,2449,3900x4779x1928}
timeout 60 python3 $D/cublas.py $TSIZES,$SIZES $J/cublas_before.json 2>&1 | grep -v Warn
sed -e 's|^#define TSN (TS / NDIV)|#ifndef TSN\n#define TSN (TS / NDIV)\n#endif|' \
    -e 's|^#define LOADS .*|#define LOADS ((AVECS + NT - 1) / NT > BLOADS ? (AVECS + NT - 1) / NT : BLOADS)|' \
    -e 's|(AVECS % NT == 0 \|\| |((AVECS % NT == 0 \&\& l * NT < AVECS) \|\| |g' $D/warp_tile.cl > $D/wt_tsn.cl
for S in ${TSIZES//,/ }; do
  echo "== tsn $S $(date -u +%T)"
  timeout 60 $B bench --kernel fastest --size $S --reps 10 --warmup 2 2>&1 | grep -v "^\[" | awk '{print "fastest", $1, $2, $3, $4, $6, $8}'
  for cfg in "128 64 32 64 8" "128 64 32 64 16" "64 128 32 64 16" "64 128 32 64 32" "64 128 64 32 16"; do set -- $cfg
    echo -n "TSM=$1 TSN=$2 WM=$3 WN=$4 TSK=$5: "
    B=$B SIZE=$S TSM=$1 TSN=$2 WM=$3 WN=$4 TSK=$5 TM=8 TN=4 timeout 40 bash $D/tsn.sh 2>&1 | tail -1
  done
done
for S in ${SIZES//,/ }; do echo "== $S $(date -u +%T)"
  for t in 8 16; do timeout 40 $B bench --kernel warp_tile --tile 128 --param NDIV=2 --param TM=8 --param TSK=$t --size $S --reps 10 --warmup 2 2>&1 | tail -1; done
done
timeout 60 python3 $D/cublas.py $TSIZES,$SIZES $J/cublas_after.json 2>&1 | grep -v Warn
date -u; cd /tmp && tar czf $OUT/t2.tgz t2
