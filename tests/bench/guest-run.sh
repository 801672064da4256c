#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of tests/bench/run.sh: record the guest's configuration and run
# every build/bench/bench_* program, keeping their BENCH lines.
# usage: guest-run.sh OUT_DIR smoke|full
out=$1
mode=$2
{
	echo "kernel=$(uname -r)"
	echo "cpus=$(nproc)"
	echo "mem_kib=$(awk '/MemTotal/ { print $2 }' /proc/meminfo)"
	echo "cpu_model=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
	echo "mode=$mode"
	for p in /sys/module/vnpu/parameters/*; do
		echo "vnpu.$(basename "$p")=$(cat "$p")"
	done
} > "$out/config"
status=0
for b in build/bench/bench_*; do
	[ -x "$b" ] || continue
	echo "bench: $(basename "$b")"
	VNPU_BENCH_MODE=$mode "$b" > "$out/$(basename "$b").log" 2>&1 || {
		echo "bench: $(basename "$b") failed"
		tail -n 20 "$out/$(basename "$b").log"
		status=1
	}
done
exit $status
