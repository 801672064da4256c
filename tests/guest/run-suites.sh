#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of tests/check.sh: run each named suite of tests/suites.conf
# and keep its output and status in OUTDIR.
#
# usage: run-suites.sh OUTDIR SUITE...
out=$1
shift
for suite in "$@"; do
	cmd=$(awk -F'|' -v s="$suite" '
		/^[ \t]*#/ || NF < 3 { next }
		{ gsub(/^[ \t]+|[ \t]+$/, "", $1); gsub(/^[ \t]+|[ \t]+$/, "", $3) }
		$1 == s { print $3; exit }' tests/suites.conf)
	start=$(date +%s)
	# shellcheck disable=SC2086 # the command is a word list
	VNPU_TEST_TIMEOUT_SCALE=${VNPU_TEST_TIMEOUT_SCALE:-4} $cmd > "$out/$suite.tap" 2>&1
	status=$?
	echo "$status" > "$out/$suite.status"
	echo "  suite $suite: exit $status ($(( $(date +%s) - start ))s)"
done
