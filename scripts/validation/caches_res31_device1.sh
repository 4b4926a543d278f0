#!/usr/bin/env bash
# cache5, device call 1 (issue 31, fourth round): on the fit set only, per-launch residency
# (resident=cuda: the blocks per SM CUDA ran each twin with, run.txt), the L1 that the
# shared-memory carve-out leaves (l1_kb=cuda) and the deal order the H200 recorded (deal=,
# clusters now cut in dealt order) against the profile as it is; the rule (most figures within,
# then the smallest median L2 error) chooses. Then the draw-3 launches (seen before, so not held
# out) replayed with the choice, and only then the fourth held-out draw and ncu on this GPU.
set -u
C=${C:-.carry/cache5}  # cache_replay, lib/, s/ (fit streams), h/ (draw-3 streams), deal_h200.txt, the scripts, draw-sizes
export LD_LIBRARY_PATH=$PWD/$C/lib FIT_RESULTS=$PWD/docs/results FIT_JOBS=16 PYTHONUNBUFFERED=1
gunzip -f $C/s/*.gz $C/h/*.gz; nproc; nvidia-smi --query-gpu=name --format=csv,noheader
D=$PWD/$C/deal_h200.txt
date -u | tee $OUT/fit_start.txt
sets=('age=0.3' 'age=0.3 resident=cuda' 'age=0.3 resident=cuda l1_kb=cuda' "age=0.3 deal=$D"
      "age=0.3 resident=cuda l1_kb=cuda deal=$D" 'age=0.5 resident=cuda l1_kb=cuda'
      "age=0.5 resident=cuda l1_kb=cuda deal=$D" "age=0.2 resident=cuda l1_kb=cuda deal=$D"
      'age=0.3 resident=cuda l1_kb=cuda drift=0.04')
FIT_VERBOSE=1 timeout 330 python3 $C/caches_fit31.py $C/s $C/cache_replay "${sets[@]}" > $OUT/fit1.txt 2>&1
grep '^\[\|^best' $OUT/fit1.txt
best=$(sed -n 's/^best: \[\(.*\)\] within.*/\1/p' $OUT/fit1.txt)
date -u | tee $OUT/fit_end.txt
echo "chosen: $best" | tee -a $OUT/fit_end.txt
# Draw 3's launches (seen in the third round: a check, not held out), with the choice.
mkdir -p /tmp/o/seen
for f in $C/h/*.sstream; do b=$(basename $f .sstream); k=${b%_*}
  p=$(python3 -c "import sys; sys.argv=['x','$C/s','/bin/true']; exec(open('$C/caches_fit31.py').read().split('launches = sorted')[0]); print(per_launch('''$best''', '$k'))")
  ( $C/cache_replay smodel $f 2112 h200 $p | python3 $C/caches_smodel_json.py > /tmp/o/seen/$b.json ) &
done; wait
tar czf $OUT/seen.tgz -C /tmp/o seen
python3 $C/draw-sizes --squares 3 --shapes 0 --min 200 --max 2000 > $OUT/draw.txt 2> $OUT/seed.txt
cat $OUT/draw.txt $OUT/seed.txt
sizes=$(python3 -c "print(' '.join(str(max(64, round(int(v)/64)*64)) for v in open('$OUT/draw.txt').read().strip().split(',')))")
echo "$sizes" | tee $OUT/sizes.txt
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -o 'H[12]00' | tr H h | head -1)
timeout 150 bash scripts/validation/caches_heldout.sh $OUT/$gpu $sizes 2>&1 | tail -5
tar czf $OUT/$gpu.tgz -C $OUT $gpu && rm -rf $OUT/$gpu
date -u
