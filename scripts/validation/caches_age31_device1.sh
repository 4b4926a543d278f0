#!/usr/bin/env bash
# cache4, device call 1 (issue 31): fit age priority (with drift and window) on the fit set
# only, then draw the held-out sizes and measure them with ncu on this GPU. Writes to $OUT.
set -u
C=${C:-.carry/cache4}  # carried to the GPU machine: cache_replay, lib/ (its libOpenCL, libclblast), the streams, caches_fit31.py, caches_ncu_csv.py, caches_smodel_json.py, caches_heldout.sh, draw-sizes
export LD_LIBRARY_PATH=$PWD/$C/lib FIT_RESULTS=$PWD/docs/results FIT_JOBS=16
gunzip -f $C/s/*.gz; nproc; nvidia-smi --query-gpu=name --format=csv,noheader
date -u | tee $OUT/fit_start.txt
sets=('inflight=64 drift=0.08')
for a in 0.2 0.3 0.5 1; do for d in 0.16 0.08 0.04; do sets+=("age=$a inflight=64 drift=$d"); done; done
FIT_MAX_SIZE=1024 timeout 220 python3 $C/caches_fit31.py $C/s $C/cache_replay "${sets[@]}" > $OUT/fit1.txt 2>&1
tail -20 $OUT/fit1.txt
mapfile -t top < <(grep '^\[' $OUT/fit1.txt | sed 's/^\[\(.*\)\] within: \([0-9]*\) of [0-9]*; L2 error median \([0-9.]*\)%.*/\2 \3 \1/' | sort -k1,1nr -k2,2n | head -3 | cut -d' ' -f3-)
echo "stage 2: ${top[*]}"
FIT_VERBOSE=1 timeout 150 python3 $C/caches_fit31.py $C/s $C/cache_replay "${top[@]}" 'inflight=64 drift=0.08' > $OUT/fit2.txt 2>&1
grep '^\[\|^best' $OUT/fit2.txt
date -u | tee $OUT/fit_end.txt
python3 $C/draw-sizes --squares 3 --shapes 0 --min 200 --max 2000 > $OUT/draw.txt 2> $OUT/seed.txt
cat $OUT/draw.txt $OUT/seed.txt
sizes=$(python3 -c "print(' '.join(str(max(64, round(int(v)/64)*64)) for v in open('$OUT/draw.txt').read().strip().split(',')))")
echo "$sizes" | tee $OUT/sizes.txt
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -o 'H[12]00' | tr H h | head -1)
timeout 150 bash $C/caches_heldout.sh $OUT/$gpu $sizes 2>&1 | tail -5
date -u
