#!/bin/bash
# One device session (lent nvidia-h200): cuBLAS, warp_tile (phase loop written out, built for its
# size) tuned per size bucket, the bench, cuBLAS again, then ptxas' registers for the tuned choices.
# .devcarry/gpu holds the tilescope binary built from this commit (tilescope2), the non-system
# libraries `ldd` names (lib/), docs/results/h200_speed_cublas.py as cublas.py and scripts/nvidia_ptx_dump.c
# built as ptxdump, and the new kernels/warp_tile.cl as warp_tile_new.cl.
D=.devcarry/gpu; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=libnvidia-opencl.so.1 PYTHONUNBUFFERED=1
T=$OUT/tuning; mkdir -p $T; cp assets/tuning/nvidia-cuda-nvidia-h200.json $T/; export TILESCOPE_TUNING_DIR=$T
B=$D/tilescope2
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,driver_version --format=csv,noheader
$B devices | head -4
python3 $D/cublas.py 1024,4096,8192 $OUT/cublas_before.json
G="--param WM=32,64 --param WN=32,64 --param WNITER=1,2,4 --param TM=4,8 --param TN=4,8 --param PAD=4"
timeout 240 $B tune --kernel warp_tile --size 4096 --tile 128 --param TSK=8,16 $G --reps 5 --out $T > $OUT/tune_warp_tile_4096.log 2>&1; grep best $OUT/tune_warp_tile_4096.log
timeout 120 $B tune --kernel warp_tile --size 1024 --tile 64,128 --param TSK=8,16 $G --reps 5 --out $T > $OUT/tune_warp_tile_1024.log 2>&1; grep best $OUT/tune_warp_tile_1024.log
timeout 150 $B bench --kernel warp_tile,reg2d_dbuf,clblast --size 1024,4096,8192 --reps 10 --warmup 2 --json $OUT/bench.json 2>&1 | grep -v "^\["
python3 $D/cublas.py 1024,4096,8192 $OUT/cublas_after.json
mkdir -p /tmp/icd; echo libnvidia-opencl.so.1 > /tmp/icd/nv.icd
python3 - "$T/nvidia-cuda-nvidia-h200.json" > /tmp/defs <<'PY'
import json, sys
k = json.load(open(sys.argv[1]))["kernels"]["warp_tile"]
for b in [k] + list(k.get("sizes", {}).values()):
    p = b["params"]; print(b["size"], " ".join(f"-D {n}={v}" for n, v in p.items()), f"-D TS={b['tile']}")
PY
while read size defs; do
  echo "registers, warp_tile at $size: $(OCL_ICD_VENDORS=/tmp/icd $D/ptxdump $D/warp_tile_new.cl "-cl-nv-verbose $defs -D EDGES=0" /tmp/x.ptx 2>&1 | grep -o 'Used [0-9]* registers.*smem' | head -1) ($defs)"
done < /tmp/defs
