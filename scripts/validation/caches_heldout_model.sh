#!/usr/bin/env bash
# Issue 31: the model's figures for the held-out launches (caches_heldout.sh measures them):
# each twin's rung, and the check kernel naive_bt from its .cl, traced as a 3x3 sample and
# modelled with the h200 profile (h100 gives the same counts while A, B and C fit its L2).
#   scripts/validation/caches_heldout_model.sh OUTDIR "SIZE[:GROUPS] .." [KERNEL..]
# GROUPS caps --model-groups (the first groups in launch order; L2 figures are then scaled by
# caches_heldout_compare.py). Each launch's JSON: OUTDIR/KERNEL_SIZE.json. TRACE_EXTRA: options added to
# each trace (cache10 ran naive_bt with a binary built before its profile change: TRACE_EXTRA='--l1 224', the
# L1 the changed profile gives it).
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="${TILESCOPE:-$here/../../build/tilescope}"
out="$1"; sizes="$2"; shift 2
kernels=("$@"); [ ${#kernels[@]} -gt 0 ] || kernels=(naive tiled reg2d tiled_wpt reg2d_tpad naive_bt row)
mkdir -p "$out"
for sg in $sizes; do
  s="${sg%%:*}"; cap=(); [ "$sg" != "$s" ] && cap=(--model-groups "${sg##*:}")
  for k in "${kernels[@]}"; do
    [ -s "$out/${k}_$s.json" ] && continue
    if [ "$k" = naive_bt ]; then
      src=(--source "$here/naive_bt.cl" --entry mm_naive_bt --global '((N+15)/16)*16,((M+15)/16)*16' --local 16,16
           --arg M=int:M --arg N=int:N --arg K=int:K --arg A=matrix:MxK:in --arg B=matrix:NxK:in --arg C=matrix:MxN:out)
    else
      src=(--kernel "$k")
    fi
    start=$(date +%s)
    "$bin" trace "${src[@]}" --size "$s" --no-checks --caches h200 --sample 3 "${cap[@]}" ${TRACE_EXTRA:-} --json "$out/${k}_$s.json" \
      >"$out/${k}_$s.txt" 2>&1 || echo "failed: $k $s: $(tail -1 "$out/${k}_$s.txt")"
    echo "$k $s $(( $(date +%s) - start )) s"
  done
done
