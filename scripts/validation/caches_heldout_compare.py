#!/usr/bin/env python3
"""Issue 31: the held-out table. Reads ncu's CSVs (caches_heldout.sh) for each GPU and the
model's JSON (caches_heldout_model.sh), prints the markdown table of docs/caches.md and writes
the model's figures beside ncu's to RESULTS/heldout.csv.
  caches_heldout_compare.py MODELDIR RESULTS     (RESULTS holds h200/ and h100/)
SKIP_UNMODELLED=1 leaves out the launches with no model JSON (draw 8: each kernel was modelled at its
own rounding of the drawn size, and ncu measured every kernel at every rounding).
L2 sectors: ncu lts__t_sectors_srcunit_tex_op_read + _op_write; model l2_sectors, scaled by
groups_total / groups_modelled where the model replayed only the launch's first groups.
L1 hit: l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate; model l1_hit / l1_sectors."""
import csv, glob, json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from caches_ncu_csv import load

model_dir, results = sys.argv[1], sys.argv[2]
order = ['naive', 'tiled', 'row', 'reg2d', 'tiled_wpt', 'reg2d_tpad', 'naive_bt']
rows = []
for gpu in ('h200', 'h100'):
    for f in sorted((p for p in glob.glob(f'{results}/{gpu}/ncu_*.csv') if os.path.basename(p)[4:-4].isdigit()),
                    key=lambda p: int(p.split('_')[-1][:-4])):  # ncu_SIZE.csv only (not cache10's ncu_lrc_*)
        size = int(f.split('_')[-1][:-4])
        ncu = load(f)
        for k in order:
            if k not in ncu:
                continue
            v = ncu[k]
            l2 = v['lts__t_sectors_srcunit_tex_op_read.sum'] + v['lts__t_sectors_srcunit_tex_op_write.sum']
            hit = v['l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct']
            m = None
            p = f'{model_dir}/{k}_{size}.json'
            if os.environ.get('SKIP_UNMODELLED') and not os.path.exists(p):
                continue
            if os.path.exists(p):
                j = json.load(open(p))
                t, s = j['caches']['totals'], j.get('sample', {})
                scale = s.get('groups_total', 1) / max(1, s.get('groups_modelled', 1)) if s else 1.0
                m = dict(l2=t['l2_sectors'] * scale, l2_unmerged=(t['l2_sectors'] + t['l2_merged_sectors']) * scale, hit=100.0 * t['l1_hit_sectors'] / max(1, t['l1_sectors']),
                         groups=f"{s.get('groups_modelled', '?')} of {s.get('groups_total', '?')}" if s else 'all')
            rows.append(dict(gpu=gpu, kernel=k, size=size, ncu_l2=l2, ncu_hit=hit, m=m,
                             xbar=v.get('l1tex__m_xbar2l1tex_read_sectors.sum'),
                             l2rd=v['lts__t_sectors_srcunit_tex_op_read.sum']))
print('| GPU | kernel | size | L2 sectors: ncu | model | error | no merging | error | L1 hit: ncu | model | ncu L2 reads / L1 misses | groups modelled |')
print('|---|---|---|---|---|---|---|---|---|---|---|---|')
inside = total = 0
inside_u = [0]
with open(f'{results}/heldout.csv', 'w', newline='') as out:
    w = csv.writer(out)
    w.writerow(['gpu', 'kernel', 'size', 'ncu_l2_sectors', 'model_l2_sectors', 'l2_error_pct', 'model_l2_sectors_no_merging', 'ncu_l1_hit_pct',
                'model_l1_hit_pct', 'ncu_l2_read_over_l1_misses', 'groups_modelled'])
    for r in rows:
        m = r['m']
        ratio = r['l2rd'] / r['xbar'] if r['xbar'] else None
        if m:
            err = 100.0 * (m['l2'] - r['ncu_l2']) / r['ncu_l2']
            ok = abs(err) <= 15 and abs(m['hit'] - r['ncu_hit']) <= 3
            inside += ok
            total += 1
            mark = '' if ok else ' **out**'
            err_u = 100.0 * (m['l2_unmerged'] - r['ncu_l2']) / r['ncu_l2']
            inside_u[0] += abs(err_u) <= 15 and abs(m['hit'] - r['ncu_hit']) <= 3
            print(f"| {r['gpu']} | {r['kernel']} | {r['size']}³ | {r['ncu_l2']:,.0f} | {m['l2']:,.0f} | {err:+.1f}%{mark} | "
                  f"{m['l2_unmerged']:,.0f} | {err_u:+.1f}% | "
                  f"{r['ncu_hit']:.2f}% | {m['hit']:.2f}% | {ratio:.3f} | {m['groups']} |")
            w.writerow([r['gpu'], r['kernel'], r['size'], int(r['ncu_l2']), int(round(m['l2'])), f'{err:.1f}', int(round(m['l2_unmerged'])),
                        f"{r['ncu_hit']:.2f}", f"{m['hit']:.2f}", f'{ratio:.3f}' if ratio else '', m['groups']])
        else:
            print(f"| {r['gpu']} | {r['kernel']} | {r['size']}³ | {r['ncu_l2']:,.0f} | not modelled | | | | "
                  f"{r['ncu_hit']:.2f}% | | {ratio:.3f} | |")
            w.writerow([r['gpu'], r['kernel'], r['size'], int(r['ncu_l2']), '', '', '', f"{r['ncu_hit']:.2f}", '',
                        f'{ratio:.3f}' if ratio else '', ''])
print(f'\nwithin 15 % and 3 points: {inside} of {total} modelled (without merging: {inside_u[0]} of {total})')
