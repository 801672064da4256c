#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The README's operator table (section "## Operators") is
# build/onnx/ops_table's output, from lib/ops and lib/onnx/map themselves:
# fail if the two differ. With --fix, rewrite the README's table instead.
top=$(cd "$(dirname "$0")/../.." && pwd)
want=$("$top/build/onnx/ops_table") || exit 1
if [ "${1:-}" = "--fix" ]; then
	printf '%s\n' "$want" | python3 -c '
import sys
path, new = sys.argv[1], sys.stdin.read().rstrip("\n").split("\n")
out, sec, done = [], False, False
lines = open(path).read().split("\n")
i = 0
while i < len(lines):
    l = lines[i]
    if l.startswith("#"):
        sec = l.startswith("## Operators")
    if sec and l.startswith("| ") and not done:
        while i < len(lines) and lines[i].startswith("|"):
            i += 1
        out += new
        done = True
        continue
    out.append(l)
    i += 1
open(path, "w").write("\n".join(out))
' "$top/README.md"
fi
have=$(awk '/^#+ / { in_section = ($0 ~ /^## Operators/) }
	in_section && /^\| / { print }' "$top/README.md")
if [ "$want" != "$have" ]; then
	echo "README.md's operator table differs from build/onnx/ops_table ($0 --fix rewrites it):"
	printf '%s\n' "$want" > /tmp/vnpu-ops-want.$$
	printf '%s\n' "$have" | diff -u - /tmp/vnpu-ops-want.$$ | head -40
	rm -f /tmp/vnpu-ops-want.$$
	exit 1
fi
echo "ok 1 README operator table matches lib/ops"
