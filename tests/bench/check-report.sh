#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# report.py --require-all (run.sh --smoke) fails, naming the ratio and the
# figure it lacks, when a ratio of the conf file cannot be computed; and
# passes when every one can. Host only, TAP output.
top=$(cd "$(dirname "$0")/../.." && pwd)
report=$top/tests/bench/report.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

ok() {
	if [ "$1" = 0 ]; then
		echo "ok $2 $3"
	else
		echo "not ok $2 $3"
		sed 's/^/#   /' "$tmp/out"
		fail=1
	fi
}

cat > "$tmp/ratios.conf" <<'CONF'
# NAME | NUMERATOR | DENOMINATOR | good
a/b | fig_a | fig_b | ~1
c/b | fig_c | fig_b | ~1
CONF
mkdir "$tmp/run"
cat > "$tmp/run/bench_x.log" <<'LOG'
BENCH {"name":"fig_a","unit":"ns","median":2.000,"p99":3.000,"n":5}
BENCH {"name":"fig_b","unit":"ns","median":1.000,"p99":1.000,"n":5}
BENCH {"name":"fig_c","unit":"ns","median":4.000,"p99":4.000,"n":5,"size":128}
LOG

echo "1..4"
python3 "$report" --require-all "$tmp/run" "$tmp/ratios.conf" > "$tmp/out" 2>&1
ok $? 1 "--require-all passes when every ratio computes"

grep -q '^fig_c .* 128  ns$' "$tmp/out"
ok $? 2 "the figure table shows the size measured"

grep -v fig_c "$tmp/run/bench_x.log" > "$tmp/log" && mv "$tmp/log" "$tmp/run/bench_x.log"
python3 "$report" --require-all "$tmp/run" "$tmp/ratios.conf" > "$tmp/out" 2>&1
status=$?
[ "$status" = 1 ] && grep -q '^  c/b: no fig_c$' "$tmp/out" &&
	grep -q 'could not be computed: c/b$' "$tmp/out"
ok $? 3 "--require-all fails and lists the ratio and the missing figure (exit $status)"

python3 "$report" "$tmp/run" "$tmp/ratios.conf" > "$tmp/out" 2>&1
ok $? 4 "without --require-all a missing figure only leaves its ratio out"
exit $fail
