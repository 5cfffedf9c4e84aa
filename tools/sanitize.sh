#!/usr/bin/env bash
# Build patrec's extensions with AddressSanitizer + UndefinedBehaviorSanitizer and run
# the tests that exercise the compiled code.
#
#   bash tools/sanitize.sh [pytest arguments...]
#
# The build happens in a scratch copy of the source tree (the in-place build of the
# checkout is left alone), with gcc's -fsanitize=address,undefined and bounds checks
# of the generated code switched on (PATREC_DEBUG=1).  Python itself is not
# instrumented, so libasan is preloaded; leak detection is off (the interpreter's own
# allocations at exit would drown the report).  Any sanitizer report aborts the run
# (halt_on_error), so a green run means no memory error and no undefined behaviour
# was seen on the paths the tests take.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="${TMPDIR:-/tmp}/patrec-sanitize"
rm -rf "$scratch"
mkdir -p "$scratch"
# the tracked sources plus untracked new ones, without build products
(cd "$root" && git ls-files -co --exclude-standard -z) |
    (cd "$root" && xargs -0 cp --parents -t "$scratch")

flags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
(cd "$scratch" &&
    CFLAGS="$flags" LDFLAGS="-fsanitize=address,undefined" PATREC_DEBUG=1 \
        python setup.py build_ext --inplace -j 2 >build.log 2>&1) ||
    { tail -30 "$scratch/build.log"; exit 1; }

libasan="$(gcc -print-file-name=libasan.so)"
libubsan="$(gcc -print-file-name=libubsan.so)"
if [ "$#" -eq 0 ]; then
    # the compiled code: neighbour search, distances, the discriminant and linear
    # kernels, and the cross-cutting tests (scale, threads, pickling)
    set -- tests/neighbors tests/discriminant tests/linear tests/piecewise \
        tests/test_scale.py tests/test_concurrency.py -x -q -p no:cacheprovider
fi
cd "$scratch"
LD_PRELOAD="$libasan $libubsan" \
    ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=1" \
    UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
    PYTHONPATH="$scratch" python -m pytest "$@"
