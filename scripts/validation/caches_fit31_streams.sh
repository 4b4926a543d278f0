#!/usr/bin/env bash
# Issue 31: the fit set's request streams for caches_fit31.py (here, on the emulator): issue
# 24's launches at 128^3 whole, every other fit launch as a 3x3 sample (cache_replay sdump).
#   scripts/validation/caches_fit31_streams.sh OUTDIR [BUILD]
set -u
out="$1"; b="${2:-build}"; mkdir -p "$out"
for k in naive tiled row reg2d tiled_wpt reg2d_tpad; do
  [ -s "$out/${k}_128.stream" ] || "$b/tests/cache_replay" dump "$k" 128 "$out/${k}_128.stream"
done
for ks in "naive 256" "tiled 256" "row 256" "reg2d 256" "tiled_wpt 256" "reg2d_tpad 256" \
          "naive 448" "tiled 448" "reg2d 448" "tiled_wpt 448" "reg2d_tpad 448" \
          "naive 896" "tiled 896" "reg2d 896" "tiled_wpt 896" "reg2d_tpad 896" \
          "naive 1024" "tiled 1024" "naive 1920" "tiled 1920" "tiled_wpt 1920" "reg2d_tpad 1920"; do
  set -- $ks
  [ -s "$out/$1_$2.sstream" ] || "$b/tests/cache_replay" sdump "$1" "$2" "$out/$1_$2.sstream"
done
