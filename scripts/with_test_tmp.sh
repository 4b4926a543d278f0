#!/usr/bin/env bash
# Runs a command (ctest) with TMPDIR set to a folder of its own, removed when it ends, so a
# test run leaves nothing in /tmp: the suite's scratch folders, saved traces and the
# binary's own temporary files all follow TMPDIR (one run used to leave about 200 folders).
#   scripts/with_test_tmp.sh ctest --output-on-failure ...
set -uo pipefail
tests_tmp="$(mktemp -d "${TMPDIR:-/tmp}/tilescope-tests.XXXXXX")" || { echo "test: cannot make a temporary folder in ${TMPDIR:-/tmp}" >&2; exit 1; }
trap 'rm -rf "$tests_tmp"' EXIT
TMPDIR="$tests_tmp" "$@"
