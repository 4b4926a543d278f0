#!/usr/bin/env bash
# cache6, device call 4 (issue 31; run as .carry/cache6/h100more.sh on the lent H200, so only (2) ran):
# (1) on an H100 only, DRAM past the L2 at 4,096^3, naive and tiled (caches_ncu.sh); (2) why reg2d_tpad's co-resident blocks stay
# in step and reg2d's do not: ncu's scheduler and warp-state sections for both at 1,408^3 and
# 1,536^3. Writes $OUT/h100more.tgz.
set -u
o=$OUT/h100more; mkdir -p $o/dram; nvidia-smi --query-gpu=name --format=csv,noheader > $o/gpu.txt
export PATH=$PATH:/usr/local/cuda/bin
nvidia-smi | grep -q H100 && ( timeout 240 bash scripts/validation/caches_ncu.sh $o/dram 4096 > $o/dram/log.txt 2>&1 ) &
nvcc -O3 -arch=sm_90 -o /tmp/tw scripts/validation/caches_twins.cu || exit 1
for s in 1408 1536; do
  timeout 150 ncu --section SchedulerStats --section WarpStateStats --section Occupancy --section LaunchStats \
    --metrics l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,smsp__inst_executed.sum,gpu__time_duration.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_global_ld.sum \
    --csv --page details /tmp/tw $s reg2d,reg2d_tpad > $o/stall_$s.csv 2> $o/stall_$s.err || tail -3 $o/stall_$s.err
done
wait; tail -3 $o/dram/log.txt; ls -la $o $o/dram
tar czf $OUT/h100more.tgz -C $OUT h100more && rm -rf $o
