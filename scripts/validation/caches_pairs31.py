#!/usr/bin/env python3
"""Issue 31 (cache6): why reg2d_tpad 1,536^3 hits in L1 on the GPU. From the block placements
that caches_twins recorded (%smid and start time, draw5/GPU/place.csv.gz: reg2d and reg2d_tpad at
1,408, 1,536, 1,664 and 1,728), the pairs of blocks that ran on one SM at the same time (started
within 3 us) and read the same column of B; "at most" is the L1 hit rate if every such pair shared
its B sectors (B is half of what a block loads), beside ncu's and the model's L1 hit (draw 3 replayed
with the fourth round's model, draw 4, draw 5).
  caches_pairs31.py docs/results/caches31
  caches_pairs31.py docs/results/caches31 PLACE.csv.gz GPU    (another recording, e.g. session 46's at 1,984^3;
                                                              ncu and model from draw 7's heldout.csv too)"""
import gzip, collections, csv, os, sys
os.chdir(sys.argv[1])
meas={}
for f in ['draw4/seen3_heldout.csv','draw4/heldout.csv','draw5/heldout.csv','heldout.csv']:
    try:
        for r in csv.DictReader(open(f)): meas[(r['gpu'],r['kernel'],int(r['size']))]=r
    except FileNotFoundError: pass
print('| GPU | kernel | size | groups | same-column pairs on one SM | at most (L1 hit) | ncu L1 hit | model L1 hit |')
print('|---|---|---|---|---|---|---|---|')
sources=[(sys.argv[2],sys.argv[3])] if len(sys.argv)>3 else [(f'draw5/{g}/place.csv.gz',g) for g in ('h200','h100')]
for place,g in sources:
    runs=[];cur=None
    for l in gzip.open(place,'rt'):
        k,s,i,x,y,sm,t=l.strip().split(','); i=int(i)
        if i==0: cur=[k,int(s),[]]; runs.append(cur)
        cur[2].append((int(x),int(sm),int(t)))
    for k,s,bl in sorted(runs,key=lambda r:(r[1],r[0])):
        if s<1000: continue
        per=collections.defaultdict(list)
        for x,sm,t in bl: per[sm].append((t,x))
        pairs=0
        for v in per.values():
            for a in range(len(v)):
                for b in range(a+1,len(v)):
                    if abs(v[a][0]-v[b][0])<3000 and v[a][1]==v[b][1]: pairs+=1
        m=meas.get((g,k,s))
        print(f"| {g} | {k} | {s}³ | {len(bl)} | {pairs} | {100*pairs*0.5/len(bl):.1f}% | {m['ncu_l1_hit_pct']+'%' if m else ''} | {m['model_l1_hit_pct']+'%' if m else ''} |")
