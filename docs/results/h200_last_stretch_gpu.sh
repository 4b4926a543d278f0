#!/bin/bash
# One device session (2026-11-23, lent nvidia-h200): cuBLAS, warp_tile tuned per size bucket, the bench,
# cuBLAS again. .devcarry/gpu holds the tilescope binary built from this commit, the non-system libraries
# `ldd` names (lib/), and docs/results/h200_speed_cublas.py as cublas.py.
D=.devcarry/gpu; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=libnvidia-opencl.so.1 PYTHONUNBUFFERED=1
T=$OUT/tuning; mkdir -p $T; cp assets/tuning/nvidia-cuda-nvidia-h200.json $T/; export TILESCOPE_TUNING_DIR=$T
B=$D/tilescope
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,driver_version --format=csv,noheader
$B devices | head -4
python3 $D/cublas.py 1024,4096,8192 $OUT/cublas_before.json
G="--param WM=32,64 --param WN=32,64 --param WNITER=1,2,4 --param TM=4,8 --param TN=4,8 --param PAD=4"
timeout 220 $B tune --kernel warp_tile --size 4096 --tile 128 --param TSK=8,16 $G --reps 5 --out $T > $OUT/tune_warp_tile_4096.log 2>&1; grep best $OUT/tune_warp_tile_4096.log
timeout 120 $B tune --kernel warp_tile --size 1024 --tile 64,128 --param TSK=8,16 $G --reps 5 --out $T > $OUT/tune_warp_tile_1024.log 2>&1; grep best $OUT/tune_warp_tile_1024.log
timeout 150 $B bench --kernel warp_tile,reg2d_dbuf,clblast --size 1024,4096,8192 --reps 10 --warmup 2 --json $OUT/bench.json 2>&1 | grep -v "^\["
python3 $D/cublas.py 1024,4096,8192 $OUT/cublas_after.json
