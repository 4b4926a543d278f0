#!/usr/bin/env bash
# Regenerates every image of docs/guide.md into docs/guide/: GUI screenshots of lesson
# steps (the scripted mode under an Xvfb of its own), a GIF of one group's phases
# (gui --record), and the HTML hand-out as headless chromium draws it.
# Usage: scripts/docs_images.sh   (after scripts/build.sh; takes a few minutes)
set -euo pipefail
umask 022  # the images are the repository's files: readable by all (issue 33: a GIF came out 0600)
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${TILESCOPE_BUILD_DIR:-$root/build}/tilescope"
out="$root/docs/guide"
lessons="$root/assets/lessons"
tmp="$(mktemp -d)"
mkdir -p "$out"
# Settings of its own: the GUI restores the last session's (presenter mode, names, panels), and
# whoever ran it last on this account must not decide what the guide shows.
export XDG_CONFIG_HOME="$tmp/config"

display=":${TILESCOPE_DOCS_DISPLAY:-45}"
Xvfb "$display" -screen 0 1600x1000x24 -nolisten tcp -noreset >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X${display#:}" ] && break; sleep 0.1; done
export DISPLAY="$display"

shot() {  # NAME, then gui options
  local name="$1"; shift
  echo "docs_images: $name.png"
  "$bin" gui "$@" --window 1280x800 --frames 3 --screenshot "$out/$name.png" --screenshot-width 1000
}

shot lesson1-naive        --lesson "$lessons/1_naive.json" --step 1
shot lesson1-heatmap      --lesson "$lessons/1_naive.json" --step 2
shot lesson2-phase0       --lesson "$lessons/2_tiling_4x4.json" --step 1
shot lesson2-phase1       --lesson "$lessons/2_tiling_4x4.json" --step 3
shot lesson3-compare      --lesson "$lessons/3_tile_sizes.json" --step 1
shot lesson4-partial      --lesson "$lessons/4_partial_tiles.json" --step 1
shot lesson5-missing      --lesson "$lessons/5_what_goes_wrong.json" --step 1
shot lesson6-coalescing   --lesson "$lessons/6_coalescing_banks.json" --step 1
# Lesson 8 compares two traces at 128^3 through the cache model (a minute or so here).
echo "docs_images: lesson8-naive-vs-tiled-dram.png"
"$bin" gui --lesson "$lessons/8_why_naive_is_fast.json" --step 2 --window 1280x800 --frames 3 \
  --screenshot "$out/lesson8-naive-vs-tiled-dram.png" --screenshot-width 1000
# At a projector (1280x720, presenter mode): the lesson strip, before and after Reveal, and compare.
projector() {  # NAME, then gui options
  local name="$1"; shift
  echo "docs_images: $name.png"
  "$bin" gui "$@" --presenter --window 1280x720 --frames 8 --screenshot "$out/$name.png"
}
projector presenter-question  --lesson "$lessons/2_tiling_4x4.json" --step 3
projector presenter-revealed  --lesson "$lessons/2_tiling_4x4.json" --step 3 --reveal
projector presenter-compare   --lesson "$lessons/3_tile_sizes.json" --step 1
projector presenter-cpu       --lesson "$lessons/7_local_memory_on_cpu.json" --step 2
# Lesson 9, the slides frame by frame: every step at a projector's 1280x720 (as many as the
# lesson has, counted from its file).
slides_steps="$(/usr/bin/python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["steps"]))' \
  "$lessons/9_slides_frame_by_frame.json")"
for step in $(seq 1 "$slides_steps"); do
  echo "docs_images: slides-step$step.png"
  "$bin" gui --lesson "$lessons/9_slides_frame_by_frame.json" --step "$step" --window 1280x720 --frames 4 \
    --screenshot "$out/slides-step$step.png"
done

# A barrier removed (as the source view's toggle does), saved, and opened with no OpenCL.
second_barrier="$(grep -n 'barrier(' "$root/kernels/tiled.cl" | sed -n 2p | cut -d: -f1)"
"$bin" trace --kernel tiled --size 32 --tile 8 --drop-barrier "$second_barrier" --save "$tmp/race.tstrace" >/dev/null
mkdir -p "$tmp/no-icds"
echo "docs_images: open-saved-race.png"
OCL_ICD_VENDORS="$tmp/no-icds" "$bin" gui --open "$tmp/race.tstrace" --group 1,1 --window 1280x800 --frames 3 \
  --screenshot "$out/open-saved-race.png" --screenshot-width 1000

# The slides' two examples: 4x4 with TILE_WIDTH 2 (a frame per part and per iteration), and 3x3,
# whose phase 1 tile hangs past the edge of M and N.
echo "docs_images: phases.gif"
"$bin" gui --kernel tiled --size 4 --tile 2 --group 0,0 --record "$out/phases.gif"
echo "docs_images: phases-3x3.gif"
"$bin" gui --kernel tiled --size 3 --tile 2 --group 0,0 --record "$out/phases-3x3.gif"

echo "docs_images: handout.png"
"$bin" trace --kernel tiled --size 32 --tile 8 --save "$tmp/tiled.tstrace" >/dev/null
"$bin" export --html "$tmp/tiled.html" "$tmp/tiled.tstrace"
chromium --headless --no-sandbox --disable-gpu --user-data-dir="$tmp/chromium" --window-size=1300,950 \
  --virtual-time-budget=3000 --screenshot="$out/handout.png" "file://$tmp/tiled.html#group=1,2&phase=1" >/dev/null 2>&1
echo "docs_images: done ($(ls "$out" | wc -l) files in docs/guide/)"
