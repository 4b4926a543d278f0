#!/usr/bin/env python3
"""cache10 (issue 31): where the L1 misses that never reach L2 as sectors go. Reads the ncu CSVs of
caches_cache10_device.sh (ncu_lrc_KERNEL_448.csv, one folder a GPU) and prints, per twin, the L1's
miss sectors, the sectors the crossbar brought back to L1, the L2 Request Coalescer's (LRC) read
sectors from the GPCs and towards L2, and what L2 counted.
  caches_lrc10.py DIR [DIR..]"""
import glob, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from caches_ncu_csv import load

for d in sys.argv[1:]:
    print(f'== {d}: {open(os.path.join(d, "gpu.txt")).readline().strip()}')
    for f in sorted(glob.glob(os.path.join(d, 'ncu_lrc_*.csv'))):
        for k, v in load(f).items():
            g = lambda m: v.get(m) or 0.0
            miss = g('l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum')
            xbar = g('l1tex__m_xbar2l1tex_read_sectors.sum')
            to_gpc = g('lrc__xbar2gpc_sectors_op_read.sum')            # LRC read sectors delivered to the GPCs
            to_l2 = g('lrc__lrc2xbar_sectors_op_read.sum')             # LRC read sectors sent on towards L2
            coal = g('lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum')
            l2 = g('lts__t_sectors_srcunit_tex_op_read.sum')
            print(f'{k:8s} {os.path.basename(f):24s} L1 miss {miss:>9,.0f}  xbar->L1 {xbar:>9,.0f}  LRC->GPC {to_gpc:>9,.0f}  '
                  f'LRC->L2 {to_l2:>9,.0f}  LRC coalesced (hw) {coal:>9,.0f}  L2 read sectors {l2:>9,.0f}  '
                  f'L2/miss {l2 / miss if miss else 0:.3f}  (miss - coalesced)/miss {(miss - coal) / miss if miss else 0:.3f}')
        if not load(f):
            print(f'{os.path.basename(f)}: no rows ({open(f[:-4] + ".err").read().strip()[-200:]})')
