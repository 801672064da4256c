#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Allocation-failure injection (issue 13): run selftests with every Nth
# allocation of the test process failing, through the kernel's failslab
# and fail_page_alloc and the module's own fault injection points, all with
# task-filter on (the harness marks each test's process, VNPU_MAKE_IT_FAIL).
# The tests' own verdicts do not count (their calls fail on purpose); what
# must hold is that every program ends (no hang, no crash of the kernel),
# and that after it the device works as before: the guest runner then scans
# the kernel log (warnings, KASAN, lockdep) and kmemleak after unloading.
# Needs a kernel with CONFIG_FAULT_INJECTION_DEBUG_FS, FAILSLAB and
# FAIL_PAGE_ALLOC (the debug guest kernel); elsewhere it skips. TAP output.
top=$(cd "$(dirname "$0")/../.." && pwd)
dbg=/sys/kernel/debug
intervals=${VNPU_FAIL_INTERVALS:-"3 11 37"}
tests=${VNPU_FAIL_TESTS:-"bo bo_prime streams submit_bad_input sync copy_fill ops pools hazards lifetime"}

if [ ! -d $dbg/failslab ] || [ ! -d $dbg/fail_page_alloc ]; then
	echo "1..0 # SKIP no failslab / fail_page_alloc in this kernel"
	exit 0
fi
card=$(ls -d $dbg/dri/*/fail_bo_alloc 2>/dev/null | head -n1)
card=${card%/fail_bo_alloc}

# set_point DIR INTERVAL: every INTERVAL-th call fails (0: none)
set_point() {
	if [ "$2" = 0 ]; then
		echo 0 > "$1/probability"
		return
	fi
	echo 1 > "$1/task-filter"
	echo 0 > "$1/verbose"
	echo 0 > "$1/space"
	echo -1 > "$1/times"
	echo "$2" > "$1/interval"
	echo 100 > "$1/probability"
}

set_all() {
	set_point $dbg/failslab "$1"
	set_point $dbg/fail_page_alloc "$1"
	if [ -n "$card" ]; then
		set_point "$card/fail_bo_alloc" "$1"
		set_point "$card/fail_job" "$1"
	fi
}

echo N > $dbg/failslab/ignore-gfp-wait
echo N > $dbg/fail_page_alloc/ignore-gfp-wait
echo N > $dbg/fail_page_alloc/ignore-gfp-highmem
echo 0 > $dbg/fail_page_alloc/min-order

n=0
fail=0
count=0
for i in $intervals; do
	for t in $tests; do
		count=$((count + 1))
	done
done
echo "1..$((count + 1))"
for i in $intervals; do
	for t in $tests; do
		n=$((n + 1))
		set_all "$i"
		VNPU_MAKE_IT_FAIL=1 KSFT_TAP_LEVEL=1 timeout -k 10 600 \
			"$top/build/selftests/$t" > /tmp/alloc-failures.out 2>&1
		status=$?
		set_all 0
		if [ "$status" -ge 124 ] && [ "$status" -le 137 ] && [ "$status" != 126 ]; then
			echo "not ok $n $t, every ${i}th allocation failing: exit $status (hung or killed)"
			tail -n 20 /tmp/alloc-failures.out | sed 's/^/#   /'
			fail=1
		else
			echo "ok $n $t, every ${i}th allocation failing: ended (exit $status)"
		fi
	done
done
# Afterwards, with nothing failing, the device works as before.
n=$((n + 1))
if "$top/build/selftests/drm_basic" > /tmp/alloc-failures.out 2>&1 &&
   "$top/build/selftests/streams" > /tmp/alloc-failures.out 2>&1; then
	echo "ok $n drm_basic and streams pass afterwards"
else
	echo "not ok $n drm_basic and streams pass afterwards"
	tail -n 20 /tmp/alloc-failures.out | sed 's/^/#   /'
	fail=1
fi
exit $fail
