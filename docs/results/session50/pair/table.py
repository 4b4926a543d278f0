#!/usr/bin/env python3
"""Session 50's INPLACE 3 probe: each point's GFLOP/s (mean of the call's two rounds) and its share of the
mean of cuBLAS's runs before and after, per call folder.  usage: table.py h200_v1 h200_v2 h200_v3"""
import re, sys
shapes = {'a': '941x4323x2607', 'a128': '941x4323x2607', 'b': '1311x1465x7288', 'c': '9847x1080x8179',
          'd': '2827x2827x2827', 'e': '985x8361x8908', 'f': '1234x1234x1234', 'fw': '1234x1234x1234'}
points = {'a': 'splitk 64x64 TSK 8, 3 slices', 'a128': 'splitk 128x64 TSK 8, 3 slices', 'b': 'splitk 64x64 TSK 8, 8 slices',
          'c': 'splitk 128x64 TSK 8, 2 slices', 'd': 'warp_tile 64x128 TSK 16', 'e': 'warp_tile 128x128 TSK 16',
          'f': 'warp_tile 64x64 TSK 8', 'fw': 'warp_tile 64x128 TSK 16'}
cols = {}
for d in sys.argv[1:]:
    cub, g = {}, {}
    for line in open(d + '/log.txt'):
        m = re.match(r'cublas (\S+): ([\d.]+) GFLOP/s', line)
        if m: cub.setdefault(m.group(1), []).append(float(m.group(2)))
        m = re.match(r'r(\d)_(\w+?)_in(\d) .*?\s([\d.]+)\s+[\d.]+-[\d.]+\s+ok', line)
        if m: g.setdefault((m.group(2), m.group(3)), []).append(float(m.group(4)))
    for (p, i), v in g.items():
        c = sum(cub[shapes[p]]) / len(cub[shapes[p]])
        cols.setdefault((p, i), {})[d] = '%.0f (%.1f %%)' % (sum(v) / len(v), 100 * sum(v) / len(v) / c)
print('| shape | point | read | ' + ' | '.join(sys.argv[1:]) + ' |')
print('|---|---|---|' + '---|' * len(sys.argv[1:]))
for (p, i) in sorted(cols, key=lambda k: (list(shapes).index(k[0]), k[1])):
    name = {'0': 'padded copies', '2': 'INPLACE 2', '3': 'INPLACE 3'}[i]
    print('| %s | %s | %s | %s |' % (shapes[p], points[p], name, ' | '.join(cols[(p, i)].get(d, '') for d in sys.argv[1:])))
