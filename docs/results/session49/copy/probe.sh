#!/bin/bash
# Session 49 probe (issue 30 item 1): the padded copies' launch alone, the runner's pad_copy2_x4 against a 2-D
# one-float-per-work-item copy (copy_probe.cl), at three weak shapes of the H200's sittings. Not verified (no --check:
# a copy, not a product); the median time is the figure. Twice each, in turn.
# usage (from the checkout): D=.carry/s47 bash docs/results/session49/copy/probe.sh   [DEV=pocl SIZES=... to try it here]
D=${D:-.carry/s47}; export LD_LIBRARY_PATH=$D/lib TILESCOPE_ICDS=$(ldconfig -p | awk '/libnvidia-opencl.so.1 /{print $NF; exit}')
mkdir -p /tmp/t49c; export TILESCOPE_TUNING_DIR=/tmp/t49c XDG_DATA_HOME=/tmp/xdg49c
SIZES=${SIZES:-941x4323x2607,1311x1465x7288,985x8361x8908}
DEV=${DEV:+--device $DEV}; S=docs/results/session49/copy/copy_probe.cl
ARGS="--arg M=int:M --arg N=int:N --arg K=int:K --arg A=matrix:MxK:in --arg B=matrix:KxN:in --arg AP=matrix:Mx((K+3)/4*4):out --arg BP=matrix:Kx((N+3)/4*4):out"
date -u; nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader 2>/dev/null
for sz in ${SIZES//,/ }; do for rep in 1 2; do
  echo "x4_$sz $(timeout 60 $D/tilescope bench $DEV --source $S --entry copy_x4 --global '((M*((K+3)/4)+K*((N+3)/4)+255)/256)*256' --local 256 $ARGS \
    --size $sz --reps 20 --warmup 3 2>&1 | grep -v '^\[' | tail -1 | cut -c1-110)"
  X=$(python3 -c "m,n,k=map(int,'$sz'.split('x')); print((max((n+3)//4*4,(k+3)//4*4)+63)//64*64)")   # the wider padded row
  echo "2d_$sz $(timeout 60 $D/tilescope bench $DEV --source $S --entry copy_2d --global "$X,M+K" --local 64,1 $ARGS \
    --size $sz --reps 20 --warmup 3 2>&1 | grep -v '^\[' | tail -1 | cut -c1-110)"
done; done
date -u
