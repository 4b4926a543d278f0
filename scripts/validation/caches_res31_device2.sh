#!/usr/bin/env bash
# cache5, device call 2 (issue 31, fourth round): ncu on this GPU at draw 4's sizes, and the
# held-out replays (draw 4, seed 1422797352: 384^3, 1,728^3, 1,536^3) with the fitted profile
# (its age_pace 0.5 and recorded deal order compiled in; each twin's residency and L1 as
# `trace --regs` gives them for the registers CUDA reported), beside the third round's model
# (age 0.3, round-robin, 8 resident, 256 KB); and draw 3's launches (seen: not held out).
# First 2,112 groups, 16 at a time. Writes $OUT/m.tgz and $OUT/GPU.tgz.
set -u
C=${C:-.carry/cache5}; export LD_LIBRARY_PATH=$PWD/$C/lib
gunzip -f $C/h4/*.gz $C/h/*.gz; mkdir -p /tmp/o/m4 /tmp/o/m4old /tmp/o/seen /tmp/o/t
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -o 'H[12]00' | tr H h | head -1)
( timeout 200 bash scripts/validation/caches_heldout.sh $OUT/$gpu 384 1728 1536 > /tmp/o/ncu.log 2>&1 ) &
declare -A arg=([naive]="resident=8 l1_kb=256" [tiled]="resident=8 l1_kb=224" [reg2d]="resident=4 l1_kb=192"
                [tiled_wpt]="resident=6 l1_kb=192" [reg2d_tpad]="resident=6 l1_kb=192")
one() { local f=$1 dir=$2; shift 2; local b=$(basename $f .sstream)
  /usr/bin/time -f "$dir $b %e s %U user" $C/cache_replay smodel $f 2112 h200 "$@" 2>/tmp/o/t/$dir.$b.time | python3 $C/caches_smodel_json.py > /tmp/o/$dir/$b.json; }
for f in $C/h4/*.sstream; do k=$(basename $f .sstream); k=${k%_*}
  one $f m4 ${arg[$k]} & one $f m4old age=0.3 deal=none resident=8 & done
for f in $C/h/*.sstream; do k=$(basename $f .sstream); k=${k%_*}; one $f seen ${arg[$k]} & done
wait; cat /tmp/o/t/*.time; cat /tmp/o/ncu.log | tail -5
tar czf $OUT/m.tgz -C /tmp/o m4 m4old seen t; tar czf $OUT/$gpu.tgz -C $OUT $gpu && rm -rf $OUT/$gpu
