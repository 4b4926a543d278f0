#!/usr/bin/env python3
"""cache9 (issue 31): the shared-memory carve-out the driver gave each twin, and row's L1 hit rate
and L2 sectors as the carve-out grows, from caches_carveout9 ncu runs (one folder a GPU).
  caches_carveout9.py DIR [DIR..]"""
import csv, glob, os, sys

for d in sys.argv[1:]:
    print(f'== {d}: {open(os.path.join(d, "gpu.txt")).readline().strip()}')
    for f in sorted(glob.glob(os.path.join(d, 'ncu_*.csv'))):
        rows = [r for r in csv.reader(open(f)) if len(r) > 10]
        if not rows:
            continue
        h = rows[0]
        ki, mi, vi = h.index('Kernel Name'), h.index('Metric Name'), h.index('Metric Value')
        per = {}
        for r in rows[1:]:
            per.setdefault(r[ki].split('(')[0].replace('void ', '').replace('<0>', ''), {})[r[mi]] = float(r[vi].replace(',', ''))
        for k, v in per.items():
            cfg = v['launch__shared_mem_config_size'] / 1024
            l2 = v['lts__t_sectors_srcunit_tex_op_read.sum'] + v['lts__t_sectors_srcunit_tex_op_write.sum']
            print(f'{os.path.basename(f):24} {k:16} carve-out {cfg:5.0f} KB  L1 {256 - cfg:5.0f} KB  '
                  f'static {v["launch__shared_mem_per_block_static"]:6.0f} B  driver {v["launch__shared_mem_per_block_driver"]:5.0f} B/block  '
                  f'L1 hit {v["l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct"]:6.2f} %  L2 sectors {l2:13,.0f}')
