import csv,io,sys,glob,re,os
def load(path):
    t=open(path).read()
    if '"ID"' not in t: return {}
    rows=list(csv.reader(io.StringIO(t[t.index('"ID"'):])))
    h=rows[0]; out={}
    names={'mm_naive':'naive','mm_tiled':'tiled','mm_row':'row','mm_reg_block':'reg2d','mm_wpt_column':'tiled_wpt','mm_tpad_block':'reg2d_tpad','mm_naive_bt':'naive_bt'}
    for r in rows[1:]:
        d=dict(zip(h,r))
        k=re.search(r'(mm_\w+?)<',d['Kernel Name']) or re.search(r'(mm_\w+)\(',d['Kernel Name'])
        k=names[k.group(1)]
        v=d['Metric Value'].replace(',','')
        try: v=float(v)
        except: v=None
        out.setdefault(k,{})[d['Metric Name']]=v
    return out
if __name__=='__main__':
    d=sys.argv[1]
    for f in sorted(glob.glob(d+'/ncu_*.csv')):
        m=load(f)
        for k,v in m.items():
            x=v.get('l1tex__m_xbar2l1tex_read_sectors.sum'); r=v['lts__t_sectors_srcunit_tex_op_read.sum']
            print(f"{os.path.basename(f):18} {k:10} l1sec {v['l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum']:>10.0f} hit {v['l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct']:6.2f} miss {v.get('l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum') or 0:>9.0f} xbar {x or 0:>9.0f} l2rd {r:>9.0f} l2req {v.get('lts__t_requests_srcunit_tex_op_read.sum') or 0:>8.0f} l2all {v.get('lts__t_sectors_op_read.sum') or 0:>9.0f} ratio {r/(x or 1):.3f} dram {v['dram__sectors_read.sum']:>9.0f} t {v['gpu__time_duration.sum']/1000:.1f}us")
