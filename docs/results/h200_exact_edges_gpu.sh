#!/bin/bash
# warp_tile at sizes its tiles do not divide (EDGES != 0: checked loads and stores) beside sizes they do.
D=.devcarry/gpu; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=libnvidia-opencl.so.1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
timeout 200 $D/tilescope3 bench --kernel warp_tile,reg2d_dbuf --size 1000,1024,4000,4096 --reps 10 --warmup 2 --json $OUT/edges_bench.json 2>&1 | grep -v "^\["
