#!/usr/bin/env bash
# Issue 20 item 4 on this machine's CPU (PoCL): the FP32 peak `tilescope ceilings` measures, cpu_panel at 1024^3
# from the fallback alone, `tune --quick`, cpu_panel again, the peak again; OpenBLAS before and after each bench
# (scripts/bench_cpu.sh). Tuning goes to a temporary folder, never the user's.
# usage: docs/results/pocl_anysize_cpu.sh OUTDIR
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"; out="${1:?OUTDIR}"; mkdir -p "$out"
B="${TILESCOPE_BIN:-$root/build/tilescope}"
export TILESCOPE_TUNING_DIR="$(mktemp -d)" XDG_DATA_HOME="$(mktemp -d)"
date -u; lscpu | sed -n 's/^Model name: *//p;s/^CPU family: *//p'; nproc; uptime
"$B" ceilings --device pocl --json "$out/peak_before.json" | grep peak
TILESCOPE_BIN="$B" "$root/scripts/bench_cpu.sh" "$out/fallback.json" --kernel cpu_panel --size 1024
"$B" tune --quick --device pocl --kernel cpu_panel --size 1024 --json "$out/tune_quick.json" > "$out/tune_quick.log" 2>&1 || true
tail -3 "$out/tune_quick.log"
TILESCOPE_BIN="$B" "$root/scripts/bench_cpu.sh" "$out/after_quick.json" --kernel cpu_panel --size 1024
"$B" ceilings --device pocl --json "$out/peak_after.json" | grep peak
uptime; date -u
