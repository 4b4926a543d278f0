#!/usr/bin/env bash
# cache6, device call 6 (issue 31, item 2) on the lent H100 (as .carry/cache6/dram_h100.sh; its replay
# failed there for want of libclblast, so it was run here instead, same command): DRAM past the L2 at 4,096^3, naive and
# tiled, measured (caches_ncu.sh, never on an H100 before), and tiled 4,096^3 modelled with the h100
# profile (50 MB L2), every group, one line in 8, as draw 4's H200 replay. Writes $OUT/dram_h100.tgz.
set -u
export PATH=$PATH:/usr/local/cuda/bin LD_LIBRARY_PATH=$PWD/.carry/cache5/lib
o=$OUT/dram_h100; mkdir -p $o
( /usr/bin/time -f "tiled 4096 h100 lsample=8 %e s %U user" timeout 300 .carry/cache6/cache_replay smodel .carry/cache6/big/tiled_4096.sstream 0 h100 \
    resident=8 l1_kb=224 lsample=8 > $o/model_tiled_4096_h100.txt 2> $o/model_time.txt ) &
timeout 280 bash scripts/validation/caches_ncu.sh $o 4096 > $o/log.txt 2>&1
wait; cat $o/model_tiled_4096_h100.txt $o/model_time.txt; tail -3 $o/log.txt
tar czf $OUT/dram_h100.tgz -C $OUT dram_h100 && rm -rf $o
