#!/bin/bash
# SPDX-License-Identifier: MIT
#
# run-sanitized.sh PROGRAM [ARGS...] - run an ACL test program over the
# ASan and UBSan build of libascendcl (build/lib-san, made by `make
# acltests`, and aclnn's from `make nntests`): the runtimes are preloaded
# first, then the libraries, which thereby stand in for the ones the program
# was linked with. Any report
# ends the program with a failure.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
lib=$top/build/lib-san/libascendcl.so.1
[ -f "$lib" ] || { echo "run-sanitized: no $lib (run make acltests)" >&2; exit 2; }
asan=$(${CC:-cc} -print-file-name=libasan.so)
ubsan=$(${CC:-cc} -print-file-name=libubsan.so)
# Check forks a process per test; leaks are checked in each of them.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:halt_on_error=1:detect_leaks=1:exitcode=99}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1:exitcode=99}
# aclnn's libraries too, when they were built (make nntests).
for l in libnnopbase.so.1 libopapi.so.1; do
	[ -f "$top/build/lib-san/$l" ] && lib="$lib $top/build/lib-san/$l"
done
export LD_PRELOAD="$asan $ubsan $lib${LD_PRELOAD:+ $LD_PRELOAD}"
exec "$@"
