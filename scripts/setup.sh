#!/usr/bin/env bash
# Installs the Debian packages tilescope needs that are missing. Idempotent: quiet when
# everything is present. Used by scripts/run.sh and scripts/test.sh.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mapfile -t wanted < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$here/packages.txt" | grep -v '^$')

missing=()
for p in "${wanted[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${#missing[@]} missing Debian package(s): ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "setup: error: these packages are missing and I am not root (and there is no sudo): ${missing[*]}" >&2
    echo "setup: install them as root with: apt-get install ${missing[*]}" >&2
    exit 1
  fi
fi
log=$(mktemp /tmp/tilescope-apt.XXXXXX.log)
if ! $sudo apt-get update -qq >"$log" 2>&1; then
  echo "setup: error: 'apt-get update' failed; its output is in $log:" >&2
  tail -n 5 "$log" >&2
  exit 1
fi
if ! DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >>"$log" 2>&1; then
  echo "setup: error: 'apt-get install' failed; its output is in $log:" >&2
  tail -n 10 "$log" >&2
  exit 1
fi
rm -f "$log"
echo "setup: installed ${missing[*]}"
