#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The fuzzer's self-test (in the guest, on a vnpu device): for every rule
# --plant accepts, a run that feeds that rule a wrong answer must exit 1 and
# name the rule in a VIOLATION line. TAP output.
#
# usage: check-plant.sh [FUZZER]
fuzz=${1:-build/fuzz/vnpu-fuzz}
rules=$("$fuzz" --plant list) || { echo "not ok 1 - $fuzz --plant list"; exit 1; }
n=$(echo "$rules" | wc -l)
# An unknown rule is a usage error, not a pass.
echo "1..$((n + 1))"
i=0
failed=0
for rule in $rules; do
	i=$((i + 1))
	out=$("$fuzz" --plant "$rule" --seed 1 --ops 400 --procs 1 --threads 1 2>&1)
	st=$?
	if [ "$st" -eq 1 ] && echo "$out" | grep -q "^VIOLATION rule=$rule "; then
		echo "ok $i - planted $rule: exit 1, rule named"
	else
		echo "not ok $i - planted $rule: exit $st"
		echo "$out" | tail -n 5 | sed 's/^/# /'
		failed=1
	fi
done
i=$((i + 1))
"$fuzz" --plant no_such_rule --ops 1 > /dev/null 2>&1
st=$?
if [ "$st" -eq 2 ]; then
	echo "ok $i - unknown rule refused (exit 2)"
else
	echo "not ok $i - unknown rule: exit $st"
	failed=1
fi
exit $failed
