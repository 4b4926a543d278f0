#!/bin/sh
# For help2man: `tilescope --help`, then every subcommand's --help, the subcommands read
# from the usage text itself (two spaces, a lower-case word, spaces, a description).
bin="$1"; shift
case "$1" in --version) echo "tilescope"; exit 0;; esac
"$bin" --help || exit 1
for sub in $("$bin" --help | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p'); do
  [ "$sub" = version ] && continue
  echo
  echo "Subcommand $sub:"
  "$bin" "$sub" --help 2>&1 | sed 's/^/  /'
done
exit 0
