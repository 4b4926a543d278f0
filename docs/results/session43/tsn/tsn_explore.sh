#!/bin/bash
# session 43: warp_tile with tiles that are not TS x TS/NDIV (128x96, 192x128; a copy of the kernel whose TSN is a define)
# at sizes whose groups fill two rounds, against the pick (`--kernel fastest`) and cuBLAS, one call.
D=.carry/s43; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning XDG_DATA_HOME=/tmp/xdg; B=$D/tilescope
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader
SIZES=${SIZES:-2476,2500,2448}
timeout 60 python3 $D/cublas.py $SIZES $OUT/cublas_before.json 2>&1 | grep -v Warn
for S in ${SIZES//,/ }; do
  timeout 60 $B bench --kernel fastest --size $S --reps 10 --warmup 2 2>&1 | grep -E "^(warp_tile|splitk) "
  for cfg in "128 96 64 32 8" "128 96 64 32 16" "192 128 32 64 8" "192 128 32 64 16"; do set -- $cfg
    echo -n "TSM=$1 TSN=$2 WM=$3 WN=$4 TSK=$5: "
    B=$B SIZE=$S TSM=$1 TSN=$2 WM=$3 WN=$4 TSK=$5 timeout 60 bash $D/tsn.sh 2>&1 | tail -1
  done
done
timeout 60 python3 $D/cublas.py $SIZES $OUT/cublas_after.json 2>&1 | grep -v Warn
