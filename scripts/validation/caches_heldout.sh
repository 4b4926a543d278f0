#!/usr/bin/env bash
# Issue 31: the cache model judged on sizes it was not fitted on, run on the lent GPU (not
# part of the product). Builds caches_twins.cu and profiles one cold launch (ncu's default
# --cache-control all) of each of the six twins and the check kernel naive_bt at each size
# given, into OUT/ncu_SIZE.csv; OUT/run.txt has registers, blocks per SM and the error
# against a CPU product, OUT/gpu.txt the GPU, driver, ncu and nvcc.
#   scripts/validation/caches_heldout.sh OUTDIR SIZE [SIZE..]
# The sizes are drawn (../shared/tools/draw-sizes --squares 3 --min 200 --max 2000, seed in
# docs/caches.md) and rounded to multiples of 64 (reg2d_tpad's float4 path; the sampled
# model needs whole tiles).
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$1"; shift; mkdir -p "$out"
NCU="$(command -v ncu || echo /usr/local/cuda/bin/ncu)"
NVCC="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$out/gpu.txt"
"$NCU" --version | tail -1 | tee -a "$out/gpu.txt"
"$NVCC" --version | tail -1 | tee -a "$out/gpu.txt"
"$NVCC" -O3 -arch=sm_90 -o /tmp/caches_twins "$here/caches_twins.cu" 2>&1 | tee "$out/nvcc.txt" || exit 1
seven=naive,tiled,row,reg2d,tiled_wpt,reg2d_tpad,naive_bt
metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,\
l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__m_xbar2l1tex_read_sectors.sum,\
lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,\
dram__sectors_read.sum,dram__sectors_write.sum,gpu__time_duration.sum,\
launch__shared_mem_config_size,launch__shared_mem_per_block_static,launch__shared_mem_per_block_driver
for s in "$@"; do
  /tmp/caches_twins "$s" "$seven" | tee -a "$out/run.txt"
  timeout 200 "$NCU" --metrics "$metrics" --csv /tmp/caches_twins "$s" "$seven" >"$out/ncu_$s.csv" 2>"$out/ncu_$s.err" ||
    echo "ncu failed at $s: $(tail -3 "$out/ncu_$s.err")"
done
grep -c '"' "$out"/ncu_*.csv
