#!/bin/bash
# usage: B=tilescope SIZE=S TSM=128 TSN=96 WM=64 WN=32 [TSK=16] [DEV=...] bash tsn.sh : warp_tile with a TSM x TSN tile (a copy with TSN settable)
D=$(dirname $0); S=${SIZE:-260}; TSK=${TSK:-16}
NT="(($TSM/$WM)*($TSN/$WN)*32)"
$B bench ${DEV:+--device "$DEV"} --source $D/wt_tsn.cl --entry mm_warp_tile --size $S --reps ${REPS:-10} --warmup 2 \
  --global "((N+$TSN-1)/$TSN)*$NT,(M+$TSM-1)/$TSM" --local "$NT,1" \
  --define TS=$TSM --define TSN=$TSN --define TSK=$TSK --define WM=$WM --define WN=$WN --define WNITER=${WNITER:-2} \
  --define TM=${TM:-4} --define TN=${TN:-4} --define PAD=4 --define NDIV=1 --define "EDGES=M%$TSM+N%$TSN+K%$TSK" --define "ODD=K%4+N%4" \
  --arg M=int:M --arg N=int:N --arg K=int:K --arg A=matrix:MxK:in --arg B=matrix:KxN:in --arg C=matrix:MxN:out --check 'C=A*B' ${JSON:+--json $JSON}
