#!/usr/bin/env python3
"""Issue 31: one `cache_replay smodel` line (stdin) as the model JSON that
caches_heldout_compare.py reads (as `trace --sample --json` writes it): counts over the
modelled groups, and the groups modelled of the whole launch.
  cache_replay smodel K_S.sstream 2112 h200 ... | caches_smodel_json.py > K_S.json"""
import json, sys
kv = dict(x.split('=') for x in sys.stdin.read().split())
g, total = int(kv['groups_modelled']), int(kv['groups_total'])
scale = total / g
t = {k: round(int(kv[k]) / scale) for k in ('l1_sectors', 'l2_sectors', 'l2_merged_sectors', 'l2_load_sectors', 'l2_hit_sectors')}
t['l1_hit_sectors'] = round(t['l1_sectors'] * float(kv['l1_hit_rate']) / 100)
json.dump({'sample': {'groups_total': total, 'groups_modelled': g}, 'caches': {'totals': t}}, sys.stdout)
