#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Compile-only checks of the public ACL headers: every header must build as
# strict C11 and C++17, with and without FUNC_VISIBILITY, and every header
# must also compile on its own (self-contained). Exits non-zero on any
# failure. Usage: tests/headers/check.sh  (from anywhere; CC/CXX may be set)
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
CC=${CC:-gcc}
CXX=${CXX:-g++}
CFLAGS="-std=c11 -Wall -Wextra -Werror -pedantic -I $root/include -fsyntax-only"
CXXFLAGS="-std=c++17 -Wall -Wextra -Werror -pedantic -I $root/include -fsyntax-only"

pass=0
fail=0
run() {
    name=$1
    shift
    if "$@"; then
        pass=$((pass + 1))
    else
        echo "FAIL: $name" >&2
        fail=$((fail + 1))
    fi
}

for vis in "" "-DFUNC_VISIBILITY"; do
    run "c11 $vis" $CC $CFLAGS $vis "$here/c11.c"
    run "c++17 $vis" $CXX $CXXFLAGS $vis "$here/cxx17.cpp"
done

# Each header alone, as the first and only include.
for h in $(cd "$root/include" && find acl -name '*.h' | sort); do
    # (the typedef keeps a defines-only header from being an empty unit)
    printf '#include "%s"\ntypedef int vnpu_header_alone;\n' "$h" > "${TMPDIR:-/tmp}/vnpu_hdr_$$.c"
    run "c11 alone $h" $CC $CFLAGS -x c "${TMPDIR:-/tmp}/vnpu_hdr_$$.c"
    run "c++17 alone $h" $CXX $CXXFLAGS -x c++ "${TMPDIR:-/tmp}/vnpu_hdr_$$.c"
done
rm -f "${TMPDIR:-/tmp}/vnpu_hdr_$$.c"

echo "headers: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
