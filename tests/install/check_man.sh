#!/bin/sh
# The generated man page formats (man -l) and has every subcommand of `tilescope --help`.
set -u
bin="$1"; page="$2"
fail() { echo "check_man: $*" >&2; exit 1; }
[ -s "$page" ] || fail "$page not built"
text=$(MANWIDTH=100 man -l "$page" 2>&1) || fail "man -l $page failed"
subs=$("$bin" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
[ -n "$subs" ] || fail "no subcommands in tilescope --help"
for s in $subs; do
  printf '%s\n' "$text" | grep -q "$s" || fail "man page lacks subcommand $s"
done
printf '%s\n' "$text" | grep -q "usage: tilescope trace" || fail "man page lacks trace's own --help"
echo "check_man: ok ($(echo $subs | wc -w) subcommands)"
