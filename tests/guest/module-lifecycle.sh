#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Loading and unloading vnpu (run by tools/vnpu-vm --no-module): several
# devices, out-of-range parameters, unloading while the device is held, and
# the engine server that vnpu-modload starts and stops with the module (an
# attached server holds the module). Prints TAP.
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

# The pid of the device's attached engine server (debugfs), 0 if none.
engine_pid() {
	for d in /sys/kernel/debug/dri/*; do
		[ -f "$d/streams" ] || continue
		awk '$1 == "engine" { print $2 }' "$d/streams"
		return
	done
	echo 0
}
attaches() {
	for d in /sys/kernel/debug/dri/*; do
		[ -f "$d/streams" ] && awk '$1 == "attaches" { print $2 }' "$d/streams" && return
	done
}
pidfile=/run/vnpu-engined.pid

echo "TAP version 13"
echo "1..11"

"$modload" load "$ko" && loaded && [ "$(render_nodes)" = 1 ] &&
	"$modload" unload vnpu && ! loaded && [ "$(devices)" = 0 ]
result $? "load_default_then_unload"

# load starts the server, attached, with its pidfile; unload stops it first.
"$modload" load "$ko" && pid=$(cat "$pidfile") && [ "$(engine_pid)" = "$pid" ] &&
	kill -0 "$pid" && "$modload" unload vnpu && ! loaded && ! kill -0 "$pid" 2>/dev/null &&
	[ ! -e "$pidfile" ]
result $? "load_starts_the_engine_unload_stops_it"

# An attached server holds the module: a plain rmmod is refused, cleanly.
"$modload" load "$ko" && ! /sbin/rmmod vnpu 2>/dev/null && loaded && [ "$(engine_pid)" != 0 ] &&
	"$modload" engine-stop && [ "$(engine_pid)" = 0 ] && /sbin/rmmod vnpu && ! loaded
result $? "unload_refused_while_engine_attached"

"$modload" load --no-engine "$ko" && [ "$(engine_pid)" = 0 ] && [ ! -e "$pidfile" ] &&
	/sbin/rmmod vnpu && ! loaded
result $? "load_without_engine"

# A killed server is restarted and attaches again (the device counts it).
"$modload" load "$ko" && pid=$(cat "$pidfile") && kill -9 "$pid" &&
	while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done && [ "$(engine_pid)" = 0 ] &&
	"$modload" engine-start && [ "$(engine_pid)" != 0 ] && [ "$(attaches)" = 2 ] &&
	"$modload" unload vnpu && ! loaded
result $? "killed_engine_restarted"

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
