#!/usr/bin/env bash
# Regenerates docs/screenshots/ from the scripted GUI (the pictures in README.md and
# docs/gui.md). Needs a display: run under Xvfb, e.g.
#   Xvfb :41 -screen 0 1920x1080x24 & DISPLAY=:41 scripts/gui_screenshots.sh
# The performance picture measures on the default real device (a minute or two).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${TILESCOPE_BIN:-$root/build/tilescope}"
out="$root/docs/screenshots"
mkdir -p "$out"
shot() {  # NAME, then gui options
    local name="$1"; shift
    echo "screenshots: $name"
    "$bin" gui "$@" --screenshot "$out/$name.png" --screenshot-width 1200
}
tiled=(--kernel tiled --size 32 --tile 8)
race=(--kernel tiled_missing_barrier --size 32 --tile 8)
shot emulation "${tiled[@]}" --group 1,2 --phase 0
shot hover "${tiled[@]}" --group 1,2 --phase 2 --hover 17,9
shot heatmap "${tiled[@]}" --view heatmap --window 1600x1000  # room for the heat scale below the matrices
shot source "${race[@]}" --view source --phase 1
shot race "${race[@]}" --group 1,1 --phase 1
shot compare "${tiled[@]}" --view compare --compare tiled:16 --group 1,2 --phase 1
shot presenter "${tiled[@]}" --group 1,2 --phase 1 --presenter --window 1280x720
shot emulation_256 --kernel tiled --size 256 --tile 16 --group 3,5 --phase 4 --part use --play --frames 120
shot performance "${tiled[@]}" --view performance
ls -l "$out"
