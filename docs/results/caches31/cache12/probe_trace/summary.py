#!/usr/bin/env python3
"""cache12: per lap, the share of a cycle's loads that hit the L1 (under 150 cycles), and at lap 10
the runs of hits (H) and misses (.) along the cycle. python3 summary.py trace.csv"""
import csv, collections, sys
by = collections.defaultdict(dict)
for r in csv.DictReader(open(sys.argv[1] if len(sys.argv) > 1 else 'trace.csv')):
    k = (int(r['carve_pct']), int(r['lines']))
    by[k].setdefault(int(r['lap']), []).append(int(r['cycles']) < 150)
for k, laps in sorted(by.items()):
    print(k, ' '.join(f'lap{l}:{100 * sum(v) / len(v):.1f}' for l, v in sorted(laps.items())))
for k, laps in sorted(by.items()):
    s = ''.join('H' if x else '.' for x in laps[10])
    runs, cur, n = [], s[0], 0
    for ch in s:
        if ch == cur:
            n += 1
        else:
            runs.append(f'{cur}{n}')
            cur, n = ch, 1
    runs.append(f'{cur}{n}')
    print(k, 'lap 10:', len(runs), 'runs:', ' '.join(runs[:32]), '...' if len(runs) > 32 else '')
