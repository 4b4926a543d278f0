#!/bin/bash
# Session 48, call 2: why the first sitting's bench (docs/results/session48/h200) printed no result in 370 s. Each weak
# held shape alone, `bench --kernel fastest` with its progress lines kept and stamped, stdout line-buffered, 100 s each.
# usage (from the checkout, on the lent machine): D=.carry/s47 bash docs/results/session48/diag.sh
D=${D:-.carry/s47}; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}')
export TILESCOPE_TUNING_DIR=$D/tuning XDG_DATA_HOME=/tmp/xdg48
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader
SIZES=${SIZES:-3807x638x3879,985x8361x8908}
for s in ${SIZES//,/ }; do
  echo "== $s"
  timeout -s INT ${T:-100} stdbuf -oL -eL $D/tilescope bench --kernel fastest --size $s --reps 10 --warmup 2 --json $OUT/$s.json 2>&1 |
    while IFS= read -r l; do echo "$(date -u +%T.%N | cut -c1-12) $l"; done | tee $OUT/$s.log | cut -c1-400 | grep -v 'run [2-9]/\|run 1[0-9]/\|warm-up'
  echo "rc ${PIPESTATUS[0]}"
done
nvidia-smi --query-gpu=utilization.gpu,temperature.gpu --format=csv,noheader; date -u
