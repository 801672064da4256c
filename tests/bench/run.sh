#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench: run every benchmark in one guest boot, then report medians,
# p99s and the ratios of tests/bench/ratios.conf (table + JSON file).
# Benchmarks never fail on a time figure; they fail only if they crash.
# With --smoke, run each benchmark with its smallest settings (make check).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
out=$top/build/bench-results
rm -rf "$out"
mkdir -p "$out"
mode=${1:-full}

tools/vnpu-vm -w "$out" -- tests/bench/guest-run.sh "$out" "$mode"
python3 tests/bench/report.py "$out" tests/bench/ratios.conf
