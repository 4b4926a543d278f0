#!/bin/bash
# Session 50 probe: warp_tile.cl's PTX for the same point (64x64, TSK 8) read four ways at 1234^3: on padded
# copies (INPLACE 0, ODD 0), vload4 (1), a float at a time (2), aligned pairs (3). Counts of spills and loads.
# usage (on the lent machine): D=.carry/s47 bash docs/results/session50/pair/ptx.sh
D=${D:-.carry/s47}; J=${OUT:-/tmp/ptx_out}; mkdir -p $J /tmp/icd
echo "$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}')" > /tmp/icd/nvidia.icd; export OCL_ICD_VENDORS=/tmp/icd LD_LIBRARY_PATH=$D/lib
B="-D TS=64 -D TSK=8 -D WM=32 -D WN=64 -D WNITER=2 -D TM=8 -D TN=4 -D PAD=4 -D NDIV=1 -D NMUL=1 -D EDGES=1"
for v in "0 0" "1 4" "2 4" "3 4"; do set -- $v
  $D/dump_ptx kernels/warp_tile.cl "$B -D INPLACE=$1 -D ODD=$2" > $J/in$1.ptx 2> $J/in$1.log
  echo "in$1: $(wc -l < $J/in$1.ptx) lines, ld.local $(grep -c 'ld.local' $J/in$1.ptx), st.local $(grep -c 'st.local' $J/in$1.ptx), ld.global $(grep -c 'ld.global' $J/in$1.ptx), bar $(grep -c 'bar.sync' $J/in$1.ptx), regs: $(grep -E '\.reg ' $J/in$1.ptx | tr '\n' ' ' | cut -c1-200)"
done
