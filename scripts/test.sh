#!/usr/bin/env bash
# Quick start, command 2: install what is missing, build, and run every test.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Each stage says how long it took (bash's SECONDS), so a slow CI shows where the time went.
stage() {
  local name="$1" t0=$SECONDS rc=0; shift
  "$@" || rc=$?
  echo "test: stage '$name' took $((SECONDS - t0)) s$([ $rc -eq 0 ] || echo ", and failed (exit $rc)")"
  return $rc
}
stage setup "$root/scripts/setup.sh"
stage build "$root/scripts/build.sh"
build="${TILESCOPE_BUILD_DIR:-$root/build}"
echo "test: running every test (ctest)"
cd "$build"
stage tests "$root/scripts/with_test_tmp.sh" ctest --output-on-failure -j "${TILESCOPE_JOBS:-$(nproc)}" "$@"
