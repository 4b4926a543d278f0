#!/usr/bin/env bash
# cpu8's sitting (issue 30 item 4): sets of scripts/cpu_peak_share.sh, alternating this branch's
# binary (sizes in the same rounds) and main's at 0e70d61 (one size after the other), same machine,
# same minutes. usage: sets.sh OUTDIR SETS RUNS_PER_SET NEW_BIN OLD_BIN [FIRST_SET]   (OLD_BIN -: new only)
set -euo pipefail
out="$1"; sets="$2"; runs="$3"; new="$4"; old="$5"; first="${6:-1}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
mkdir -p "$out"
for ((s = first; s < first + sets; s++)); do
  for which in new old; do
    bin=$new; [ $which = old ] && bin=$old
    [ "$bin" = - ] && continue
    d="$out/set$s-$which"
    echo "set $s $which: $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
    TILESCOPE_BIN="$bin" "$root/scripts/cpu_peak_share.sh" "$runs" "$d" 30 >"$d.log" 2>&1 || echo "set $s $which failed: $?"
  done
done
echo "done: $(date -u +%T)"
