#!/bin/bash
# warp_tile (skipped loads past the edges) at every size with the large bucket's point and with the small bucket's point.
D=.carry/speed; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=libnvidia-opencl.so.1 TILESCOPE_TUNING_DIR=$(mktemp -d)
B=$D/tilescope
SQ=1000,1500,2000,3000,4000,5000,6000,7000,8000,1024,2048,3072,4096,5120,6144,7168,8192
SH=8192x8192x256,256x8192x8192,8192x256x8192,64x8192x8192,2048x2048x32768
timeout 250 $B bench --kernel warp_tile --size $SQ,$SH --tile 128 --param TSK=16 --param WM=64 --param WN=64 --param WNITER=4 --param TM=4 --param TN=4 --param PAD=4 --reps 5 --warmup 1 --json $OUT/c_large.json 2>&1 | grep -v "^\["
timeout 250 $B bench --kernel warp_tile --size $SQ,$SH --tile 64 --param TSK=8 --param WM=32 --param WN=64 --param WNITER=2 --param TM=8 --param TN=4 --param PAD=4 --reps 5 --warmup 1 --json $OUT/c_small.json 2>&1 | grep -v "^\["
