#!/usr/bin/env python3
# Issue 24, item 3: DRAM traffic past the L2, Nsight Compute (docs/results/caches24/GPU/
# ncu_SIZE.csv, one cold launch) against the cache model made from a traced sample
# (`tilescope trace --sample`, naive and tiled at 16x16, the CUDA twins' launch).
#   scripts/validation/caches_dram.py [SIZES...] > table.md      (default 1024 2048 4096)
# Writes every figure to docs/results/caches24/model_dram.csv and the JSON of each model
# run to docs/results/caches24/sampled/GPU_KERNEL_SIZE.json.
import json, os, subprocess, sys
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, here)
from caches_ncu_csv import load
sizes = [int(s) for s in sys.argv[1:]] or [1024, 2048, 4096]
out_dir = os.path.join(root, 'docs/results/caches24/sampled')
os.makedirs(out_dir, exist_ok=True)
rows = ['gpu,kernel,size,ab_bytes,ncu_dram_read_bytes,model_dram_read_bytes,model_groups,total_groups,'
        'ncu_l2_sectors,model_l2_sectors_scaled,ncu_l1_hit_pct,model_l1_hit_pct,ncu_time_us']
print('| GPU | size | A + B | DRAM read, naive: ncu | model | tiled: ncu | model | tiled / naive: ncu | model |'
      ' L1 hit naive: ncu | model | L1 hit tiled: ncu | model | groups modelled: naive; tiled |')
print('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|')
for gpu in ['h200', 'h100']:
    for s in sizes:
        ncu = load(os.path.join(root, f'docs/results/caches24/{gpu}/ncu_{s}.csv'))
        fig = {}
        for k in ['naive', 'tiled']:
            path = os.path.join(out_dir, f'{gpu}_{k}_{s}.json')
            if not os.path.exists(path):
                subprocess.run([os.path.join(root, 'build/tilescope'), 'trace', '--kernel', k, '--size', str(s),
                                '--tile', '16', '--caches', gpu, '--sample', '3', '--json', path],
                               check=True, stdout=subprocess.DEVNULL)
            j = json.load(open(path))
            smp, tot = j['sample'], j['caches']['totals']
            n = ncu[k]
            scale = smp['scale']
            m_l1 = 100.0 * tot['l1_hit_sectors'] / max(1, tot['l1_sectors'])
            fig[k] = dict(ncu=n['dram__sectors_read.sum'] * 32, model=smp['whole_dram_read_bytes'],
                          ncu_l1=n['l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct'], model_l1=m_l1,
                          groups=f"{smp['groups_modelled']:,} of {smp['groups_total']:,}")
            rows.append(f"{gpu},{k},{s},{2 * s * s * 4},{n['dram__sectors_read.sum'] * 32},"
                        f"{smp['whole_dram_read_bytes']:.0f},{smp['groups_modelled']},{smp['groups_total']},"
                        f"{n['lts__t_sectors_srcunit_tex_op_read.sum'] + n['lts__t_sectors_srcunit_tex_op_write.sum']},"
                        f"{tot['l2_sectors'] * scale:.0f},{fig[k]['ncu_l1']:.2f},{m_l1:.2f},"
                        f"{n['gpu__time_duration.sum'] / 1000:.0f}")
        nv, tv = fig['naive'], fig['tiled']
        mb = lambda b: f'{b / 1e6:,.0f} MB'
        print(f"| {gpu.upper()} | {s:,}³ | {mb(2 * s * s * 4)} | {mb(nv['ncu'])} | {mb(nv['model'])} | "
              f"{mb(tv['ncu'])} | {mb(tv['model'])} | {tv['ncu'] / nv['ncu']:.2f} | {tv['model'] / nv['model']:.2f} | "
              f"{nv['ncu_l1']:.1f}% | {nv['model_l1']:.1f}% | {tv['ncu_l1']:.1f}% | {tv['model_l1']:.1f}% | "
              f"{nv['groups']}; {tv['groups']} |")
open(os.path.join(root, 'docs/results/caches24/model_dram.csv'), 'w').write('\n'.join(rows) + '\n')
