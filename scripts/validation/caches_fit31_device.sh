#!/usr/bin/env bash
# cache3, device call 1 (issue 31): fit on the fit set, then draw the held-out sizes and
# measure them with ncu. Runs in the repo root on the GPU machine; writes /tmp/o, tars to $OUT.
set -u
C=.carry/cache3
export LD_LIBRARY_PATH=$PWD/$C/lib FIT_RESULTS=$PWD/docs/results FIT_JOBS=16
mkdir -p /tmp/o; gunzip -f $C/s/*.gz; nproc
date -u | tee /tmp/o/fit_start.txt
sets=('' )
for w in 4 16 64; do for r in 200 400 800 1600 3200 6400; do
  sets+=("inflight=$w drift=$(python3 -c "print(round($w/$r,6))")"); done; done
for c in 22 44 66; do for r in 400 1600; do sets+=("clusters=$c inflight=16 drift=$(python3 -c "print(round(16/$r,6))")"); done; done
FIT_MAX_SIZE=896 timeout 250 python3 $C/caches_fit31.py $C/s $C/cache_replay "${sets[@]}" > /tmp/o/fit1.txt 2>&1
cat /tmp/o/fit1.txt | tail -40
mapfile -t top < <(grep '^\[' /tmp/o/fit1.txt | sed 's/^\[\(.*\)\] within: \([0-9]*\) of [0-9]*; L2 error median \([0-9.]*\)%.*/\2 \3 \1/' | sort -k1,1nr -k2,2n | head -6 | cut -d' ' -f3-)
echo "stage 2: ${top[*]}"
FIT_VERBOSE=1 timeout 200 python3 $C/caches_fit31.py $C/s $C/cache_replay "${top[@]}" > /tmp/o/fit2.txt 2>&1
grep '^\[\|^best' /tmp/o/fit2.txt
date -u | tee /tmp/o/fit_end.txt
# Drawn only now, after the fit: three squares, rounded to multiples of 64.
python3 $C/draw-sizes --squares 3 --shapes 0 --min 200 --max 2000 > /tmp/o/draw.txt 2> /tmp/o/seed.txt
cat /tmp/o/draw.txt /tmp/o/seed.txt
sizes=$(python3 -c "import sys; print(' '.join(str(max(64, round(int(v)/64)*64)) for v in open('/tmp/o/draw.txt').read().strip().split(',')))")
echo "sizes: $sizes" | tee /tmp/o/sizes.txt
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -o 'H[12]00' | tr H h | head -1)
bash scripts/validation/caches_heldout.sh /tmp/o/$gpu $sizes 2>&1 | tail -5
tar czf $OUT/device1.tgz -C /tmp/o .
