#!/bin/bash
# speed14, call 2 (issue 30 item 1): fresh shapes drawn here (draw-sizes --squares 0 --shapes 12 --min 512, seed printed)
# and the four weak shapes of session 44, each timed by main's binary ("before", tilescope_main) and by the branch's
# (tilescope: the trial's round 2 also times the winner in place, INPLACE 2), one size at a time, before then after,
# each binary with its own fresh XDG_DATA_HOME (so both run their trials), only the embedded tables; cuBLAS before and
# after. A size is started only while less than STOP_T seconds have passed (a call's limit: the sizes not reached are
# said in the log). `bench --kernel fastest --reps 10 --warmup 2`, verified.
# usage (from the checkout, on the lent machine): [HELD=...] [STOP_T=seconds] bash .carry/speed14/sitting.sh
D=.carry/speed14; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}') PYTHONUNBUFFERED=1
export TILESCOPE_TUNING_DIR=$D/tuning   # empty: the embedded tables of each build
J=/tmp/s14; mkdir -p $J/before $J/after $J/xdg_before $J/xdg_after $D/tuning
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader | tee $J/device.txt
SHD=$(python3 $D/draw-sizes --squares 0 --shapes 12 --min 512 2>$J/seed_shapes); echo "shapes $(cat $J/seed_shapes): $SHD"
HELD=${HELD-3286x571x7062,8797x659x1841,1481x709x8271,529x1701x2138}
ALL=$SHD${HELD:+,$HELD}; echo "$ALL" > $J/sizes.txt
timeout 60 python3 $D/cublas.py $ALL $J/cublas_before.json 2>&1 | grep -v Warn
T0=$(date +%s)
for S in ${ALL//,/ }; do
  if [ $(( $(date +%s) - T0 )) -ge ${STOP_T:-280} ]; then echo "not reached: $S"; continue; fi
  for w in before after; do B=$D/tilescope; [ $w = before ] && B=$D/tilescope_main
    XDG_DATA_HOME=$J/xdg_$w timeout 60 $B bench --kernel fastest --size $S --reps 10 --warmup 2 --json $J/$w/$S.json 2>&1 \
      | grep -v "^\[" | grep -v "^kernel " | cut -c1-118 | sed "s/^/$w /"
  done
done
echo "benches $(( $(date +%s) - T0 )) s"
timeout 60 python3 $D/cublas.py $ALL $J/cublas_after.json 2>&1 | grep -v Warn
date -u
cp $J/xdg_before/tilescope/tuning/*.timed.json $J/timed_before.json 2>/dev/null
cp $J/xdg_after/tilescope/tuning/*.timed.json $J/timed_after.json 2>/dev/null; rm -rf $J/xdg_*
cd /tmp && tar czf $OUT/s14.tgz s14
