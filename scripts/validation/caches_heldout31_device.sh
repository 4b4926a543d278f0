#!/usr/bin/env bash
# cache3, device call 2 (issue 31): the held-out launches (drawn in call 1, seed 1611753171)
# replayed with the fitted profile and with issue 24's lockstep one, lockstep on the whole
# fit set, and ncu at the drawn sizes on this GPU. Writes /tmp/o, tars to $OUT.
set -u
C=.carry/cache3
export LD_LIBRARY_PATH=$PWD/$C/lib FIT_RESULTS=$PWD/docs/results FIT_JOBS=16
mkdir -p /tmp/o/m /tmp/o/m0; gunzip -f $C/s/*.gz $C/h/*.gz 2>/dev/null; nproc
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -o 'H[12]00' | tr H h | head -1)
(bash scripts/validation/caches_heldout.sh /tmp/o/$gpu $(cat $C/sizes.txt) > /tmp/o/ncu_log.txt 2>&1) &
for f in $C/h/*.sstream; do b=$(basename $f .sstream)
  ($C/cache_replay smodel $f 2112 h200 inflight=64 drift=0.08 | python3 $C/caches_smodel_json.py > /tmp/o/m/$b.json) &
  ($C/cache_replay smodel $f 2112 h200 inflight=4 drift=0 | python3 $C/caches_smodel_json.py > /tmp/o/m0/$b.json) &
done
timeout 300 python3 $C/caches_fit31.py $C/s $C/cache_replay 'inflight=4 drift=0' > /tmp/o/fit_lockstep.txt 2>&1
wait
cat /tmp/o/fit_lockstep.txt /tmp/o/ncu_log.txt | tail -8; ls /tmp/o/m | wc -l
tar czf $OUT/device2.tgz -C /tmp/o .
