#!/bin/bash
# overlap16: the probe on the lent GPU. Run from the main checkout as `bash .carry/overlap16/probe.sh` with
# carry [".carry/overlap16"] (that folder: probe built by build.sh, this script, lib/libOpenCL.so.1 from .carry/s47).
# NVIDIA's OpenCL there has no .icd: one is written into a temp folder named by OCL_ICD_VENDORS.
D=.carry/overlap16
ldconfig -p | grep -q 'libOpenCL.so.1 ' || export LD_LIBRARY_PATH=$D/lib
d=$(mktemp -d); echo $(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') > $d/nvidia.icd; export OCL_ICD_VENDORS=$d
{ date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader
  for mb in 64 256 1024; do echo; echo "== --mb $mb"; timeout 60 $D/probe --mb $mb --reps 10 --warmup 2; echo "rc=$?"; done
} 2>&1 | tee $OUT/probe_out.txt
