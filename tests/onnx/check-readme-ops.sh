#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The README's operator table is build/onnx/ops_table's output (lib/ops and
# lib/onnx/map themselves): fail if the two differ.
top=$(cd "$(dirname "$0")/../.." && pwd)
want=$("$top/build/onnx/ops_table") || exit 1
have=$(awk '/^#+ / { in_section = ($0 ~ /^### Operators/) }
	in_section && /^\| / { print }' "$top/README.md")
if [ "$want" != "$have" ]; then
	echo "README.md's operator table differs from build/onnx/ops_table (regenerate it):"
	printf '%s\n' "$want" > /tmp/vnpu-ops-want.$$
	printf '%s\n' "$have" | diff -u - /tmp/vnpu-ops-want.$$ | head -40
	rm -f /tmp/vnpu-ops-want.$$
	exit 1
fi
echo "ok 1 README operator table matches lib/ops"
