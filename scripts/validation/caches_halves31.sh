#!/usr/bin/env bash
# Issue 31 (cache8): the two-half L2 on the fit set's launches near and past the L2 and at 6,144^3,
# replayed from sampled streams (cache_replay sdump KERNEL SIZE), one at a time, niced. Prints one
# line per replay: the launch, the parameters and cache_replay's counts (DRAM sectors already scaled
# by the line sample; a replay of the first G groups of T is scaled by T/G in the tables).
#   scripts/validation/caches_halves31.sh STREAMS [build/tests/cache_replay] > halves.txt
# STREAMS holds tiled_1920, naive_2048, tiled_4096, naive_4096, tiled_6144 and naive_6144 .sstream
# (cache_replay sdump; 6,144^3 needs the emulator's 128 MiB buffer limit lifted, as since cache8).
set -u
S="$1"; R="${2:-build/tests/cache_replay}"
for gpu in h200 h100; do
  for v in "halves=1" "halves=2 copy_ways=16" "halves=2 copy_ways=8" "halves=2 copy_ways=4" "halves=2 copy_ways=2"; do
    for j in "tiled_1920 0 lsample=16 l1_kb=224" "naive_2048 0 lsample=32 l1_kb=256" "tiled_4096 0 lsample=32 l1_kb=224" \
             "naive_4096 2112 lsample=16 l1_kb=256" "naive_4096 4224 lsample=16 l1_kb=256" \
             "tiled_6144 36864 lsample=32 l1_kb=224" "naive_6144 2112 lsample=16 l1_kb=256" \
             "naive_6144 4224 lsample=16 l1_kb=256"; do
      set -- $j
      echo "$1 $2 $gpu resident=8 $3 $4 $v | $(nice "$R" smodel "$S/$1.sstream" "$2" $gpu resident=8 $3 $4 $v 2>&1)"
    done
  done
done
