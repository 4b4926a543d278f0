#!/bin/bash
# Issue 20, one sitting on the lent H200: cuBLAS before, warp_tile and reg2d_dbuf with the committed tuning at every
# size and shape (bench --reps 10 --warmup 2), cuBLAS after, then ptxas' registers of the points the lookup chose.
D=.carry/speed; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=libnvidia-opencl.so.1 PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$(mktemp -d)   # empty: the committed (embedded) tuning only
B=$D/tilescope
date -u; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,driver_version --format=csv,noheader
$B devices | head -4
SQ=1000,1500,2000,3000,4000,5000,6000,7000,8000,1024,2048,3072,4096,5120,6144,7168,8192
SH=8192x8192x256,256x8192x8192,8192x256x8192,64x8192x8192,2048x2048x32768
timeout 100 python3 $D/cublas.py $SQ,$SH $OUT/cublas_before.json 2>&1 | grep -v Warn
timeout 300 $B bench --kernel warp_tile,reg2d_dbuf --size $SQ --reps 10 --warmup 2 --json $OUT/bench_squares.json 2>&1 | grep -v "^\["
timeout 120 $B bench --kernel warp_tile,reg2d_dbuf --size $SH --reps 10 --warmup 2 --json $OUT/bench_shapes.json 2>&1 | grep -v "^\["
timeout 100 python3 $D/cublas.py $SQ,$SH $OUT/cublas_after.json 2>&1 | grep -v Warn
mkdir -p /tmp/icd; echo libnvidia-opencl.so.1 > /tmp/icd/nv.icd
for defs in "-D TS=128 -D TSK=16 -D WM=64 -D WN=64 -D WNITER=4 -D TM=4 -D TN=4 -D PAD=4" "-D TS=64 -D TSK=8 -D WM=32 -D WN=64 -D WNITER=2 -D TM=8 -D TN=4 -D PAD=4"; do
  for e in "-D EDGES=0 -D ODD=0" "-D EDGES=1 -D ODD=0" "-D EDGES=1 -D ODD=1"; do
    echo "registers: $(OCL_ICD_VENDORS=/tmp/icd timeout 60 $D/ptxdump $D/warp_tile.cl "-cl-nv-verbose $defs $e" /tmp/x.ptx 2>&1 | grep -o 'Used [0-9]* registers.*smem' | head -1) ($defs $e)"
  done
done
date -u
