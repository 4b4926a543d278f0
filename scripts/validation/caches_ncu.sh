#!/usr/bin/env bash
# Validation of the cache model (issue 11), run on the lent GPU (not part of the product):
# builds caches_mm.cu and profiles naive and tiled with Nsight Compute, cold caches
# (ncu's default --cache-control all), for each size given. Writes OUT/ncu_SIZE.csv.
#   scripts/validation/caches_ncu.sh OUTDIR SIZE [SIZE..]
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$1"; shift
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
nvcc -O3 -arch=sm_90 -o /tmp/caches_mm "$here/caches_mm.cu" || exit 1
metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,\
l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,lts__t_sectors_srcunit_tex_op_read.sum,\
lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,\
lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_tex_lookup_hit.sum,dram__sectors_read.sum,dram__sectors_write.sum,\
dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
for s in "$@"; do
  /tmp/caches_mm "$s" | tee "$out/run_$s.txt"
  ncu --metrics "$metrics" --csv /tmp/caches_mm "$s" >"$out/ncu_$s.csv" 2>"$out/ncu_$s.err" ||
    { echo "ncu failed for $s (full metric list):"; tail -5 "$out/ncu_$s.err"
      ncu --metrics l1tex__t_sector_hit_rate.pct,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,\
dram__sectors_read.sum,dram__sectors_write.sum --csv /tmp/caches_mm "$s" >"$out/ncu_${s}_basic.csv" 2>>"$out/ncu_$s.err" ||
        { echo "ncu failed for $s (basic metrics too):"; tail -5 "$out/ncu_$s.err"; }; }
done
