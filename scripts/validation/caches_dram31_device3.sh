#!/usr/bin/env bash
# cache5, device call 3 (issue 31, item 2): DRAM past the L2, naive and tiled at 4,096^3 (and
# tiled at 6,144^3 when its sample is there), every group of the launch replayed with the fitted
# h200 profile, on a sample of the lines (lsample=K: one line in K, caches of 1/K the sets,
# counts scaled by K; checked against whole replays at 1,024^3 in docs/caches.md). One core
# each, in parallel. Writes $OUT/dram.txt.
set -u
C=${C:-.carry/cache5}; export LD_LIBRARY_PATH=$PWD/$C/lib
gunzip -f $C/big/*.gz
run() { local k=$1 s=$2 l1=$3 ls=$4
  ( /usr/bin/time -f "$k $s lsample=$ls %e s %U user" timeout 530 $C/cache_replay smodel $C/big/${k}_$s.sstream 0 h200 \
      resident=8 l1_kb=$l1 lsample=$ls > /tmp/$k.$s.txt 2>/tmp/$k.$s.time; echo "$k $s lsample=$ls $(cat /tmp/$k.$s.txt) $(tail -1 /tmp/$k.$s.time)" >> $OUT/dram.txt ) & }
run naive 4096 256 16; run tiled 4096 224 8
[ -s $C/big/tiled_6144.sstream ] && run tiled 6144 224 16
[ -s $C/big/naive_6144.sstream ] && run naive 6144 256 64
wait; cat $OUT/dram.txt
