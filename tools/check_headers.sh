#!/usr/bin/env bash
# patrec's own C code, the headers beside the .pyx files, compiled on its own with
# every warning an error: each header, with the SIMD kernel and without
# (PATREC_NO_SIMD), by each compiler given (default: gcc and clang).
#
#   bash tools/check_headers.sh [compiler...]
#
# gcc analyses an unused `static inline` function only when asked to keep it
# (-fkeep-inline-functions); clang analyses it anyway and rejects that flag.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$#" -gt 0 ] || set -- gcc clang
for cc in "$@"; do
    keep=()
    if "$cc" --version | grep -q "Free Software Foundation"; then
        keep=(-fkeep-inline-functions)
    fi
    git ls-files -z 'patrec/*.h' | while IFS= read -r -d '' header; do
        for define in -UPATREC_NO_SIMD -DPATREC_NO_SIMD; do
            printf '#include "%s"\n' "$header" |
                "$cc" -std=c99 -O2 -Wall -Wextra -Wpedantic -Wconversion -Werror \
                    "${keep[@]}" "$define" -I. -x c -c -o /dev/null -
            echo "$cc $define: $header compiles without a warning"
        done
    done
done
