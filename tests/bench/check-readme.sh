#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The README's benchmark table is tests/bench/ratios.conf, rendered: fail
# if one changed without the other.
top=$(cd "$(dirname "$0")/../.." && pwd)
want=$(python3 "$top/tests/bench/report.py" --markdown "$top/tests/bench/ratios.conf")
have=$(awk '/^## / { in_section = ($0 == "## Benchmarks") }
	in_section && /^\| / { print }' "$top/README.md")
if [ "$want" != "$have" ]; then
	echo "README.md's Benchmarks table differs from tests/bench/ratios.conf:"
	printf '%s\n' "$want" > /tmp/vnpu-bench-want.$$
	printf '%s\n' "$have" | diff -u - /tmp/vnpu-bench-want.$$
	rm -f /tmp/vnpu-bench-want.$$
	exit 1
fi
echo "ok 1 README benchmark table matches ratios.conf"
