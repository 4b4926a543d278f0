#!/bin/bash
D=.carry/speed; mkdir -p /tmp/icd; echo libnvidia-opencl.so.1 > /tmp/icd/nv.icd; export OCL_ICD_VENDORS=/tmp/icd LD_LIBRARY_PATH=$D/lib
L="-D TS=128 -D TSK=16 -D WM=64 -D WN=64 -D WNITER=4 -D TM=4 -D TN=4 -D PAD=4"
S="-D TS=64 -D TSK=8 -D WM=32 -D WN=64 -D WNITER=2 -D TM=8 -D TN=4 -D PAD=4"
for v in A B C; do
  for n in 4000 8000 3000; do
    g=$(( (n + 127) / 128 ))
    echo "$v large $n: $(timeout 60 $D/ptxdump $D/v/$v.cl "-cl-nv-verbose $L -D EDGES=1 -D ODD=0" /tmp/x.ptx mm_warp_tile $n $((g*128)) $g 128 1 2>&1 | grep -o 'Used [0-9]* registers\|time.*' | tr '\n' ' ')"
  done
  for n in 3000 5000; do
    g=$(( (n + 63) / 64 ))
    echo "$v small $n: $(timeout 60 $D/ptxdump $D/v/$v.cl "-cl-nv-verbose $S -D EDGES=1 -D ODD=0" /tmp/x.ptx mm_warp_tile $n $((g*64)) $g 64 1 2>&1 | grep -o 'Used [0-9]* registers\|time.*' | tr '\n' ' ')"
  done
done
for n in 4096 8192; do g=$((n/128)); echo "A large EDGES=0 $n: $(timeout 60 $D/ptxdump $D/v/A.cl "-cl-nv-verbose $L -D EDGES=0 -D ODD=0" /tmp/x.ptx mm_warp_tile $n $((g*128)) $g 128 1 2>&1 | grep -o 'Used [0-9]* registers\|time.*' | tr '\n' ' ')"; done
for n in 3072; do g=$((n/64)); echo "A small EDGES=0 $n: $(timeout 60 $D/ptxdump $D/v/A.cl "-cl-nv-verbose $S -D EDGES=0 -D ODD=0" /tmp/x.ptx mm_warp_tile $n $((g*64)) $g 64 1 2>&1 | grep -o 'Used [0-9]* registers\|time.*' | tr '\n' ' ')"; done
