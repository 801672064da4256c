#!/bin/sh
# SPDX-License-Identifier: MIT
#
# make install into a staging directory, then build a CANN-style program
# against the installed tree with pkg-config alone and run it. TAP output.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
n=0
fail=0
ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fail=1; fi
}

# Install what "make" built; remake nothing (the tree may be read-only).
keep=""
for f in libascendcl.so.1 libascendcl.so ascendcl.pc libnnopbase.so.1 libnnopbase.so libopapi.so.1 libopapi.so \
	nnopbase.pc opapi.pc aclnn-headers.stamp; do
	keep="$keep -o $top/build/lib/$f"
done
# shellcheck disable=SC2086 # $keep is words
make -s -C "$top" $keep -o "$top/build/vnpu.ko" -o "$top/build/tools/vnpu-engined" \
	install DESTDIR="$stage" PREFIX=/usr > "$stage.log" 2>&1
ok $? "make install DESTDIR=... PREFIX=/usr"
sed 's/^/# /' "$stage.log"; rm -f "$stage.log"

for f in usr/include/acl/acl.h usr/include/acl/acl_rt.h usr/include/acl/error_codes/rt_error_codes.h \
	usr/lib/libascendcl.so.1 usr/lib/pkgconfig/ascendcl.pc usr/include/aclnn/acl_meta.h \
	usr/include/aclnn/aclnn_base.h usr/include/aclnn/opdev/op_errno.h usr/include/aclnnop/aclnn_add.h \
	usr/lib/libnnopbase.so.1 usr/lib/libopapi.so.1 usr/lib/pkgconfig/nnopbase.pc usr/lib/pkgconfig/opapi.pc; do
	[ -f "$stage/$f" ]; ok $? "installs $f"
done
[ "$(readlink "$stage/usr/lib/libascendcl.so")" = libascendcl.so.1 ]; ok $? "libascendcl.so links to libascendcl.so.1"
ls "$stage"/lib/modules/*/updates/vnpu.ko > /dev/null 2>&1; ok $? "installs the module under /lib/modules/<kernel>/updates"
[ -x "$stage/usr/sbin/vnpu-engined" ]; ok $? "installs the engine server as usr/sbin/vnpu-engined"
grep -qx 'ExecStart=/usr/sbin/vnpu-engined -p /run/vnpu-engined.pid' "$stage/lib/systemd/system/vnpu-engined.service"
ok $? "installs its systemd unit, starting it from usr/sbin"
readelf -d "$stage/usr/lib/libascendcl.so.1" | grep -q 'SONAME.*\[libascendcl.so.1\]'; ok $? "soname is libascendcl.so.1"
[ ! -e "$stage/usr/lib/libacl.so" ] && [ ! -e "$stage/usr/lib/libacl.so.1" ]; ok $? "nothing named libacl.so"

export PKG_CONFIG_PATH="$stage/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$stage"
flags=$(pkg-config --cflags --libs ascendcl); ok $? "pkg-config --cflags --libs ascendcl"
echo "# $flags"
# libdrm comes in through its own .pc file, for static links.
pkg-config --print-requires-private ascendcl | grep -qx libdrm; ok $? "Requires.private: libdrm"
static=$(pkg-config --static --libs ascendcl) && case " $static " in *" -ldrm "*) true ;; *) false ;; esac
ok $? "pkg-config --static --libs ascendcl names -ldrm (from libdrm.pc)"
echo "# $static"
# shellcheck disable=SC2086 # flags are words
c++ -std=c++17 -Wall -Wextra -Werror -o "$stage/error_handling" "$top/tests/acl/examples/error_handling.cpp" $flags
ok $? "a CANN-style program builds with the pkg-config flags alone"
LD_LIBRARY_PATH="$stage/usr/lib" "$stage/error_handling" > "$stage/out" 2>&1
ok $? "and runs against the installed library"
sed 's/^/# /' "$stage/out"
# aclnn: the three libraries CANN programs link, from opapi.pc.
nnflags=$(pkg-config --cflags --libs opapi); ok $? "pkg-config --cflags --libs opapi"
echo "# $nnflags"
case " $nnflags " in *" -lopapi "*"-lnnopbase "*"-lascendcl "*) true ;; *) false ;; esac
ok $? "opapi.pc names -lopapi -lnnopbase -lascendcl"
# shellcheck disable=SC2086 # flags are words
c++ -std=c++17 -Wall -Wextra -Werror -o "$stage/aclnn_add" "$top/tests/aclnn/examples/aclnn_add.cpp" $nnflags
ok $? "CANN's aclnnAdd quick start builds with the pkg-config flags alone"
LD_LIBRARY_PATH="$stage/usr/lib" "$stage/aclnn_add" > "$stage/out" 2>&1
ok $? "and runs against the installed libraries"
sed 's/^/# /' "$stage/out"
# The Python acl module (python/python.mk), against the installed library.
pymod=$(ls "$stage"/usr/lib/python3/dist-packages/acl.*.so 2> /dev/null)
[ -f "$pymod" ]; ok $? "installs the Python acl module in usr/lib/python3/dist-packages"
! readelf -d "$pymod" | grep -q "$top/build"; ok $? "with no rpath into the build tree"
PYTHONPATH="$stage/usr/lib/python3/dist-packages" LD_LIBRARY_PATH="$stage/usr/lib" /usr/bin/python3 -c \
	'import acl; assert acl.init() == 0 and callable(acl.rt.allocator_register)' > "$stage/out" 2>&1
ok $? "and it imports and runs acl.init against the installed library"
sed 's/^/# /' "$stage/out"
echo "1..$n"
exit $fail
