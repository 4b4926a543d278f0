#!/bin/bash
# Exploration (issue 20): cuBLAS and warp_tile/reg2d_dbuf with the committed tuning at every size, warp_tile's
# small-bucket point at sizes where few large tiles fill the device badly, the skinny shapes, ptxas registers.
D=.carry/speed; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=libnvidia-opencl.so.1 PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$(mktemp -d)
B=$D/tilescope
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,driver_version --format=csv,noheader
python3 -c "import torch; print('torch', torch.__version__)"
SQ=1000,1500,2000,3000,4000,5000,6000,7000,8000,1024,2048,3072,4096,5120,6144,7168,8192
SH=8192x8192x256,256x8192x8192,8192x256x8192,64x8192x8192,2048x2048x32768
mkdir -p /tmp/icd; echo libnvidia-opencl.so.1 > /tmp/icd/nv.icd
for defs in "-D TS=128 -D TSK=16 -D WM=64 -D WN=64 -D WNITER=4 -D TM=4 -D TN=4 -D PAD=4 -D EDGES=0 -D ODD=0" \
            "-D TS=128 -D TSK=16 -D WM=64 -D WN=64 -D WNITER=4 -D TM=4 -D TN=4 -D PAD=4 -D EDGES=1 -D ODD=0" \
            "-D TS=64 -D TSK=8 -D WM=32 -D WN=64 -D WNITER=2 -D TM=8 -D TN=4 -D PAD=4 -D EDGES=1 -D ODD=0"; do
  echo "registers: $(OCL_ICD_VENDORS=/tmp/icd timeout 60 $D/ptxdump $D/warp_tile.cl "-cl-nv-verbose $defs" /tmp/x.ptx 2>&1 | grep -o 'Used [0-9]* registers.*smem' | head -1) ($defs)"
done
timeout 100 python3 $D/cublas.py $SQ,$SH $OUT/x_cublas.json 2>&1 | grep -v Warn
timeout 280 $B bench --kernel warp_tile,reg2d_dbuf --size $SQ --reps 5 --warmup 1 --json $OUT/x_bench_sq.json 2>&1 | grep -v "^\["
timeout 100 $B bench --kernel warp_tile --size 1000,1500,2000,3000,5000,7000 --tile 64 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param TM=8 --param TN=4 --param PAD=4 --reps 5 --warmup 1 --json $OUT/x_bench_t64.json 2>&1 | grep -v "^\["
timeout 100 $B bench --kernel warp_tile,reg2d_dbuf --size $SH --reps 5 --warmup 1 --json $OUT/x_bench_shapes.json 2>&1 | grep -v "^\["
