#!/bin/bash
# Session 50 probe: ptxas's register and spill counts (-cl-nv-verbose) for warp_tile.cl's 64x64 TSK 8 point read four
# ways (INPLACE 0 on padded copies with ODD 0; 1, 2 and 3 with ODD 4), from kernels/warp_tile.cl as carried
# (INPLACE 3 from inplace3.patch applied to a copy).
# usage (on the lent machine): D=.carry/s47 bash docs/results/session50/pair/verbose.sh
D=${D:-.carry/s47}; J=${OUT:-/tmp/ptx_out}; mkdir -p $J /tmp/icd
echo "$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}')" > /tmp/icd/nvidia.icd; export OCL_ICD_VENDORS=/tmp/icd LD_LIBRARY_PATH=$D/lib
cp kernels/warp_tile.cl /tmp/wt3.cl && patch -s /tmp/wt3.cl docs/results/session50/pair/inplace3.patch
for pt in "-D TS=64 -D TSK=8 -D WM=32 -D WN=64 -D WNITER=2 -D TM=8 -D TN=4 -D PAD=4 -D NDIV=1 -D NMUL=1" \
          "-D TS=128 -D TSK=16 -D WM=64 -D WN=64 -D WNITER=4 -D TM=4 -D TN=4 -D PAD=4 -D NDIV=1 -D NMUL=1"; do
  echo "== $pt"
  for v in "0 0" "1 4" "2 4" "3 4"; do set -- $v
    $D/dump_ptx /tmp/wt3.cl "$pt -D EDGES=1 -D INPLACE=$1 -D ODD=$2 -cl-nv-verbose" > /dev/null 2> $J/v$1.log
    echo "INPLACE=$1: $(grep -E 'registers|spill' $J/v$1.log | tr -s ' ' | tr '\n' ' ')"
  done
done
