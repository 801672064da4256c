#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tools/vnpu-ri2dot on a sample of aclmdlRIDebugJsonPrint's output
# (ri-sample.json, the format of docs/capture.md): one cluster per stream,
# a node per task, stream edges plain and event edges marked. TAP output.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$("$top/tools/vnpu-ri2dot" "$top/tests/capture/ri-sample.json")
rc=$?
n=0
fail=0
check() {
	n=$((n + 1))
	if printf '%s\n' "$out" | grep -qF -- "$2"; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1 (no line with: $2)"
		fail=1
	fi
}
n=$((n + 1))
if [ "$rc" -eq 0 ]; then echo "ok $n - converts"; else echo "not ok $n - converts (status $rc)"; fail=1; fi
check "a digraph named after the instance" 'digraph "ri3 two \"streams\"" {'
check "one cluster per stream" 'subgraph cluster_s1 {'
check "a node per task" 't0 [label="0: KERNEL\nop"];'
check "disabled tasks dashed" 't3 [label="3: KERNEL\nop", style=dashed];'
check "stream order edges" 't2 -> t3;'
check "event edges marked" 't1 -> t2 [color=red, style=bold];'
n=$((n + 1))
if printf '{' | "$top/tools/vnpu-ri2dot" >/dev/null 2>&1; then
	echo "not ok $n - bad JSON fails"; fail=1
else
	echo "ok $n - bad JSON fails"
fi
echo "1..$n"
exit $fail
