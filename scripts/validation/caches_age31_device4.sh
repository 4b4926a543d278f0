#!/usr/bin/env bash
# cache4, device call 4 (issue 31): on the fit set only, age priority with the deal order the
# H200 recorded (tiled 1,024^3's first wave) against age priority alone. Writes $OUT/fit3.txt.
set -u
C=${C:-.carry/cache4}  # carried to the GPU machine: cache_replay, lib/ (its libOpenCL, libclblast), the streams, caches_fit31.py, caches_ncu_csv.py, caches_smodel_json.py, caches_heldout.sh, draw-sizes
export LD_LIBRARY_PATH=$PWD/$C/lib FIT_RESULTS=$PWD/docs/results FIT_JOBS=16
gunzip -f $C/s/*.gz
FIT_VERBOSE=1 timeout 200 python3 $C/caches_fit31.py $C/s $C/cache_replay 'age=0.3' "age=0.3 deal=$PWD/$C/deal_h200.txt" > $OUT/fit3.txt 2>&1
grep '^\[\|^best' $OUT/fit3.txt
