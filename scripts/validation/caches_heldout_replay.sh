#!/usr/bin/env bash
# Issue 31: the model's figures for the held-out launches of the five OpenCL rungs that have
# CUDA twins, on this machine (no GPU): each rung sampled 3x3 (`cache_replay sdump`) and its
# first GROUPS groups replayed with the fitted h200 profile and each twin's residency and L1
# as `trace --regs R` gives them for the registers CUDA reported (run.txt). One launch at a
# time, niced. Writes OUTDIR/KERNEL_SIZE.json (caches_heldout_compare.py reads them) and
# OUTDIR/times.txt; the sampled streams go to STREAMS (default OUTDIR/s).
#   scripts/validation/caches_heldout_replay.sh OUTDIR "SIZE .." [GROUPS] [KERNEL..]
# REPLAY_NICE= runs them at normal priority (nice by default). REPLAY_EXTRA: parameters added to every replay (cache9: REPLAY_EXTRA=l1rand=1); row may be named
# as a KERNEL (32 groups a unit, as CUDA ran its twin). The L1s are cache10's: 256 KB less the carve-out
# the driver takes (launch_carveout_kb; ncu's launch__shared_mem_config_size for every twin); the
# fourth round's (naive and row 256, tiled 224, the others 192 KB) with L1=fourth.
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
replay="${CACHE_REPLAY:-$here/../../build/tests/cache_replay}"
out="$1"; sizes="$2"; groups="${3:-2112}"; shift; shift; [ $# -gt 0 ] && shift
kernels=("$@"); [ ${#kernels[@]} -gt 0 ] || kernels=(naive tiled reg2d tiled_wpt reg2d_tpad)
streams="${STREAMS:-$out/s}"; mkdir -p "$out" "$streams"
# reg2d_tpad: its twin as it is since draw 8 (121 registers, load_vec's scalar path) runs 8 blocks a unit;
# draws 1-7 measured the one before (129 registers, float4 loads only): TPAD_RESIDENT=6 replays those.
declare -A arg=([naive]="resident=8 l1_kb=224" [tiled]="resident=8 l1_kb=192" [reg2d]="resident=4 l1_kb=156"
                [tiled_wpt]="resident=6 l1_kb=124" [reg2d_tpad]="resident=${TPAD_RESIDENT:-8} l1_kb=124" [row]="resident=32 l1_kb=224")
[ "${L1:-}" = fourth ] && arg=([naive]="resident=8 l1_kb=256" [tiled]="resident=8 l1_kb=224" [reg2d]="resident=4 l1_kb=192"
                [tiled_wpt]="resident=6 l1_kb=192" [reg2d_tpad]="resident=6 l1_kb=192" [row]="resident=32 l1_kb=256")
for s in $sizes; do
  for k in "${kernels[@]}"; do
    [ -s "$out/${k}_$s.json" ] && continue
    f="$streams/${k}_$s.sstream"
    [ -s "$f" ] || /usr/bin/time -f "sdump $k $s %e s %U user %M KB" -a -o "$out/times.txt" ${REPLAY_NICE-nice} "$replay" sdump "$k" "$s" "$f" >/dev/null ||
      { echo "failed: sdump $k $s"; continue; }
    /usr/bin/time -f "smodel $k $s %e s %U user %M KB" -a -o "$out/times.txt" ${REPLAY_NICE-nice} "$replay" smodel "$f" "$groups" h200 ${arg[$k]} ${REPLAY_EXTRA:-} \
      > "$out/${k}_$s.txt" && python3 "$here/caches_smodel_json.py" < "$out/${k}_$s.txt" > "$out/${k}_$s.json" ||
      echo "failed: smodel $k $s"
    tail -2 "$out/times.txt"
  done
done
