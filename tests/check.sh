#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: host checks, host unit tests, then every guest suite of
# tests/suites.conf through tools/vnpu-vm. Prints each suite's result and,
# last, "N passed, N failed" counting individual test cases.
#
# usage: check.sh [--guest-only]
#   --guest-only  only the guest runner's checks and the guest suites
#                 (make check-debug: tools/debug-kernel/check-debug).
# The guest kernel and module are tools/vnpu-vm's: VNPU_VM_KERNEL_IMAGE and
# VNPU_VM_MODULE in the environment select them for every boot. Results go
# to $VNPU_CHECK_RESULTS (default build/check).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
guest_only=0
case "${1:-}" in
--guest-only) guest_only=1 ;;
"") ;;
*) echo "usage: $0 [--guest-only]" >&2; exit 2 ;;
esac
results=${VNPU_CHECK_RESULTS:-$top/build/check}
rm -rf "$results"
mkdir -p "$results"

passed=0
failed=0
failed_suites=

# Count TAP results of a file; a suite that printed none counts as one case.
tally() {
	local name=$1 file=$2 status=$3 ok notok
	ok=$(grep -cE '^ok ' "$file" || true)
	notok=$(grep -cE '^not ok ' "$file" || true)
	if [ "$ok" -eq 0 ] && [ "$notok" -eq 0 ]; then
		if [ "$status" -eq 0 ]; then ok=1; else notok=1; fi
	elif [ "$status" -ne 0 ] && [ "$notok" -eq 0 ]; then
		notok=1
	fi
	passed=$((passed + ok))
	failed=$((failed + notok))
	if [ "$status" -eq 0 ] && [ "$notok" -eq 0 ]; then
		printf 'PASS  %-28s %4d passed\n' "$name" "$ok"
	else
		printf 'FAIL  %-28s %4d passed, %d failed (exit %d)\n' "$name" "$ok" "$notok" "$status"
		grep -E '^not ok |^# .*(FAIL|fail|Assertion|expected)|^# [A-Za-z0-9_.-]+\.c:[0-9]+:|TIMEOUT' "$file" | head -n 40 | sed 's/^/      /'
		failed_suites="$failed_suites $name"
	fi
}

# Run a host command as a suite.
host_suite() {
	local name=$1
	shift
	"$@" > "$results/$name.tap" 2>&1
	tally "$name" "$results/$name.tap" $?
}

if [ "$guest_only" = 0 ]; then
echo "== host"
host_suite headers tests/headers/check.sh
host_suite harness tests/selftests/harness/check-harness.sh
host_suite sparse make --no-print-directory sparse
host_suite kernel_doc make --no-print-directory kernel-doc
host_suite bench_readme tests/bench/check-readme.sh
host_suite bench_report tests/bench/check-report.sh
# ONNX's node tests through lib/ops on the host (ASan and UBSan).
host_suite onnx_nodes tests/onnx/run-node-tests.sh --mutate 300
host_suite ops_readme tests/onnx/check-readme-ops.sh
host_suite onnx_models tests/onnx/run-model-tests.sh
host_suite atc_cli tests/atc/check-cli.sh
for t in build/unit/test_*; do
	[ -x "$t" ] || continue
	name=unit/$(basename "$t")
	CK_TAP_LOG_FILE_NAME="$results/$(basename "$t").ck.tap" "$t" > "$results/$(basename "$t").log" 2>&1
	status=$?
	cat "$results/$(basename "$t").ck.tap" >> "$results/$(basename "$t").log" 2>/dev/null
	tally "$name" "$results/$(basename "$t").log" $status
done
fi

echo "== guest runner"
# Run the runner and expect one exit status: vm_expect NAME STATUS ARGS...
vm_expect() {
	local name=$1 want=$2 st
	shift 2
	tools/vnpu-vm "$@" > "$results/vm-$name.log" 2>&1
	st=$?
	echo "exit status $st, expected $want" >> "$results/vm-$name.log"
	[ "$st" -eq "$want" ]
	tally "vm/$name" "$results/vm-$name.log" $?
}
# The command's status comes back; the time to it is shown, not judged.
start=$(date +%s%N)
vm_expect command-status-propagates 1 -n -- false
echo "      (a boot without the module took $((($(date +%s%N) - start) / 1000000)) ms)"
# The kernel complained, or its log lost this run's start: the run fails.
vm_expect kmsg-warning-fails-run 125 -- sh -c 'echo "WARNING: kmsg scanner self-test" > /dev/kmsg'
vm_expect kmsg-lost-start-fails-run 125 -n -- dmesg -C
# A module that will not load fails the run with 126.
vm_expect module-load-failure 126 -p devices=99 -- true
# -s and -m shape the guest; -t stops a command that runs too long.
vm_expect options-and-time-limit 124 -n -s 1 -m 512 -t 5 -- sh -c \
	'[ "$(nproc)" = 1 ] && [ "$(awk "/MemTotal/ { print \$2 }" /proc/meminfo)" -lt 524288 ] || exit 3; sleep 60'
# Under a debug kernel (make check-debug): a module load and unload leave
# nothing in its log, and its reports fail the run: KASAN's (its test
# module), and a kmemleak entry after the command (its leaking sample).
if [ -n "${VNPU_VM_KERNEL_IMAGE:-}" ]; then
	kdir=$(cd "$(dirname "$VNPU_VM_KERNEL_IMAGE")/../../.." && pwd)
	vm_expect debug-load-unload-clean 0 -- true
	# The test module's init fails on purpose once it has made its reports.
	vm_expect debug-kasan-report-fails-run 125 -n -- sh -c \
		'/sbin/insmod "$1"; true' sh "$kdir/mm/kasan/kasan_test_module.ko"
	vm_expect debug-kmemleak-entry-fails-run 125 -n -- /sbin/insmod "$kdir/samples/kmemleak/kmemleak-test.ko"
fi

echo "== guest suites"
# Group suites by their vnpu-vm options, keeping the file's order.
groups=$(awk -F'|' '/^[ \t]*#/ || NF < 3 { next }
	{ gsub(/^[ \t]+|[ \t]+$/, "", $1); gsub(/^[ \t]+|[ \t]+$/, "", $2)
	  if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 }
	  members[$2] = members[$2] " " $1 }
	END { for (i = 1; i <= n; i++) print order[i] "|" members[order[i]] }' tests/suites.conf)
while IFS='|' read -r opts suites; do
	vmopts=()
	[ "$opts" != "-" ] && read -r -a vmopts <<< "$opts"
	echo "  boot: ${opts} ->${suites}"
	# shellcheck disable=SC2086 # suite names are words
	boot_n=$((${boot_n:-0} + 1))
	VNPU_VM_CONSOLE="$results/console-$boot_n.log" \
		tools/vnpu-vm "${vmopts[@]+"${vmopts[@]}"}" -w "$results" -- \
		tests/guest/run-suites.sh "$results" $suites > "$results/boot.log" 2>&1
	boot_status=$?
	sed 's/^/    /' "$results/boot.log" | grep -v '^    $' | grep -E 'suite |vnpu-vm' || true
	for s in $suites; do
		if [ -f "$results/$s.status" ]; then
			st=$(cat "$results/$s.status")
			# A kernel problem or a failed unload fails every suite of the boot.
			if [ "$boot_status" -ge 124 ] && [ "$st" -eq 0 ]; then st=$boot_status; fi
			tally "$s" "$results/$s.tap" "$st"
		else
			echo "no result" > "$results/$s.tap"
			tally "$s" "$results/$s.tap" 127
		fi
	done
	if [ "$boot_status" -ge 124 ]; then
		sed 's/^/      /' "$results/boot.log" | tail -n 60
		echo "      (the boot's kernel log: $results/console-$boot_n.log)"
	fi
done <<< "$groups"

if [ "$guest_only" = 0 ]; then
echo "== benchmarks (smoke: they must run; no time figure can fail)"
host_suite bench_smoke tests/bench/run.sh --smoke
fi

echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
