#!/usr/bin/env bash
# Quick start, command 2: install what is missing, build, and run every test.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
build="${TILESCOPE_BUILD_DIR:-$root/build}"
echo "test: running every test (ctest)"
cd "$build"
ctest --output-on-failure -j "${TILESCOPE_JOBS:-$(nproc)}" "$@"
