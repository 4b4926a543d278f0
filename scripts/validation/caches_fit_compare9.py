#!/usr/bin/env python3
"""cache9: the figures that differ between parameter sets of caches_fit31.py outputs, set by set:
L2 error and modelled L1 hit, * where outside a target.
  caches_fit_compare9.py FIT_OUTPUT [FIT_OUTPUT..]"""
import sys
d={}; order=[]
for f in sys.argv[1:]:
    s=None
    for l in open(f):
        if l.startswith('['): s=l.split(']')[0][1:]; order.append(s)
        elif l.startswith('  h') and s:
            r=l.split(); d.setdefault(tuple(r[:3]),{})[s]=(r[7],r[9],r[10],'out' if l.rstrip().endswith('out') else '')
for k,v in sorted(d.items()):
    if len(set(v.values()))>1:
        print(' '.join(k).ljust(24), ' | '.join(f"{x[0]:>7} {x[2]:>6}{'*' if x[3] else ' '}" for s in order for x in [v.get(s,('-','-','-',''))]))
print('sets:', order)
