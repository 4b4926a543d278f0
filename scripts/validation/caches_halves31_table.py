#!/usr/bin/env python3
# Issue 31 (cache8): the two-half L2's DRAM reads against Nsight Compute, from the lines of
# caches_halves31.sh (or its device twin caches_halves31_device1.sh's all.txt), any number of files.
#   scripts/validation/caches_halves31_table.py [--wide] halves.txt [more.txt ...] > table.md
# --wide: one row per launch and GPU, one column per L2 (errors against ncu).
# A replay of the first G of T groups: when G/2 was replayed too, the reads are extrapolated from
# the later half's rate (D_G + (D_G - D_G/2) / (G/2) * (T - G)); otherwise scaled by T / G (marked).
import os, re, sys
here = os.path.dirname(os.path.abspath(__file__)); root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, here)
from caches_ncu_csv import load
ncu = {}
for gpu, size, path in [(g, s, p) for g in ('h200', 'h100') for s, p in
                        ((1920, f'docs/results/caches31/{g}/ncu_1920.csv'), (2048, f'docs/results/caches24/{g}/ncu_2048.csv'),
                         (4096, f'docs/results/caches31/dram/{g}/ncu_4096.csv'), (6144, f'docs/results/caches31/dram/{g}/ncu_6144.csv'))]:
    p = os.path.join(root, path)
    if os.path.exists(p):
        for k, v in load(p).items():
            ncu[(gpu, k, size)] = v['dram__sectors_read.sum']
wide = '--wide' in sys.argv
runs = {}
for f in [a for a in sys.argv[1:] if a != '--wide']:
    for line in open(f):
        if '|' not in line or 'dram_read_sectors' not in line: continue
        head, counts = line.split('|')[:2]
        w = head.split(); launch, groups, gpu = w[0], int(w[1]), w[2]
        variant = ' '.join(x for x in w[3:] if x.startswith(('halves', 'copy_ways')))
        c = dict(x.split('=') for x in counts.split())
        runs[(launch, gpu, variant, groups or int(c['groups_total']))] = (int(c['dram_read_sectors']), int(c['groups_total']), float(c['l2_sectors']), float(c['l1_hit_rate']))
rows = []
for (launch, gpu, variant, g), (d, total, l2, l1) in sorted(runs.items(), key=lambda x: (int(x[0][0].split('_')[1]), x[0][0], x[0][1], x[0][2])):
    kernel, size = launch.split('_')[0], int(launch.split('_')[1])
    if g != total and (launch, gpu, variant, g * 2) in runs: continue  # the larger replay speaks
    how = 'every group'
    if g != total:
        half = runs.get((launch, gpu, variant, g // 2))
        if half:
            d = d + (d - half[0]) / (g - g // 2) * (total - g); how = f'first {g:,} of {total:,} groups, extrapolated from the last {g - g // 2:,}'
        else:
            d = d * total / g; how = f'first {g:,} of {total:,} groups, scaled'
    ref = ncu.get((gpu, kernel, size))
    err = f'{(d / ref - 1) * 100:+.1f} %' if ref else 'not measured'
    rows.append((size, kernel, gpu, variant or 'halves=1', ref, d, err, how))
if not wide:
    print('| launch | GPU | L2 | DRAM read sectors: ncu | model | error | how |')
    print('|---|---|---|---|---|---|---|')
    for size, kernel, gpu, variant, ref, d, err, how in rows:
        print(f"| {kernel} {size:,}³ | {gpu} | {variant} | {ref and f'{ref:,.0f}' or '—'} | {d:,.0f} | {err} | {how} |")
else:
    print('(* the first groups only, scaled by the groups left: lower than the whole launch for naive; see the text)')
    print()
    cols = ['halves=1', 'halves=2 copy_ways=16', 'halves=2 copy_ways=8', 'halves=2 copy_ways=4', 'halves=2 copy_ways=2']
    print('| launch | GPU | DRAM read sectors: ncu | one L2 | halves, copies in 16 ways | 8 | 4 | 2 |')
    print('|---|---|---|---|---|---|---|---|')
    keys = sorted({(r[0], r[1], r[2]) for r in rows}, key=lambda k: (k[0], k[1], k[2] != 'h200'))
    for size, kernel, gpu in keys:
        cell = {r[3]: r for r in rows if (r[0], r[1], r[2]) == (size, kernel, gpu)}
        ref = next(iter(cell.values()))[4]
        print(f"| {kernel} {size:,}³ | {gpu} | {ref and f'{ref:,.0f}' or '—'} | " +
              ' | '.join(f"{cell[c][5]:,.0f} ({cell[c][6]}){'*' if 'scaled' in cell[c][7] else ''}" if c in cell else 'not run' for c in cols) + ' |')
