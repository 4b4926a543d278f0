#!/bin/bash
# Round 1 of this session: the interior fast path (wt5), forced on (upper bound), and unswitched (wt5u).
V=docs/results/h200_exact_variants   # the variants; D holds ptxdump (scripts/nvidia_ptx_dump.c built), its libraries and, for diag8, the tilescope binary as tilescope2
D=.devcarry/gpu; export LD_LIBRARY_PATH=$D/lib
mkdir -p /tmp/icd; echo libnvidia-opencl.so.1 > /tmp/icd/nv.icd
run() { local name=$1 f=$2 n=$3 g0=$4 g1=$5 l0=$6; shift 6
  echo "== $name: $(OCL_ICD_VENDORS=/tmp/icd timeout 40 $D/ptxdump $f "-cl-nv-verbose $*" /tmp/x.ptx mm_warp_tile $n $g0 $g1 $l0 1 2>&1 | grep -h 'Used\|spill [^0]\|^time\|error' | sed 's/ptxas info *: //; s/used 1 barriers, //; s/kernel mm_warp_tile: //' | tr -s ' ' | tr '\n' ' ')"; }
c() { echo "-D TS=128 -D WM=$1 -D WN=$2 -D WNITER=$3 -D TM=$4 -D TN=$5 -D TSK=$6 -D PAD=4"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
for cfg in "32 64 2 4 4 16" "64 32 2 4 4 16" "64 32 1 8 8 16" "32 64 2 4 4 8"; do
  run "base ($cfg)" $V/base.cl 4096 8192 32 256 $(c $cfg)
  run "wt5 ($cfg)" $V/wt5.cl 4096 8192 32 256 $(c $cfg)
  run "wt5 forced ($cfg)" $V/wt5.cl 4096 8192 32 256 $(c $cfg) -D FORCE_INSIDE
  run "wt5u ($cfg)" $V/wt5u.cl 4096 8192 32 256 $(c $cfg)
done
for v in "base $V/base.cl" "wt5 $V/wt5.cl" "wt5u $V/wt5u.cl"; do set -- $v
  run "$1 8192 (32 64 2 4 4 16)" $2 8192 16384 64 256 $(c 32 64 2 4 4 16)
done
# the new rung, verified by tilescope itself (tuned choices as committed)
T=/tmp/tuning; mkdir -p $T; cp assets/tuning/nvidia-cuda-nvidia-h200.json $T/
TILESCOPE_TUNING_DIR=$T TILESCOPE_ICDS=libnvidia-opencl.so.1 timeout 120 $D/tilescope2 bench --kernel warp_tile --size 1000,4096,8192,37x29x45 --reps 5 --warmup 2 2>&1 | grep -v "^\["
