#!/usr/bin/env bash
# Issue 31, cache12: each load of one lap of a cycle timed (caches_l1probe_trace.cu) on the
# lent GPU: OUT/trace.csv and OUT/gpu.txt. Not part of the product.
#   scripts/validation/caches_l1probe_trace.sh OUTDIR
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$1"; mkdir -p "$out"
NVCC="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$out/gpu.txt"
"$NVCC" -O3 -arch=sm_90 -o /tmp/caches_l1probe_trace "$here/caches_l1probe_trace.cu" || exit 1
/tmp/caches_l1probe_trace "$out/trace.csv" && wc -l < "$out/trace.csv"
