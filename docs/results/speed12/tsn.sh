#!/bin/bash
# usage: B=tilescope SIZE=S TSM=64 TSN=128 WM=32 WN=64 [TSK=8] [GSW=w] [DEV=...] bash tsn.sh : warp_tile with a TSM x TSN tile
# (session43's tsn.sh with TSK 8 by default and GSW; wt_tsn.cl beside it is made by gsw_explore.sh from kernels/warp_tile.cl)
D=$(dirname $0); S=${SIZE:-260}; TSK=${TSK:-8}
NT="(($TSM/$WM)*($TSN/$WN)*32)"
$B bench ${DEV:+--device "$DEV"} --source $D/wt_tsn.cl --entry mm_warp_tile --size $S --reps ${REPS:-10} --warmup 2 \
  --global "((N+$TSN-1)/$TSN)*$NT,(M+$TSM-1)/$TSM" --local "$NT,1" \
  --define TS=$TSM --define TSN=$TSN --define TSK=$TSK --define WM=$WM --define WN=$WN --define WNITER=${WNITER:-2} \
  --define TM=${TM:-4} --define TN=${TN:-4} --define PAD=4 --define NDIV=1 --define "EDGES=M%$TSM+N%$TSN+K%$TSK" --define "ODD=K%4+N%4" ${GSW:+--define GSW=$GSW} \
  --arg M=int:M --arg N=int:N --arg K=int:K --arg A=matrix:MxK:in --arg B=matrix:KxN:in --arg C=matrix:MxN:out --check 'C=A*B' ${JSON:+--json $JSON}
