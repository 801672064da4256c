#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Run one CANN-style example program and check its output, as TAP.
# usage: tests/acl/run-example.sh NAME [ARGS...]
# The program is build/acl/examples/NAME; tests/acl/examples/NAME.expect
# (or tests/aclnn/examples/NAME.expect)
# lists extended regular expressions, one per line, that its output must
# match in that order ("#" lines are comments). The exit status must be 0.
set -u
name=$1
shift
top=$(cd "$(dirname "$0")/../.." && pwd)
prog=$top/build/acl/examples/$name
expect=$top/tests/acl/examples/$name.expect
# aclnn's examples keep their sources and expectations in tests/aclnn/examples.
[ -f "$expect" ] || expect=$top/tests/aclnn/examples/$name.expect
out=$(mktemp)
trap 'rm -f "$out"' EXIT

"$prog" "$@" > "$out" 2>&1
status=$?
sed 's/^/# /' "$out"

n=0
failed=0
n=$((n + 1))
if [ "$status" -eq 0 ]; then
	echo "ok $n - $name exits with 0"
else
	echo "not ok $n - $name exits with 0 (got $status)"
	failed=1
fi
rest=$(cat "$out")
while IFS= read -r re; do
	case "$re" in ''|'#'*) continue ;; esac
	n=$((n + 1))
	# Match in order: search what follows the previous match.
	line=$(printf '%s\n' "$rest" | grep -n -E -m1 -- "$re" | cut -d: -f1)
	if [ -n "$line" ]; then
		printf 'ok %d - %s prints /%s/\n' "$n" "$name" "$re"
		rest=$(printf '%s\n' "$rest" | tail -n +"$((line + 1))")
	else
		printf 'not ok %d - %s prints /%s/\n' "$n" "$name" "$re"
		failed=1
	fi
done < "$expect"
echo "1..$n"
exit $failed
