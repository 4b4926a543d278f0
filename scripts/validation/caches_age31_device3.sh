#!/usr/bin/env bash
# cache4, device call 3 (issue 31): the held-out launches (draw 3, seed 1279810539; and 256^3,
# a fit size) replayed with the fitted profile (age_pace 0.3) and without age priority
# (cache3's timed model), first 2,112 groups, 16 at a time. Writes $OUT/m.tgz.
set -u
C=${C:-.carry/cache4}; export LD_LIBRARY_PATH=$PWD/$C/lib
gunzip -f $C/h/*.gz; mkdir -p /tmp/o/m3 /tmp/o/m3old /tmp/o/t
for f in $C/h/*.sstream; do b=$(basename $f .sstream)
  ( /usr/bin/time -f "$b %e s %U user" $C/cache_replay smodel $f 2112 h200 age=0.3 2>/tmp/o/t/$b.time | python3 $C/caches_smodel_json.py > /tmp/o/m3/$b.json ) &
  ( $C/cache_replay smodel $f 2112 h200 age=0 | python3 $C/caches_smodel_json.py > /tmp/o/m3old/$b.json ) &
done; wait; cat /tmp/o/t/*.time; ls /tmp/o/m3 | wc -l
tar czf $OUT/m.tgz -C /tmp/o .
