#!/usr/bin/env bash
# Quick start, command 1: install what is missing, build, and start tilescope:
# the GUI when a display exists, the terminal tour when not.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
bin="${TILESCOPE_BUILD_DIR:-$root/build}/tilescope"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  echo "run: starting the GUI"
  exec "$bin" "$@"
else
  echo "run: no display found (DISPLAY is unset), starting the terminal tour instead"
  exec "$bin" tour "$@"
fi
