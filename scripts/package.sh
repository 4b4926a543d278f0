#!/usr/bin/env bash
# Builds tilescope (scripts/build.sh) and makes the Debian package with CPack into build/package/.
# Install it with: sudo apt install ./build/package/tilescope_VERSION_ARCH.deb
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TILESCOPE_BUILD_DIR:-$root/build}"
out="$build/package"
for tool in cmake cpack dpkg-deb dpkg-shlibdeps; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "package: error: $tool not found; install the Debian packages cmake and dpkg-dev" >&2; exit 1; }
done
command -v help2man >/dev/null 2>&1 || echo "package: warning: help2man not found; the package will have no man page (apt-get install help2man)" >&2
echo "package: building in $build"
TILESCOPE_BUILD_DIR="$build" "$root/scripts/build.sh"
# A build that was configured before help2man was installed must look for it again.
if command -v help2man >/dev/null 2>&1 && grep -q '^HELP2MAN:FILEPATH=HELP2MAN-NOTFOUND' "$build/CMakeCache.txt" 2>/dev/null; then
  echo "package: help2man is now installed; reconfiguring to build the man page"
  cmake -U HELP2MAN "$build" >/dev/null && cmake --build "$build" --target tilescope_man >/dev/null
fi
echo "package: cpack -G DEB into $out"
rm -f "$out"/tilescope_*.deb
if ! cpack -G DEB -B "$out" --config "$build/CPackConfig.cmake" >"$build/package.log" 2>&1; then
  echo "package: error: cpack failed; last lines of $build/package.log:" >&2
  tail -n 20 "$build/package.log" >&2; exit 1
fi
deb=$(ls "$out"/tilescope_*.deb)
echo "package: made $deb"
echo "package: Depends: $(dpkg-deb -f "$deb" Depends)"
echo "package: install with: sudo apt install $deb"
