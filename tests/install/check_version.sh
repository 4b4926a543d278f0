#!/bin/sh
# tilescope --version and tilescope version: the same text, naming the project version,
# a git revision (or "unknown"), the ICD loader, Oclgrind and the trace plugin.
set -u
bin="$1"; version="$2"
fail() { echo "check_version: $*" >&2; exit 1; }
a=$("$bin" --version) || fail "--version exited $?"
b=$("$bin" version) || fail "version exited $?"
printf '%s\n' "$a"
[ "$a" = "$b" ] || fail "--version and version differ"
printf '%s\n' "$a" | grep -Eq "^tilescope $version \(git ([0-9a-f]{7,}|v?[0-9][^ ]*)(-dirty)?\)$|^tilescope $version \(git unknown\)$" \
  || fail "first line is not 'tilescope $version (git REVISION)'"
printf '%s\n' "$a" | grep -q '^OpenCL ICD loader: ' || fail "no ICD loader line"
printf '%s\n' "$a" | grep -Eq '^Oclgrind: OpenCL [0-9.]+ \(Oclgrind [0-9.]+\)' || fail "no Oclgrind version line"
printf '%s\n' "$a" | grep -q '^trace plugin: /.*libtilescope_trace\.so$' || fail "no trace plugin path"
"$bin" version --bogus 2>/dev/null; rc=$?
[ "$rc" = 2 ] || fail "version --bogus exited $rc, expected 2"
echo "check_version: ok"
