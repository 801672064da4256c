#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench: run every benchmark in one guest boot, then report medians,
# p99s and the ratios of tests/bench/ratios.conf (table + JSON file).
# Benchmarks never fail on a time figure; they fail only if they crash.
# With --smoke, run each benchmark with its smallest settings (make check),
# into build/bench-smoke so that a full run's build/bench-results stays, and
# fail if any ratio of ratios.conf could not be computed (a figure went
# missing).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
case "${1:-}" in
"") mode=full out=$top/build/bench-results require= ;;
--smoke) mode=smoke out=$top/build/bench-smoke require=--require-all ;;
*) echo "usage: tests/bench/run.sh [--smoke]" >&2; exit 2 ;;
esac
rm -rf "$out"
mkdir -p "$out"

# Without slub_debug: it makes one-task jobs several times slower while
# leaving system calls alone, so job figures would mostly measure it.
tools/vnpu-vm -D -w "$out" -- tests/bench/guest-run.sh "$out" "$mode"
python3 tests/bench/report.py $require "$out" tests/bench/ratios.conf
