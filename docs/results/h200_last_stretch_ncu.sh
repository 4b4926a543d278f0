#!/bin/bash
# ncu of the tuned warp_tile (TS=128 TSK=16 WM=32 WN=64 WNITER=2 TM=TN=4) and of reg2d_dbuf's large-bucket choice,
# through the PTX that NVIDIA's OpenCL compiler produced, launched with the CUDA driver API (ncu does not see OpenCL).
# .devcarry/gpu holds nvidia_ptx_dump (scripts/nvidia_ptx_dump.c, built here) and scripts/nvidia_ptx_launch.py.
D=.devcarry/gpu; export LD_LIBRARY_PATH=$D/lib PYTHONUNBUFFERED=1
mkdir -p /tmp/icd; echo libnvidia-opencl.so.1 > /tmp/icd/nv.icd
export PATH=/usr/local/cuda/bin:$PATH
P=$OUT/s; mkdir -p $P
gen() { OCL_ICD_VENDORS=/tmp/icd timeout 60 $D/nvidia_ptx_dump $2 "-cl-nv-verbose $4" /tmp/$1.ptx $3 > $P/$1.build.log 2>&1; tr -d '\000' < /tmp/$1.ptx > /tmp/$1.clean.ptx; grep Used $P/$1.build.log; }
gen warp_tile kernels/warp_tile.cl mm_warp_tile "-D TS=128 -D WM=32 -D WN=64 -D WNITER=2 -D TM=4 -D TN=4 -D TSK=16 -D PAD=4"
gen reg2d_dbuf kernels/reg2d_dbuf.cl mm_dbuf_block "-D TS=128 -D TSK=8 -D WPTM=8 -D WPTN=8 -D VW=4 -D PAD=4"
L="python3 $D/nvidia_ptx_launch.py"
prof() { local n=$1; shift
  timeout 120 ncu --set full --import-source yes -k regex:mm_ --launch-skip 2 -c 1 -f -o /tmp/ncu_$n $L "$@" 3 > $P/ncu_$n.run.txt 2>&1; tail -1 $P/ncu_$n.run.txt
  timeout 60 ncu -i /tmp/ncu_$n.ncu-rep --page details > $P/ncu_$n.details.txt 2>&1
  timeout 60 ncu -i /tmp/ncu_$n.ncu-rep --page source --print-source sass --csv > /tmp/ncu_$n.source.csv 2>&1
  timeout 60 ncu -i /tmp/ncu_$n.ncu-rep --page raw --csv > /tmp/ncu_$n.raw.csv 2>&1
  python3 - $n /tmp/ncu_$n.raw.csv /tmp/ncu_$n.source.csv > $P/ncu_$n.summary.txt <<'PY'
import csv, collections, sys
n, raw, src = sys.argv[1:4]
rows = list(csv.reader(open(raw))); d = dict(zip(rows[0], rows[2]))
print("kernel", n)
for k in ["gpu__time_duration.sum", "sm__cycles_elapsed.avg.per_second", "launch__registers_per_thread", "sm__warps_active.avg.pct_of_peak_sustained_active",
          "smsp__issue_active.avg.pct_of_peak_sustained_active", "smsp__inst_executed.sum", "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
          "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"]:
    if k in d: print("  %-70s %s" % (k, d[k]))
print("stall reasons (warp cycles per issued instruction):")
st = {k: d[k] for k in rows[0] if k.startswith("smsp__average_warps_issue_stalled_") and k.endswith("_per_issue_active.ratio")}
for k, v in sorted(st.items(), key=lambda x: -float(x[1].replace(",", "") or 0))[:10]:
    print("  %-24s %s" % (k[len("smsp__average_warps_issue_stalled_"):-len("_per_issue_active.ratio")], v))
r = list(csv.reader(open(src))); h = r[1]; iS = h.index("Source"); iE = h.index("Instructions Executed"); iA = h.index("Warp Stall Sampling (All Samples)")
by = collections.Counter(); sm = collections.Counter(); tot = 0
for x in r[2:]:
    if len(x) <= iE: continue
    s = x[iS].strip(); t = s.split(); op = (t[1] if s.startswith("@") else t[0]).split(".")[0]
    by[op] += int(x[iE].replace(",", "") or 0); sm[op] += int(x[iA].replace(",", "") or 0); tot += int(x[iE].replace(",", "") or 0)
print("instruction mix (warp instructions executed, share):")
for op, c in by.most_common(12): print("  %-8s %14d  %5.1f%%   stall samples %5.1f%%" % (op, c, 100.0 * c / tot, 100.0 * sm[op] / max(1, sum(sm.values()))))
PY
  cat $P/ncu_$n.summary.txt; }
prof warp_tile /tmp/warp_tile.clean.ptx mm_warp_tile 4096 32 32 256 1
prof reg2d_dbuf /tmp/reg2d_dbuf.clean.ptx mm_dbuf_block 4096 32 32 16 16
