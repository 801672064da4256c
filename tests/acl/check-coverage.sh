#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The README's API coverage table lists every function the public headers declare
# (include/acl, include/aclnn, include/aclnnop),
# exactly once; the ones marked "implemented" are exported by the library
# (libascendcl.so.1, libnnopbase.so.1, libopapi.so.1) and the ones marked "not yet"
# are not. TAP output.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
readme=$top/README.md
lib=$top/build/lib/libascendcl.so.1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Declared: the name before "(" on each ACL_FUNC_VISIBILITY line (ACL and
# aclnn's objects) and each ACLNN_API line (aclnn's operators).
grep -h -E "^(ACL_FUNC_VISIBILITY|ACLNN_API) " "$top"/include/acl/*.h "$top"/include/aclnn/*.h \
	"$top"/include/aclnnop/*.h |
	sed -E 's/\(.*//; s/.*[ *]([A-Za-z_][A-Za-z0-9_]*)$/\1/' | sort -u > "$tmp/declared"
# Exported functions of the three libraries (the private interfaces between
# them, vnpu_rt_*, nn_* and vops_*, are not the API).
for l in "$lib" "$top/build/lib/libnnopbase.so.1" "$top/build/lib/libopapi.so.1"; do
	nm -D --defined-only "$l" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }'
done | grep -v -E '^(vnpu_rt_|nn_|vops_)' | sort -u > "$tmp/exported"
# The table rows of the "API coverage" section: | `name` | status | notes |
awk '/^## / { in_table = ($0 == "## API coverage") } in_table' "$readme" |
	grep -E '^\| `[A-Za-z0-9_]+` \|' | sed -E 's/^\| `([^`]*)` \| ([^|]*) \|.*/\1 \2/; s/ +$//' > "$tmp/rows"
awk '{ print $1 }' "$tmp/rows" | sort > "$tmp/listed"

n=0
fail=0
check() {
	n=$((n + 1))
	if [ -s "$2" ]; then
		echo "not ok $n - $1"
		sed 's/^/#   /' "$2"
		fail=1
	else
		echo "ok $n - $1"
	fi
}

comm -23 "$tmp/declared" "$tmp/listed" > "$tmp/a"
check "every declared function is in the table" "$tmp/a"
comm -13 "$tmp/declared" "$tmp/listed" | sort -u > "$tmp/b"
check "the table lists only declared functions" "$tmp/b"
uniq -d "$tmp/listed" > "$tmp/c"
check "no function is listed twice" "$tmp/c"
awk '$2 != "implemented" && !($2 == "not" && $3 == "yet") { print }' "$tmp/rows" > "$tmp/d"
check "every status is \"implemented\" or \"not yet\"" "$tmp/d"
awk '$2 == "implemented" { print $1 }' "$tmp/rows" | sort > "$tmp/impl"
comm -23 "$tmp/impl" "$tmp/exported" > "$tmp/e"
check "every implemented function is exported" "$tmp/e"
comm -13 "$tmp/impl" "$tmp/exported" > "$tmp/f"
check "every exported function is marked implemented" "$tmp/f"
[ "$(wc -l < "$tmp/declared")" -gt 90 ] || echo "x" > "$tmp/g"
touch "$tmp/g"
check "the headers declare the whole API" "$tmp/g"
# The allocator family and what consumes it (issue 7) are all there.
grep -E '^(aclrtAllocator|aclop|aclCreateDataBuffer|aclCreateTensorDesc)' "$tmp/declared" > "$tmp/core"
[ "$(wc -l < "$tmp/core")" -ge 25 ] || echo "too few allocator and operator functions declared" > "$tmp/h"
comm -23 "$tmp/core" "$tmp/impl" >> "$tmp/h"
check "the allocator family and single operators are implemented" "$tmp/h"
echo "1..$n"
exit $fail
