#!/bin/bash
# Issue 30: the padded copies against the checked loop, same binary, same sitting: bench --pad auto and --pad off.
D=.carry/speed; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=libnvidia-opencl.so.1
export TILESCOPE_TUNING_DIR=$(mktemp -d)
S=1234,1307,3333,4097,5555,7777,1234x5678x910,1793x1833x1193,4592x2197x2657
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for p in off auto off auto; do echo "--pad $p"; timeout 100 $D/tilescope bench --kernel warp_tile --size $S --reps 10 --warmup 2 --pad $p --json $OUT/pad_$p.json 2>&1 | grep -v "^\[" | awk '{print $1, $2, $8}'; done
date -u
