# Session 49 probe (issue 30 item 1): kernels/warp_tile.cl with splitk's slice sum inside the product's own launch
# (epilogue.cl, under FUSED): mm_warp_tile gains C and a counter per tile of C (CNT, zero before the first launch; the
# last group of each tile sets it back to 0). Writes the variant to the path given. Not a rung: a custom-kernel bench.
# usage: python3 make_fused.py kernels/warp_tile.cl docs/results/session49/fused/epilogue.cl OUT.cl
import sys
src, epi, out = sys.argv[1:4]
s = open(src).read()
sig = "                  __global float* OUT)\n{"
assert s.count(sig) == 1
s = s.replace(sig, "                  __global float* OUT\n#ifdef FUSED\n                  , __global float* C, volatile __global int* CNT\n#endif\n                  )\n{")
end = "\n}\n\n#if PPS\n// Rung splitk's second launch"
assert s.count(end) == 1
s = s.replace(end, "\n" + open(epi).read() + "}\n\n#if PPS\n// Rung splitk's second launch")
open(out, "w").write(s)
