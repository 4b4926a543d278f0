#!/usr/bin/env python3
"""Issue 31, cache12: the L1 probe's walks (caches_l1probe.sh, measured on the GPU) against the model's
L1 with each candidate geometry and replacement (cache_replay walk). Prints, per candidate, the hit
rate at every walk and the mean and worst absolute difference in points.
  caches_l1probe_fit.py PROBEDIR CACHE_REPLAY 'l1_kb=224' 'l1_kb=224 l1ways=4 l1rand=1' ..."""
import csv, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
probe, replay, sets = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = [r for r in csv.reader(open(f'{probe}/probe.csv')) if len(r) > 10]
head = rows[0]
ii, mi, vi = head.index('ID'), head.index('Metric Name'), head.index('Metric Value')
hit = {}
for r in rows[1:]:
    if r[mi] == 'l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct':
        hit[int(r[ii])] = float(r[vi])
walks = [l.split()[:4] for l in open(f'{probe}/configs.txt')]

def model(params, w):
    kind, stride, lines, laps = w
    out = subprocess.run([replay, 'walk', lines, stride, laps, 'h200', kind] + params.split(),
                         capture_output=True, text=True, check=True).stdout
    return float(out.split('l1_hit_rate=')[1])

with ThreadPoolExecutor(2) as ex:
    futures = {(p, i): ex.submit(model, p, w) for p in sets for i, w in enumerate(walks)}
    for p in sets:
        diffs = []
        print(f'[{p}]')
        for i, w in enumerate(walks):
            m = futures[(p, i)].result()
            diffs.append(abs(m - hit[i]))
            if w[1] == '128':
                print(f'  {w[0]:9s} {w[2]:>5s} lines: GPU {hit[i]:6.2f}  model {m:6.2f}')
        strided = [d for d, w in zip(diffs, walks) if w[1] != '128']
        print(f'  mean |diff| {sum(diffs) / len(diffs):.2f} points, worst {max(diffs):.2f}; '
              f'power-of-two and 112-line strides worst {max(strided):.2f}')
        sys.stdout.flush()
