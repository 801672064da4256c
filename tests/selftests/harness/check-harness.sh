#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds selftest_harness.c twice (plain, and with ASan+UBSan) into a temp
# dir and checks that harness.h produces exactly the TAP, diagnostics, exit
# codes and timing we expect.  Prints "PASS: harness self-test" and exits 0,
# or lists every mismatch and exits 1.
#
# Usage: [CC=cc] tests/selftests/harness/check-harness.sh
set -u

here=$(cd "$(dirname "$0")" && pwd)
cc=${CC:-gcc}
cflags=(-std=gnu11 -Wall -Wextra -Werror -O2)
sanflags=('-fsanitize=address,undefined' -fno-sanitize-recover=undefined)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# Let global.crash die by a real SIGSEGV in the sanitized build too.
export ASAN_OPTIONS=handle_segv=0

# Every test of selftest_harness.c in source order, with its TAP result.
expected_results=$(cat <<'EOF'
ok	global.pass_all_macros
not ok	global.expect_all_fail
not ok	global.assert_stops
ok	global.skipped # SKIP no device here
not ok	global.crash
ok	global.dies_by_signal
not ok	global.signal_missing
not ok	global.timeout # TIMEOUT
not ok	global.errno_wrong
not ok	global.errno_no_failure
not ok	global.exits_early
not ok	global.assert_in_forked_child
ok	fx.one.passes
ok	fx.two.passes
not ok	fx.one.assert_then_teardown
not ok	fx.two.assert_then_teardown
ok	plain.no_variant
ok	plain.custom_timeout
ok	plain.dies
not ok	setup_asserts.body
ok	setup_skips.body # SKIP setup skips
not ok	teardown_asserts.body
EOF
)

# What fixture code wrote to $HARNESS_MARKER: teardown after a failed ASSERT
# in the body, none after a failed ASSERT in setup or death by signal, no
# body after SKIP in setup, nothing after an ASSERT in teardown.
expected_marker=$(cat <<'EOF'
teardown fx.one.passes
teardown fx.two.passes
teardown fx.one.assert_then_teardown
teardown fx.two.assert_then_teardown
teardown plain.no_variant
teardown plain.custom_timeout
teardown setup_skips.body
body teardown_asserts.body
EOF
)

ntests=$(printf '%s\n' "$expected_results" | wc -l)
npass=$(printf '%s\n' "$expected_results" | grep -Ec '^ok	[^ ]+$')
nskip=$(printf '%s\n' "$expected_results" | grep -c '# SKIP')
nfail=$(printf '%s\n' "$expected_results" | grep -c '^not ok')
names=$(printf '%s\n' "$expected_results" | cut -f2 | cut -d' ' -f1)

# "9 (Bad file descriptor)": an errno as the harness prints it on this libc
errno_text() {
	cat >"$tmp/errno.c" <<EOF
#include <errno.h>
#include <stdio.h>
#include <string.h>
int main(void) { printf("%d (%s)", $1, strerror($1)); return 0; }
EOF
	"$cc" -o "$tmp/errno" "$tmp/errno.c" && "$tmp/errno"
}
ebadf=$(errno_text EBADF)
einval=$(errno_text EINVAL)

label=
problems=0
problem() {
	echo "MISMATCH [$label]: $*"
	problems=$((problems + 1))
}

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# run OUTNAME ARGS...: runs the binary, sets $rc and $elapsed_ms.
run() {
	local out=$1 start
	shift
	start=$(now_ms)
	env -u VNPU_TEST_TIMEOUT_SCALE "$@" >"$tmp/$out.out" 2>"$tmp/$out.err"
	rc=$?
	elapsed_ms=$(($(now_ms) - start))
}

# took_about MS WHAT: the last run was killed on time, give or take startup
took_about() {
	if [ "$elapsed_ms" -lt $(($1 - 100)) ] || [ "$elapsed_ms" -ge $(($1 + 2000)) ]; then
		problem "$2 took ${elapsed_ms} ms, expected about $1"
	fi
}
want_rc() { [ "$rc" -eq "$1" ] || problem "$2: exit code $rc, expected $1"; }
has() { grep -qF -- "$2" "$tmp/$1.out" || problem "$1: missing line: $2"; }
lacks() { ! grep -qF -- "$2" "$tmp/$1.out" || problem "$1: unexpected: $2"; }
no_stderr() {
	[ ! -s "$tmp/$1.err" ] || problem "$1: stderr not empty:$(printf '\n'; head -20 "$tmp/$1.err")"
}
# same FILE WANT: compare text, show a diff on mismatch
same() {
	local d
	d=$(diff <(printf '%s\n' "$2") "$1") || problem "$(basename "$1") differs (< expected, > actual):
$d"
}

check_binary() {
	local bin=$1 t

	# --- full run ---
	rm -f "$tmp/marker"
	run full env HARNESS_MARKER="$tmp/marker" "$bin"
	want_rc 1 "full run"
	no_stderr full
	[ "$(sed -n 1p "$tmp/full.out")" = "TAP version 13" ] || problem "first line is not 'TAP version 13'"
	[ "$(sed -n 2p "$tmp/full.out")" = "1..$ntests" ] || problem "second line is not the plan 1..$ntests"
	sed -nE 's/^(ok|not ok) [0-9]+ (.*)$/\1\t\2/p' "$tmp/full.out" >"$tmp/results"
	same "$tmp/results" "$expected_results"
	sed -nE 's/^(ok|not ok) ([0-9]+) .*/\2/p' "$tmp/full.out" >"$tmp/numbers"
	same "$tmp/numbers" "$(seq 1 "$ntests")"
	[ "$(grep -c '^# RUN .* \.\.\.$' "$tmp/full.out")" -eq "$ntests" ] || problem "not one '# RUN' line per test"
	has full "# FAILED: $npass / $ntests tests passed."
	[ "$(tail -n1 "$tmp/full.out")" = "# Totals: pass:$npass fail:$nfail xfail:0 xpass:0 skip:$nskip error:0" ] ||
		problem "last line is not the expected totals: $(tail -n1 "$tmp/full.out")"
	# each diagnostic or result line is TAP: a result, a plan, or '#'
	t=$(grep -vE '^(TAP version 13|1\.\.[0-9]+|(not )?ok [0-9]+ .*|#.*)$' "$tmp/full.out")
	[ -z "$t" ] || problem "non-TAP output lines: $t"

	# failure messages name file:line, the expression and both values
	[ "$(grep -cE '^# selftest_harness\.c:[0-9]+:global\.expect_all_fail: EXPECT_[A-Z]+\(.*\) failed: ' "$tmp/full.out")" -eq 14 ] ||
		problem "expect_all_fail: expected 14 failed EXPECT_* lines"
	has full "global.expect_all_fail: EXPECT_EQ(1, two) failed: 1 vs 2"
	has full "global.expect_all_fail: EXPECT_LT(1u, -1) failed: 1 vs -1"
	has full 'global.expect_all_fail: EXPECT_STREQ("npu", s) failed: "npu" vs "vnpu"'
	has full "global.expect_all_fail: EXPECT_NONNULL(NULL) failed: value 0"
	has full "global.expect_all_fail: expect-log 42"
	has full "global.expect_all_fail: reached the end after 14 failed EXPECTs"
	has full "global.assert_stops: ASSERT_EQ(1, two) failed: 1 vs 2"
	has full "global.assert_stops: assert-log two=2"
	lacks full "UNREACHED"
	lacks full "LOG-ON-PASS"
	has full "# global.crash: terminated by SIGSEGV (signal 11)"
	has full "# global.signal_missing: returned, but was expected to die by SIGABRT"
	has full "# TIMEOUT global.timeout: no result after 1.0 s (1 s x scale 1), killed"
	has full "EXPECT_ERRNO(EINVAL, close(-1)) failed: returned -1, errno $ebadf; wanted -1, errno $einval"
	has full "ASSERT_ERRNO(ENOENT, access(\"/\", F_OK)) failed: returned 0, errno 0"
	has full "# global.exits_early: exited with status 0 before the harness finished it"
	has full "global.assert_in_forked_child: ASSERT_EQ(0, 1) failed: 0 vs 1"
	has full "global.assert_in_forked_child: helper process fails"
	has full "global.assert_in_forked_child: test process continues after its helper failed"
	has full "fx.one.assert_then_teardown: teardown ran for fx.one.assert_then_teardown"
	has full "fx.two.assert_then_teardown: teardown ran for fx.two.assert_then_teardown"
	touch "$tmp/marker"
	same "$tmp/marker" "$expected_marker"
	# a 1 s timeout on a test that sleeps 5 s: the whole run stays short
	[ "$elapsed_ms" -lt 4000 ] || problem "full run took ${elapsed_ms} ms; the 1 s timeout did not cut the 5 s sleep"

	# --- timeouts, default and scaled ---
	run timeout "$bin" -t timeout
	want_rc 1 "-t timeout"
	has timeout "not ok 1 global.timeout # TIMEOUT"
	took_about 1000 "-t timeout"
	run scaled env VNPU_TEST_TIMEOUT_SCALE=2.5 "$bin" -t timeout
	want_rc 1 "scale 2.5"
	has scaled "# TIMEOUT global.timeout: no result after 2.5 s (1 s x scale 2.5), killed"
	took_about 2500 "scale 2.5"
	run badscale env VNPU_TEST_TIMEOUT_SCALE=fast "$bin"
	want_rc 1 "invalid VNPU_TEST_TIMEOUT_SCALE"
	[ ! -s "$tmp/badscale.out" ] || problem "invalid VNPU_TEST_TIMEOUT_SCALE still ran tests"

	# --- command line ---
	run list "$bin" -l
	want_rc 0 "-l"
	same "$tmp/list.out" "$names"
	no_stderr list

	run one "$bin" -t pass_all_macros
	want_rc 0 "-t pass_all_macros"
	same "$tmp/one.out" "TAP version 13
1..1
# RUN global.pass_all_macros ...
ok 1 global.pass_all_macros
# PASSED: 1 / 1 tests passed.
# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0 error:0"
	no_stderr one

	for t in passes fx.passes; do
		run variants "$bin" -t "$t"
		want_rc 0 "-t $t"
		sed -nE 's/^(ok|not ok) [0-9]+ (.*)$/\1 \2/p' "$tmp/variants.out" >"$tmp/variants.res"
		same "$tmp/variants.res" "ok fx.one.passes
ok fx.two.passes"
	done
	run fullname "$bin" -t fx.two.passes -t plain.dies
	want_rc 0 "-t fx.two.passes -t plain.dies"
	has fullname "1..2"
	has fullname "ok 1 fx.two.passes"
	has fullname "ok 2 plain.dies"

	run skiponly "$bin" -t skipped
	want_rc 4 "-t skipped (everything skipped)"
	has skiponly "ok 1 global.skipped # SKIP no device here"
	has skiponly "# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:1 error:0"

	run nomatch "$bin" -t no_such_test
	want_rc 1 "-t no_such_test"
	grep -qF "no test matches 'no_such_test'" "$tmp/nomatch.err" || problem "-t no_such_test: no error message"
	run badopt "$bin" -x
	want_rc 1 "-x"
	grep -q '^usage:' "$tmp/badopt.err" || problem "-x: no usage on stderr"
	run stray "$bin" stray-argument
	want_rc 1 "stray argument"
	run help "$bin" -h
	want_rc 0 "-h"
	grep -q '^usage:' "$tmp/help.out" || problem "-h: no usage on stdout"
}

for build in plain sanitized; do
	label=$build
	flags=("${cflags[@]}")
	[ "$build" = sanitized ] && flags+=("${sanflags[@]}")
	if ! "$cc" "${flags[@]}" -o "$tmp/selftest_harness.$build" "$here/selftest_harness.c" 2>"$tmp/build.err"; then
		problem "build failed: $cc ${flags[*]}"
		cat "$tmp/build.err"
		continue
	fi
	[ ! -s "$tmp/build.err" ] || problem "build warnings: $(cat "$tmp/build.err")"
	before=$problems
	check_binary "$tmp/selftest_harness.$build"
	if [ "$problems" -ne "$before" ]; then
		echo "---- output of the full $build run ----"
		cat "$tmp/full.out"
	fi
done

if [ "$problems" -ne 0 ]; then
	echo "FAIL: harness self-test ($problems mismatches)"
	exit 1
fi
echo "PASS: harness self-test"
