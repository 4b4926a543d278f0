#!/usr/bin/env python3
# Issue 31: DRAM reads past the L2 (4,096^3 and 6,144^3), naive and tiled, from the raw
# Nsight Compute CSVs of scripts/validation/caches_ncu.sh (docs/results/caches31/dram/GPU/).
#   scripts/validation/caches_dram31.py [GPU...]     (default h200) > table.md
import os, sys
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, here)
from caches_ncu_csv import load
print('| GPU | size | A + B | kernel | DRAM read: ncu | × compulsory | L1 hit: ncu | L2 sectors: ncu | time |')
print('|---|---|---|---|---|---|---|---|---|')
for gpu in sys.argv[1:] or ['h200']:
    for s in (4096, 6144):
        path = os.path.join(root, f'docs/results/caches31/dram/{gpu}/ncu_{s}.csv')
        if not os.path.exists(path):
            continue
        ab = 2 * s * s * 4
        for k, v in sorted(load(path).items()):
            d = v['dram__bytes_read.sum']
            print(f"| {gpu} | {s:,}³ | {ab/1e6:,.0f} MB | {k} | {d/1e6:,.0f} MB | {d/ab:.1f} | "
                  f"{v['l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct']:.2f}% | "
                  f"{v['lts__t_sectors_srcunit_tex_op_read.sum']:,.0f} | {v['gpu__time_duration.sum']/1000:,.0f} µs |")
