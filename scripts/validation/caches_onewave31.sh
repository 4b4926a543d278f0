#!/usr/bin/env bash
# Issue 31 (cache7): the launches of one wave or less that stay outside target (draws 5 and 6),
# replayed from their sampled streams with the fitted h200 profile and with one thing changed:
# drift=0 (lockstep: every merge the 33 clusters allow happens), dram=4 (a load that reads DRAM
# holds its group 4 rounds; cache_replay's experiment) and clusters=1 (one in-flight table for
# the whole GPU). Prints KERNEL SIZE SET L2_SECTORS, one line each (here, about a minute).
#   scripts/validation/caches_onewave31.sh STREAMS5 STREAMS6   (the s/ folders of caches_heldout_replay.sh)
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
replay="${CACHE_REPLAY:-$here/../../build/tests/cache_replay}"
declare -A arg=([naive]="resident=8 l1_kb=256" [tiled]="resident=8 l1_kb=224" [reg2d]="resident=4 l1_kb=192"
                [tiled_wpt]="resident=6 l1_kb=192" [reg2d_tpad]="resident=6 l1_kb=192")
for ks in "$1 naive 320" "$1 tiled 320" "$1 tiled_wpt 320" "$1 reg2d 640" "$1 reg2d_tpad 640" \
          "$2 reg2d_tpad 960" "$2 reg2d 1088" "$2 reg2d_tpad 1088"; do
  read -r d k s <<< "$ks"
  for set in "" drift=0 dram=4 clusters=1; do
    out=$(nice "$replay" smodel "$d/${k}_$s.sstream" 2112 h200 ${arg[$k]} $set)
    echo "$k $s ${set:-fitted} $(echo "$out" | grep -o 'l2_sectors=[0-9]*' | cut -d= -f2)"
  done
done
