#!/usr/bin/env bash
# cache9 (issue 31): row's L1 on the GPU as its L1 shrinks, and the carve-out the driver gives each
# twin. On the GPU machine: profiles one cold launch of each twin at each SIZE with the driver's own
# carve-out, then row at the first SIZE with each carve-out step asked for (TWINS_CARVEOUT, percent of
# 228 KB, rounded down so that the driver's rounding up lands on a step: 0, 8, 16, 32, 64, 100, 132 KB)
# and at the other SIZEs with 0, 14 and 43 percent.
#   scripts/validation/caches_carveout9_device.sh OUTDIR SIZE [SIZE..]
# (The calls of 2026-11-27 ran these steps with caches_twins.cu patched in the command: the H200 call
# the defaults at 640 and row's steps at 640 and 960, the H100 call the defaults at 640 and 1088 and
# row at 640 with 0, 28, 43 and 57 percent.)
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$1"; shift; mkdir -p "$out"
NCU="$(command -v ncu || echo /usr/local/cuda/bin/ncu)"
NVCC="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
"$NCU" --version | tail -1 >> "$out/gpu.txt"
date -u >> "$out/gpu.txt"
"$NVCC" -O3 -arch=sm_90 -o /tmp/caches_twins "$here/caches_twins.cu" || exit 1
m=launch__shared_mem_config_size,launch__shared_mem_per_block_driver,launch__shared_mem_per_block_static,\
launch__registers_per_thread,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,\
lts__t_sectors_srcunit_tex_op_write.sum
first="$1"
for s in "$@"; do
  "$NCU" --metrics "$m" --csv /tmp/caches_twins "$s" naive,tiled,row,reg2d,tiled_wpt,reg2d_tpad,naive_bt \
    > "$out/ncu_default_$s.csv" 2>> "$out/err_default.txt"
  steps="0 14 43"; [ "$s" = "$first" ] && steps="0 3 7 14 28 43 57"
  for p in $steps; do
    TWINS_CARVEOUT=$p "$NCU" --metrics "$m" --csv /tmp/caches_twins "$s" row > "$out/ncu_row_${s}_p$p.csv" 2>> "$out/err_row.txt"
  done
done
date -u >> "$out/gpu.txt"
