#!/bin/bash
# Issue 20 item 3: the lent H100 (no tuning file of its own: the H200's applies as a similar device), then tune --quick.
D=.carry/speed; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=libnvidia-opencl.so.1 PYTHONUNBUFFERED=1
T=$OUT/tuning; mkdir -p $T; export TILESCOPE_TUNING_DIR=$T   # empty at first: the committed (embedded) files only
B=$D/tilescope
date -u; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,driver_version --format=csv,noheader
$B devices | head -4
timeout 60 python3 $D/cublas.py 4096,8192 $OUT/h100_cublas_before.json 2>&1 | grep -v Warn
timeout 90 $B bench --kernel warp_tile,reg2d_dbuf --size 4096,8192 --reps 10 --warmup 2 --json $OUT/h100_bench_untuned.json 2>&1 | grep -v "^\["
( time timeout 200 $B tune --quick --kernel warp_tile --size 4096 --reps 5 ) > $OUT/h100_tune_quick.log 2>&1; grep -v "^\[" $OUT/h100_tune_quick.log | tail -8
timeout 90 $B bench --kernel warp_tile --size 4096,8192 --reps 10 --warmup 2 --json $OUT/h100_bench_tuned.json 2>&1 | grep -v "^\["
timeout 60 python3 $D/cublas.py 4096,8192 $OUT/h100_cublas_after.json 2>&1 | grep -v Warn
ls $T; date -u
