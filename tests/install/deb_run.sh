#!/bin/sh
# Unpacks the .deb (dpkg-deb -x) into a temporary root and runs tour, trace and export --html
# from there, with a clean environment, the working directory outside the source and build
# trees, and an assertion that the trace plugin used is the unpacked one.
set -u
debdir="$1"; version="$2"
fail() { echo "deb_run: $*" >&2; exit 1; }
set -- "$debdir"/tilescope_*.deb
[ $# = 1 ] && [ -f "$1" ] || fail "expected exactly one tilescope_*.deb in $debdir (made by the Install.MakeDeb fixture)"
deb="$1"
tmp=$(mktemp -d /tmp/tilescope-deb-XXXXXX) || fail "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
root="$tmp/root"
dpkg-deb -x "$deb" "$root" || fail "dpkg-deb -x $deb failed"
bin="$root/usr/bin/tilescope"
[ -x "$bin" ] || fail "no usr/bin/tilescope in $deb"
for f in usr/lib/tilescope/libtilescope_trace.so usr/share/applications/tilescope.desktop \
         usr/share/icons/hicolor/scalable/apps/tilescope.svg usr/share/tilescope/kernels/ladder.json \
         usr/share/tilescope/lessons/1_naive.json usr/share/tilescope/handout/handout.html; do
  [ -f "$root/$f" ] || fail "$f missing from $deb"
done
deps=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $deps"
for p in oclgrind ocl-icd-libopencl1 libc6; do
  printf '%s' "$deps" | grep -q "$p" || fail "Depends lacks $p"
done
printf '%s' "$deps" | grep -q -- '-dev' && fail "Depends names a -dev package: $deps"
mkdir -p "$tmp/home" "$tmp/work"
cd "$tmp/work" || fail "cd"
run() { env -i PATH=/usr/bin:/bin HOME="$tmp/home" "$bin" "$@"; }
out=$(run version) || fail "version exited $?"
printf '%s\n' "$out"
printf '%s\n' "$out" | grep -q "^tilescope $version " || fail "version does not say $version"
printf '%s\n' "$out" | grep -qx "trace plugin: $root/usr/lib/tilescope/libtilescope_trace.so" \
  || fail "the unpacked program does not use the unpacked trace plugin"
run tour > tour.txt || fail "tour exited $?"
[ -s tour.txt ] || fail "tour printed nothing"
run trace --kernel tiled --size 16 --tile 8 --save t.tstrace > trace.txt || fail "trace exited $?"
grep -qi "global" trace.txt || fail "trace printed no global traffic: $(head -5 trace.txt)"
run export --html t.html t.tstrace || fail "export --html exited $?"
grep -q "<html" t.html || fail "export wrote no HTML page"
echo "deb_run: ok (tour, trace, export --html from $root)"
