#!/usr/bin/env python3
# Issue 24's table: Nsight Compute (docs/results/caches24/GPU/ncu_SIZE{,_rep}.csv, the mean of
# the two runs) against the cache model replaying the traced request streams.
#   build/tests/cache_replay dump KERNEL SIZE STREAMS/KERNEL_SIZE.stream   (once per launch)
#   scripts/validation/caches_compare.py STREAMS [PROFILE_ARGS...] > table.md
# Writes the model's figures to docs/results/caches24/model_GPU.csv beside the table.
import os, statistics, subprocess, sys
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, here)
from caches_ncu_csv import load
streams, extra = sys.argv[1], sys.argv[2:]
K = ['naive', 'tiled', 'row', 'reg2d', 'tiled_wpt', 'reg2d_tpad']
print('| GPU | kernel | size | L2 sectors: ncu | model | error | L1 hit: ncu | model | L2 merged (model) |')
print('|---|---|---|---|---|---|---|---|---|')
for gpu in ['h200', 'h100']:
    res = os.path.join(root, 'docs/results/caches24', gpu)
    rows = ['gpu,kernel,size,ncu_l2_sectors,model_l2_sectors,ncu_l1_hit_pct,model_l1_hit_pct,model_l2_merged,'
            'model_l1_sectors,model_dram_read_sectors']
    for s in [128, 256]:
        runs = [load(f'{res}/ncu_{s}.csv'), load(f'{res}/ncu_{s}_rep.csv')]
        for k in K:
            out = subprocess.run([os.path.join(root, 'build/tests/cache_replay'), 'model', f'{streams}/{k}_{s}.stream',
                                  gpu] + extra, capture_output=True, text=True, check=True).stdout
            m = dict(x.split('=') for x in out.split())
            n_l2 = statistics.mean(r[k]['lts__t_sectors_srcunit_tex_op_read.sum'] +
                                   r[k]['lts__t_sectors_srcunit_tex_op_write.sum'] for r in runs)
            n_hit = statistics.mean(r[k]['l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct'] for r in runs)
            ml2, mhit = int(m['l2_sectors']), float(m['l1_hit_rate'])
            err = 100 * (ml2 / n_l2 - 1)
            flag = '' if abs(err) <= 15 and abs(mhit - n_hit) <= 3 else ' **out**'
            print(f'| {gpu} | {k} | {s}³ | {n_l2:,.0f} | {ml2:,} | {err:+.1f}%{flag} | {n_hit:.2f}% | {mhit:.2f}% | '
                  f'{int(m["l2_merged_sectors"]):,} |')
            rows.append(f'{gpu},{k},{s},{n_l2:.0f},{ml2},{n_hit:.2f},{mhit:.2f},{m["l2_merged_sectors"]},'
                        f'{m["l1_sectors"]},{m["dram_read_sectors"]}')
    open(os.path.join(root, f'docs/results/caches24/model_{gpu}.csv'), 'w').write('\n'.join(rows) + '\n')
