#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Loading and unloading vnpu (run by tools/vnpu-vm --no-module): several
# devices, out-of-range parameters, and unloading while the device is held.
# Prints TAP.
top=$(cd "$(dirname "$0")/../.." && pwd)
modload=$top/build/tools/vnpu-modload
ko=$top/build/vnpu.ko

n=0
failures=0
result() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		failures=$((failures + 1))
	fi
}

loaded() { [ -d /sys/module/vnpu ]; }
devices() { ls /sys/bus/platform/devices 2>/dev/null | grep -c '^vnpu\.'; }
render_nodes() {
	c=0
	for d in /sys/class/drm/renderD*; do
		case "$(readlink "$d/device")" in *vnpu.*) c=$((c + 1)) ;; esac
	done
	echo "$c"
}

echo "TAP version 13"
echo "1..7"

"$modload" load "$ko" && loaded && [ "$(render_nodes)" = 1 ] &&
	"$modload" unload vnpu && ! loaded && [ "$(devices)" = 0 ]
result $? "load_default_then_unload"

"$modload" load "$ko" devices=4 && [ "$(devices)" = 4 ] && [ "$(render_nodes)" = 4 ] &&
	"$modload" unload vnpu && [ "$(devices)" = 0 ]
result $? "four_devices_appear_and_go"

ok=0
for p in devices=0 devices=9 engines=0 engines=17 mem_mib=0 mem_mib=65537 \
	max_streams=0 max_streams=65537 max_streams_per_file=0 max_streams_per_file=65537 \
	max_jobs_per_file=0 max_jobs_per_file=32769; do
	if "$modload" load "$ko" "$p" 2>/dev/null || loaded; then
		echo "# $p was accepted"
		ok=1
		"$modload" unload vnpu
	fi
done
result $ok "out_of_range_parameters_rejected"

"$modload" load "$ko" && ! echo 0 > /sys/module/vnpu/parameters/job_timeout_ms 2>/dev/null &&
	echo 250 > /sys/module/vnpu/parameters/job_timeout_ms &&
	[ "$(cat /sys/module/vnpu/parameters/job_timeout_ms)" = 250 ] && "$modload" unload vnpu
result $? "job_timeout_writable_and_bounded"

"$modload" load "$ko"
node=$(ls /dev/dri/renderD* | head -n 1)
sh -c "exec 3<>$node; exec sleep 60" &
holder=$!
sleep 1
# The open file pins the module: unloading must fail, cleanly.
if "$modload" unload vnpu 2>/dev/null; then busy=1; else busy=0; fi
loaded && [ "$busy" = 0 ]
result $? "unload_refused_while_node_open"
kill "$holder"
wait "$holder" 2>/dev/null
"$modload" unload vnpu && ! loaded
result $? "unload_after_holder_exits"

ok=0
for i in 1 2 3 4 5; do
	"$modload" load "$ko" devices=2 && "$modload" unload vnpu || ok=1
done
result $ok "load_unload_five_times"

[ "$failures" = 0 ]
