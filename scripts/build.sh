#!/usr/bin/env bash
# Configures and builds tilescope into build/ (Release). Prints only what matters.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TILESCOPE_BUILD_DIR:-$root/build}"
jobs="${TILESCOPE_JOBS:-$(nproc)}"
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
# Paths relative to the clone, so a second clone elsewhere (CI's fresh one) reuses the cache.
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
mkdir -p "$build"
if [ ! -f "$build/build.ninja" ]; then
  echo "build: configuring in $build"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >"$build/configure.log" 2>&1 || {
    echo "build: error: CMake configuration failed; last lines of $build/configure.log:" >&2
    tail -n 20 "$build/configure.log" >&2; exit 1; }
fi
echo "build: compiling with $jobs job(s) (first build takes a few minutes)"
if ! cmake --build "$build" -j "$jobs" >"$build/build.log" 2>&1; then
  echo "build: error: compilation failed; the first errors from $build/build.log:" >&2
  grep -m 20 -E 'error|Error' "$build/build.log" >&2 || tail -n 20 "$build/build.log" >&2
  exit 1
fi
echo "build: done ($build/tilescope)"
