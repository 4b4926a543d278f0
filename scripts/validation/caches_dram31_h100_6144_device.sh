#!/usr/bin/env bash
# cache8, device call 2 (issue 31): ncu at 6,144^3 on the H100, naive and tiled, the metrics of
# caches_ncu.sh, without its plain run and with ncu ending the process once both launches are
# profiled (the twin's CPU check at 6,144^3 takes about a minute a kernel: naive's still runs).
set -u
export PATH=$PATH:/usr/local/cuda/bin
o=$OUT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $o/gpu.txt
nvcc -O3 -arch=sm_90 -o /tmp/caches_mm scripts/validation/caches_mm.cu || exit 1
m=$(sed -n '/^metrics=/,/gpu__time_duration.sum$/p' scripts/validation/caches_ncu.sh | sed 's/^metrics=//' | tr -d '\\\n')
echo "$m" > $o/metrics.txt
for kill in on yes; do
  timeout 200 ncu --metrics "$m" --csv --launch-count 2 --kill $kill /tmp/caches_mm 6144 > $o/ncu_6144.csv 2> $o/ncu_6144.err
  rc=$?; echo "kill=$kill rc=$rc" >> $o/log.txt
  grep -q '"ID"' $o/ncu_6144.csv && break; [ $rc = 124 ] && break
done
date -u > $o/date.txt
