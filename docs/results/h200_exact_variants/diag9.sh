#!/bin/bash
# Round 2: the fast path only (wt5 forced) against wt7 (fast only, peeled; U=phase loop by two, P=fragment prefetch).
V=docs/results/h200_exact_variants   # the variants; D holds ptxdump (scripts/nvidia_ptx_dump.c built), its libraries and, for diag8, the tilescope binary as tilescope2
D=.devcarry/gpu; export LD_LIBRARY_PATH=$D/lib
mkdir -p /tmp/icd; echo libnvidia-opencl.so.1 > /tmp/icd/nv.icd
run() { local name=$1 f=$2 n=$3 g0=$4 g1=$5 l0=$6; shift 6
  echo "== $name: $(OCL_ICD_VENDORS=/tmp/icd timeout 40 $D/ptxdump $f "-cl-nv-verbose $*" /tmp/x.ptx mm_warp_tile $n $g0 $g1 $l0 1 2>&1 | grep -h 'Used\|spill [^0]\|^time\|error' | sed 's/ptxas info *: //; s/used 1 barriers, //; s/kernel mm_warp_tile: //; s/bytes stack frame.*spill loads//' | tr -s ' ' | tr '\n' ' ')"; }
c() { echo "-D TS=128 -D WM=$1 -D WN=$2 -D WNITER=$3 -D TM=$4 -D TN=$5 -D TSK=$6 -D PAD=4"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
for cfg in "32 64 2 4 4 16" "64 32 2 4 4 16" "64 32 1 8 8 16" "32 64 2 4 4 8"; do
  run "wt5f ($cfg)" $V/wt5.cl 4096 8192 32 256 $(c $cfg) -D FORCE_INSIDE
  for u in 0 1; do for p in 0 1; do
    run "wt7 U$u P$p ($cfg)" $V/wt7.cl 4096 8192 32 256 $(c $cfg) -D UNROLL2=$u -D PREFETCH=$p
  done; done
done
for cfg in "64 64 2 8 8 8" "64 64 1 8 16 8" "64 64 2 8 8 16"; do
  for p in 0 1; do run "wt7 U0 P$p 128wi ($cfg)" $V/wt7.cl 4096 4096 32 128 $(c $cfg) -D UNROLL2=0 -D PREFETCH=$p; done
done
run "wt5f 8192 (32 64 2 4 4 16)" $V/wt5.cl 8192 16384 64 256 $(c 32 64 2 4 4 16) -D FORCE_INSIDE
for u in 0 1; do for p in 0 1; do
  run "wt7 U$u P$p 8192 (32 64 2 4 4 16)" $V/wt7.cl 8192 16384 64 256 $(c 32 64 2 4 4 16) -D UNROLL2=$u -D PREFETCH=$p
done; done
