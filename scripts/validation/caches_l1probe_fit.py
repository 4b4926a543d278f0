#!/usr/bin/env python3
"""Issue 31, cache12: the L1 probe's walks (caches_l1probe.sh, measured on the GPU) against the model's
L1 with each candidate geometry and replacement (cache_replay walk). Each walk's L1 is 256 KB less
the carve-out ncu recorded for it (launch__shared_mem_config_size) less the candidate's `shrink=KB`
(0 by default). Prints, per candidate, the hit rate at every 128-byte walk and the mean and worst
absolute difference in points over all walks.
  caches_l1probe_fit.py PROBEDIR CACHE_REPLAY '' 'l1ways=4' 'shrink=4 l1ways=4 l1rand=0.5' ..."""
import csv, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
probe, replay, sets = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = [r for r in csv.reader(open(f'{probe}/probe.csv')) if len(r) > 10]
head = rows[0]
ii, mi, vi = head.index('ID'), head.index('Metric Name'), head.index('Metric Value')
hit, carve = {}, {}
for r in rows[1:]:
    if r[mi] == 'l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct':
        hit[int(r[ii])] = float(r[vi])
    if r[mi] == 'launch__shared_mem_config_size':
        carve[int(r[ii])] = int(float(r[vi].replace(',', ''))) // 1024  # bytes in the CSV
walks = [l.split()[:4] for l in open(f'{probe}/configs.txt')]

def model(params, i):
    kind, stride, lines, laps = walks[i]
    words = params.split()
    shrink = sum(int(w.split('=')[1]) for w in words if w.startswith('shrink='))
    words = [w for w in words if not w.startswith('shrink=')]
    l1 = 256 - carve[i] - shrink
    out = subprocess.run([replay, 'walk', lines, stride, laps, 'h200', kind, f'l1_kb={l1}'] + words,
                         capture_output=True, text=True, check=True).stdout
    return float(out.split('l1_hit_rate=')[1])

with ThreadPoolExecutor(2) as ex:
    futures = {(p, i): ex.submit(model, p, i) for p in sets for i in range(len(walks))}
    for p in sets:
        diffs = []
        print(f'[{p}]')
        for i, w in enumerate(walks):
            m = futures[(p, i)].result()
            diffs.append(abs(m - hit[i]))
            if w[1] == '128':
                print(f'  {w[0]:9s} {w[2]:>5s} lines, L1 {256 - carve[i]:3d} KB: GPU {hit[i]:6.2f}  model {m:6.2f}')
        strided = [d for d, w in zip(diffs, walks) if w[1] != '128']
        print(f'  mean |diff| {sum(diffs) / len(diffs):.2f} points, worst {max(diffs):.2f}; '
              f'power-of-two and 112-line strides worst {max(strided):.2f}')
        sys.stdout.flush()
