#!/usr/bin/env bash
# Validation of the cache model (issue 24), run on the lent GPU (not part of the product):
# builds caches_twins.cu and, for each size, (1) runs every twin once recording which SM each
# block ran on and when it started (OUT/place.csv: kernel,size,block,bx,by,smid,start_ns),
# (2) profiles one launch of each with Nsight Compute, cold caches (ncu's default
# --cache-control all): OUT/ncu_SIZE.csv, and a second time (OUT/ncu_SIZE_rep.csv) to show
# the run-to-run spread of the L2 counts.
#   scripts/validation/caches_validate.sh OUTDIR
# Sizes: 128 and 256 for the six twins; 1024, 2048, 4096 for naive and tiled (DRAM).
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$1"; mkdir -p "$out"
NCU="$(command -v ncu || echo /usr/local/cuda/bin/ncu)"
NVCC="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$out/gpu.txt"
"$NCU" --version | tail -1 | tee -a "$out/gpu.txt"
"$NVCC" --version | tail -1 | tee -a "$out/gpu.txt"
"$NVCC" -O3 -arch=sm_90 -o /tmp/caches_twins "$here/caches_twins.cu" 2>&1 | tee "$out/nvcc.txt" || exit 1
six=naive,tiled,row,reg2d,tiled_wpt,reg2d_tpad
: > "$out/place.csv"
for s in 128 256; do /tmp/caches_twins $s $six "$out/place.csv" | tee -a "$out/run.txt"; done
/tmp/caches_twins 1024 naive,tiled "$out/place.csv" | tee -a "$out/run.txt"
full=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,\
l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
l1tex__m_xbar2l1tex_read_sectors.sum,l1tex__m_l1tex2xbar_req.sum,\
lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,\
lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,\
dram__sectors_read.sum,dram__sectors_write.sum,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active
basic=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,\
l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,lts__t_sectors_srcunit_tex_op_read.sum,\
lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,\
lts__t_sectors_srcunit_tex.sum,dram__sectors_read.sum,dram__sectors_write.sum,gpu__time_duration.sum
prof() {  # size kernels file
  timeout 240 "$NCU" --metrics "$full" --csv /tmp/caches_twins "$1" "$2" >"$out/$3" 2>"$out/$3.err" && return
  echo "ncu: full metric list failed for $1 ($(tail -2 "$out/$3.err" | tr '\n' ' ')); basic list"
  timeout 240 "$NCU" --metrics "$basic" --csv /tmp/caches_twins "$1" "$2" >"$out/$3" 2>>"$out/$3.err" ||
    echo "ncu: basic list failed too: $(tail -3 "$out/$3.err")"
}
for s in 128 256; do prof $s $six ncu_$s.csv; prof $s $six ncu_${s}_rep.csv; done
for s in 1024 2048 4096; do prof $s naive,tiled ncu_$s.csv; done
grep -c '"' "$out"/ncu_*.csv
