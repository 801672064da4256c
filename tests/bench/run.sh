#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench (interim): run every build/bench/* program in one guest boot,
# each printing its own table and one JSON line. Baselines (the no-op
# ioctl) are measured inside each program, in the same boot.
#
# usage: tests/bench/run.sh [ARGS for every benchmark, e.g. -q]
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
# shellcheck disable=SC2016 # expanded in the guest
exec tools/vnpu-vm -- sh -c '
status=0
for b in build/bench/*; do
	[ -x "$b" ] || continue
	echo "== $b"
	"$b" "$@" || status=1
done
exit $status' bench "$@"
