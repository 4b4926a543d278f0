#!/usr/bin/env python3
"""cache9 (issue 31): row 640^3 as the L1 shrinks, the GPU (ncu with each carve-out asked for,
caches_carveout9 raw) against the model's replays (cache_replay smodel row_640.sstream 2112 h200
resident=32 l1_kb=KB l1rand=S, one line each in ROWFILE). Prints a markdown table.
  caches_carveout9_table.py ROWFILE H200DIR H100DIR"""
import csv, glob, os, sys

def gpu_curve(d):
    out = {}
    for f in sorted(glob.glob(os.path.join(d, 'ncu_row_640_p*.csv'))):  # the first of equal carve-outs (p0 before p14, p3, p7)
        rows = [r for r in csv.reader(open(f)) if len(r) > 10]
        ki, mi, vi = (rows[0].index(x) for x in ('Kernel Name', 'Metric Name', 'Metric Value'))
        v = {r[mi]: float(r[vi].replace(',', '')) for r in rows[1:]}
        kb = 256 - int(v['launch__shared_mem_config_size']) // 1024
        out.setdefault(kb, (v['l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct'],
                   v['lts__t_sectors_srcunit_tex_op_read.sum'] + v['lts__t_sectors_srcunit_tex_op_write.sum']))
    return out

model = {}
for line in open(sys.argv[1]):
    kv = dict(x.split('=', 1) for x in line.split() if '=' in x)
    if 'l2_sectors' not in kv:
        continue
    kb, share = int(kv.get('l1_kb', 256)), float(kv['l1rand'])
    model[(kb, share)] = (float(kv['l1_hit_rate']), float(kv['l2_sectors']))
h200, h100 = gpu_curve(sys.argv[2]), gpu_curve(sys.argv[3])
shares = (0.0, 0.5, 1.0)
print('| L1 (KB) | H200: L1 hit, L2 sectors | H100 | ' + ' | '.join(f'model, l1_random {s:g}' for s in shares) + ' |')
print('|---|---|---|' + '---|' * len(shares))
for kb in sorted(h200, reverse=True):
    cells = []
    for s in shares:
        if (kb, s) not in model:
            cells.append('not run')
            continue
        hit, l2 = model[(kb, s)]
        cells.append(f'{hit:.2f} %, {l2:,.0f} ({100 * (l2 / h200[kb][1] - 1):+.1f} / {100 * (l2 / h100[kb][1] - 1):+.1f} %)')
    print(f'| {kb} | {h200[kb][0]:.2f} %, {h200[kb][1]:,.0f} | {h100[kb][0]:.2f} %, {h100[kb][1]:,.0f} | ' + ' | '.join(cells) + ' |')
