#!/usr/bin/env bash
# Issue 31, cache12: the L1's answer to cycles of lines (caches_l1probe.cu), on the lent GPU under
# Nsight Compute: OUT/probe.csv (one row per launch: L1 sectors, hits, L2 sectors), OUT/configs.txt
# (the launches in the same order), OUT/gpu.txt. Not part of the product.
#   scripts/validation/caches_l1probe.sh OUTDIR
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$1"; mkdir -p "$out"
NCU="$(command -v ncu || echo /usr/local/cuda/bin/ncu)"
NVCC="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$out/gpu.txt"
"$NCU" --version | tail -1 | tee -a "$out/gpu.txt"
"$NVCC" -O3 -arch=sm_90 -o /tmp/caches_l1probe "$here/caches_l1probe.cu" 2>&1 | tee "$out/nvcc.txt" || exit 1
metrics=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,\
l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,launch__shared_mem_config_size
timeout 500 "$NCU" --metrics "$metrics" --csv /tmp/caches_l1probe "$out/configs.txt" >"$out/probe.csv" 2>"$out/probe.err" ||
  echo "ncu failed: $(tail -3 "$out/probe.err")"
grep -c WRONG "$out/configs.txt"; wc -l < "$out/configs.txt"; grep -c '"walk' "$out/probe.csv"
