#!/bin/bash
# speed7: the same shapes twice in one XDG_DATA_HOME: the first run times the nearest rows' points, the second reads the remembered rows.
D=.carry/speed7; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}')
export TILESCOPE_TUNING_DIR=$D/tuning XDG_DATA_HOME=$OUT/xdg
for i in 1 2; do T0=$(date +%s.%N); $D/tilescope bench --kernel fastest --size 875x5719x1266,2495,8300x2395x628 --reps 10 --warmup 2 --json $OUT/run$i.json 2>&1 | grep -v "^\[" | cut -c1-330; echo "run $i wall $(python3 -c "print(round($(date +%s.%N)-$T0,1))") s"; done
cp $XDG_DATA_HOME/tilescope/tuning/*.timed.json $OUT/timed.json; rm -rf $XDG_DATA_HOME
