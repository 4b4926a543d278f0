#!/usr/bin/env bash
# cache9 (issue 31): row's L1 on the GPU as its L1 shrinks. Profiles one cold launch of each
# twin at SIZE with the driver's own carve-out (what it gives a kernel without shared memory),
# then row at SIZE with each carve-out step asked for (TWINS_CARVEOUT, percent of 228 KB,
# rounded down so the driver's rounding up lands on the step: 0, 8, 16, 32, 64, 100, 132 KB).
#   scripts/validation/caches_carveout9_device.sh OUTDIR SIZE
set -u
out="$1"; s="$2"; mkdir -p "$out"
NCU="$(command -v ncu || echo /usr/local/cuda/bin/ncu)"
NVCC="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
"$NCU" --version | tail -1 >> "$out/gpu.txt"
"$NVCC" -O3 -arch=sm_90 -o /tmp/caches_twins scripts/validation/caches_twins.cu || exit 1
m=launch__shared_mem_config_size,launch__shared_mem_per_block_driver,launch__shared_mem_per_block_static,\
launch__occupancy_limit_shared_mem,launch__registers_per_thread,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,\
lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum
"$NCU" --metrics "$m" --csv /tmp/caches_twins "$s" naive,tiled,row,reg2d,tiled_wpt,reg2d_tpad,naive_bt \
  > "$out/ncu_default_$s.csv" 2> "$out/ncu_default_$s.err"
for p in 0 3 7 14 28 43 57; do
  TWINS_CARVEOUT=$p "$NCU" --metrics "$m" --csv /tmp/caches_twins "$s" row > "$out/ncu_row_${s}_p$p.csv" 2>> "$out/ncu_row.err"
done
grep -h 'row\|naive' "$out"/ncu_*.csv | grep -c . 
