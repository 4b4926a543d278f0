#!/usr/bin/env bash
# cache10 (issue 31), on each lent GPU machine: ncu at draw 7's sizes (caches_heldout.sh, which now
# records the carve-out each twin launched with), then row 448^3 once more with the L2 request
# counts and whatever L2 Request Coalescer (lrc__) counters this ncu offers for the chip, to see where
# the L1 misses that never reach L2 as sectors go. Writes /tmp/o/GPU, tars it to $OUT.
#   bash scripts/validation/caches_cache10_device.sh SIZE [SIZE..]
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"  # run from a copy with caches_heldout.sh and caches_twins.cu beside it
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -o 'H[12]00' | tr H h | head -1)
o=/tmp/o/$gpu; mkdir -p "$o"; date -u +%FT%TZ > "$o/start.txt"
bash "$here/caches_heldout.sh" "$o" "$@" > "$o/heldout_log.txt" 2>&1
NCU="$(command -v ncu || echo /usr/local/cuda/bin/ncu)"
"$NCU" --query-metrics --chip gh100 > "$o/query_metrics.txt" 2>&1
lrc=$(grep -oE '^lrc__[a-z0-9_]+' "$o/query_metrics.txt" | grep -E 'sectors|requests' | sort -u | sed 's/$/.sum/' | tr '\n' ',')
m=${lrc}l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,l1tex__m_xbar2l1tex_read_sectors.sum,\
l1tex__m_l1tex2xbar_req.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum
for k in row tiled naive; do
  timeout 60 "$NCU" --metrics "$m" --csv /tmp/caches_twins 448 $k > "$o/ncu_lrc_${k}_448.csv" 2> "$o/ncu_lrc_${k}_448.err" ||
    echo "ncu lrc failed for $k: $(tail -2 "$o/ncu_lrc_${k}_448.err")"
done
date -u +%FT%TZ >> "$o/start.txt"
tail -3 "$o/heldout_log.txt"; grep -c '"' "$o"/ncu_*.csv
tar czf "$OUT/cache10_$gpu.tgz" -C /tmp/o "$gpu"
