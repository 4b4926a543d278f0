#!/usr/bin/env bash
# A CPU figure as a ratio to OpenBLAS in the same run: the CPU and the load, OpenBLAS SGEMM,
# tilescope bench on PoCL (the arguments given, default every rung at 1024), OpenBLAS again.
# usage: scripts/bench_cpu.sh OUT.json [bench arguments...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:?usage: scripts/bench_cpu.sh OUT.json [bench arguments...]}"; shift
args=("$@"); [ ${#args[@]} -eq 0 ] && args=(--kernel all --size 1024)
size=1024
for ((i = 0; i < ${#args[@]}; i++)); do [ "${args[$i]}" = --size ] && size="${args[$((i + 1))]}"; done
blas="$(update-alternatives --query libblas.so.3-x86_64-linux-gnu 2>/dev/null | sed -n 's/^Value: //p')"
case "$blas" in *openblas*) ;; *) echo "bench_cpu: libblas.so.3 is '$blas', not OpenBLAS; install libopenblas0-pthread" >&2; exit 2;; esac
echo "cpu: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
before="$(/usr/bin/python3 "$root/scripts/openblas_sgemm.py" "$size")"
echo "openblas before: $before"
"${TILESCOPE_BIN:-$root/build/tilescope}" bench --device pocl "${args[@]}" --reps 5 --json "$out.tmp"
after="$(/usr/bin/python3 "$root/scripts/openblas_sgemm.py" "$size")"
echo "openblas after:  $after"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/python3 - "$out.tmp" "$out" "$before" "$after" <<'PY'
import json, sys
tmp, out, before, after = sys.argv[1:5]
runs = json.load(open(tmp))
blas = [json.loads(l) for l in (before + "\n" + after).splitlines() if l.strip()]
ref = sum(r["gflops"] for r in blas) / len(blas)
best = max((r for r in runs if r["verified"]), key=lambda r: r["gflops"])
print("best verified rung: %s %.2f GFLOP/s = %.0f%% of OpenBLAS (%.1f GFLOP/s, mean of before and after)"
      % (best["kernel"], best["gflops"], 100 * best["gflops"] / ref, ref))
json.dump({"openblas": blas, "runs": runs}, open(out, "w"), indent=1)
PY
rm -f "$out.tmp"
