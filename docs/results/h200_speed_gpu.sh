#!/bin/bash
# One device session: cuBLAS, then warp_tile tuned per size bucket, then the bench beside cuBLAS.
D=.devcarry/speed; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=libnvidia-opencl.so.1 PYTHONUNBUFFERED=1
T=$OUT/tuning; mkdir -p $T; cp $D/nvidia-cuda-nvidia-h200.json $T/; export TILESCOPE_TUNING_DIR=$T
B=$D/tilescope; nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv,noheader
$B devices | head -4
python3 $D/cublas.py 1024,4096,8192 $OUT/cublas.json
G="--param WM=32,64 --param WN=32,64 --param WNITER=1,2,4 --param TM=4,8 --param TN=4,8 --param PAD=4"
timeout 240 $B tune --kernel warp_tile --size 4096 --tile 128 --param TSK=8,16 $G --reps 3 --out $T > $OUT/tune4096.log 2>&1; grep best $OUT/tune4096.log; grep -c "GFLOP/s" $OUT/tune4096.log
timeout 150 $B tune --kernel warp_tile --size 1024 --tile 64,128 --param TSK=8,16 $G --reps 5 --out $T > $OUT/tune1024.log 2>&1; grep best $OUT/tune1024.log
timeout 90 $B tune --quick --kernel reg2d_dbuf --size 1024 --reps 5 --out $T > $OUT/tunedbuf.log 2>&1; grep best $OUT/tunedbuf.log
$B bench --kernel warp_tile,reg2d_dbuf,clblast --size 1024,4096,8192 --reps 10 --warmup 2 --json $OUT/bench.json
python3 $D/cublas.py 1024,4096,8192 $OUT/cublas2.json
