#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A failed operation makes a benchmark fail loudly (bench_fail()): run in a
# guest whose files may hold only 16 streams (tests/suites.conf), so
# bench_scale cannot create the streams of scale_streams_64. It must exit
# non-zero, say what failed with its errno, and report no figure for that
# size. TAP output.
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail=0
echo "1..3"
VNPU_BENCH_MODE=smoke "$top/build/bench/bench_scale" > "$tmp/out" 2> "$tmp/err"
status=$?
if [ "$status" -ne 0 ]; then
	echo "ok 1 bench_scale exits non-zero when it cannot create its streams"
else
	echo "not ok 1 bench_scale exits non-zero when it cannot create its streams (exit 0)"
	fail=1
fi
if grep -q 'vnpu_stream_create.* failed: .*(errno [0-9]*)' "$tmp/err"; then
	echo "ok 2 the failed call and its errno are printed"
else
	echo "not ok 2 the failed call and its errno are printed"
	fail=1
	sed 's/^/#   /' "$tmp/err"
fi
if grep -q '"name":"scale_streams_1"' "$tmp/out" &&
   ! grep -q '"name":"scale_streams_64"' "$tmp/out"; then
	echo "ok 3 figures stop at the failure"
else
	echo "not ok 3 figures stop at the failure"
	fail=1
	sed 's/^/#   /' "$tmp/out"
fi
exit $fail
