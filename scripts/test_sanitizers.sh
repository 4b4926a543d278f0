#!/usr/bin/env bash
# CI, second command (.ci/run calls it after scripts/test.sh): builds tilescope with
# AddressSanitizer + UndefinedBehaviorSanitizer into build-sanitize/ and runs the core, CLI,
# trace-model, hardening and class tests, and the GUI's live-window and screenshot tests,
# under them. Any finding fails the run.
# Extra arguments go to ctest (e.g. -R expr).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TILESCOPE_SANITIZE_BUILD_DIR:-$root/build-sanitize}"
jobs="${TILESCOPE_JOBS:-$(nproc)}"
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
# Paths relative to the clone, so a second clone elsewhere (CI's fresh one) reuses the cache.
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
mkdir -p "$build"
t0=$SECONDS
if [ ! -f "$build/build.ninja" ]; then
  echo "sanitize: configuring in $build"
  # -O1 -g1: the sanitizers' own advice (fast enough, stack traces with lines), and about a third
  # less compile time than -O2 -g on CI's two cores.
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1" \
    -DTILESCOPE_SANITIZE=ON -DTILESCOPE_GUI=ON \
    "${launcher[@]}" >"$build/configure.log" 2>&1 || {
    echo "sanitize: error: CMake configuration failed; see $build/configure.log" >&2
    tail -n 20 "$build/configure.log" >&2; exit 1; }
fi
# A build dir configured before the GUI joined this build (session 54) is configured again.
if grep -q '^TILESCOPE_GUI:BOOL=OFF' "$build/CMakeCache.txt" 2>/dev/null; then
  cmake "$build" -DTILESCOPE_GUI=ON >>"$build/configure.log" 2>&1 || {
    echo "sanitize: error: CMake configuration failed; see $build/configure.log" >&2; exit 1; }
fi
# The kernel, rung and view-model trace tests exercise the emulator (Oclgrind, uninstrumented)
# far more than our code, and take several times longer under ASan: the normal run covers them.
# Of the GUI's, the live window (resized, closed while its worker runs, presenter mode) and the
# scripted screenshots: about a minute under ASan (the lesson and reveal suites, 20 minutes
# under ASan, passed whole there once: docs/reliability.md).
targets=(tilescope tilescope_trace core_tests cli_tests trace_model_tests hardening_tests hardening_cli_tests tilescope_fuzz
         class_room_tests class_server_tests gui_window_tests gui_screenshot_tests)
echo "sanitize: compiling ${targets[*]} with $jobs job(s)"
if ! cmake --build "$build" -j "$jobs" --target "${targets[@]}" >"$build/build.log" 2>&1; then
  echo "sanitize: error: compilation failed; the first errors from $build/build.log:" >&2
  grep -m 20 -E 'error|Error' "$build/build.log" >&2 || tail -n 20 "$build/build.log" >&2
  exit 1
fi
echo "sanitize: stage 'build' took $((SECONDS - t0)) s"
# detect_leaks=0: tilescope and the test mains leave with _Exit (Debian's CLBlast aborts in
# its static destructors once PoCL is loaded, see app/main.cpp), so LeakSanitizer's exit
# check never runs in them; in the few processes where it would, it reports the OpenCL
# drivers' (PoCL, Oclgrind, LLVM) one-time allocations, not ours.
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=0:halt_on_error=1:detect_stack_use_after_return=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
echo "sanitize: running the core, CLI, trace-model, hardening, class and GUI window tests under ASan+UBSan"
cd "$build"
# Test executables not built here register as *_NOT_BUILT; the rest is what was built above.
t0=$SECONDS
status=0
"$root/scripts/with_test_tmp.sh" ctest --output-on-failure -j "$jobs" -E '_NOT_BUILT$' "$@" || status=$?
echo "sanitize: stage 'tests' took $((SECONDS - t0)) s"
exit "$status"
