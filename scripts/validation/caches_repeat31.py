#!/usr/bin/env python3
"""Issue 31 (cache6): how far ncu's L2 sectors and L1 hit move between cold launches of the same
kernel at the same size (docs/results/caches31/draw5/repeat/ncu_SIZE_I.csv, five launches each,
caches_heldout.sh's metrics, lent H200), beside the model's figure from heldout tables.
  caches_repeat31.py docs/results/caches31"""
import csv, glob, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from caches_ncu_csv import load
root = sys.argv[1]
model = {}
for f in ('draw4/seen3_heldout.csv', 'draw4/heldout.csv', 'draw5/heldout.csv'):
    for r in csv.DictReader(open(os.path.join(root, f))):
        if r['gpu'] == 'h200' and r['model_l2_sectors']:
            model[(r['kernel'], int(r['size']))] = (float(r['model_l2_sectors']), float(r['model_l1_hit_pct']))
runs = {}
for f in sorted(glob.glob(os.path.join(root, 'draw5/repeat/ncu_*_*.csv'))):
    size = int(os.path.basename(f).split('_')[1])
    for k, v in load(f).items():
        runs.setdefault((k, size), []).append((v['lts__t_sectors_srcunit_tex_op_read.sum'] + v['lts__t_sectors_srcunit_tex_op_write.sum'],
                                               v['l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct']))
print('| kernel | size | launches | L2 sectors: ncu, least-most | spread | model | L1 hit: ncu, least-most | model |')
print('|---|---|---|---|---|---|---|---|')
for (k, s), v in sorted(runs.items(), key=lambda x: (x[0][1], x[0][0])):
    l2 = sorted(x[0] for x in v); hit = sorted(x[1] for x in v); m = model.get((k, s))
    print(f"| {k} | {s}³ | {len(v)} | {l2[0]:,.0f} - {l2[-1]:,.0f} | {100 * (l2[-1] - l2[0]) / l2[0]:.1f}% | "
          f"{f'{m[0]:,.0f}' if m else ''} | {hit[0]:.2f}% - {hit[-1]:.2f}% | {f'{m[1]:.2f}%' if m else ''} |")
