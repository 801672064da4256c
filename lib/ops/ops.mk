# SPDX-License-Identifier: MIT
#
# lib/ops, vnpu's operator library (docs/ops.md); included by the top-level
# Makefile, paths relative to the project root.
#
#   OPS_SRCS     its sources (host unit tests compile them directly)
#   OPS_HDRS     its headers, for dependencies
#   OPS_CFLAGS   what code calling or compiling lib/ops needs (-Ilib/ops,
#                BLIS's headers)
#   OPS_LIBS     what a program or library linking it needs (BLIS, libm)
#   OPS_LINK_FILES, OPS_RPATH
#                the same as a file and a flag, for rules whose inputs are
#                file lists (the host unit tests)
#   OPS_LIB      $(B)/lib/libvnpuops.a, built with USER_CFLAGS
#
# The float matrix products use BLIS's serial build (libblis-serial-dev),
# picked by benchmark (make ops-bench; docs/ops.md). Debian installs BLIS's
# builds side by side and points libblis.so.4 at one of them through
# update-alternatives, so the library is named by its directory and found
# there at run time (rpath): an OpenMP or pthreads build would start
# threads inside an engine worker.

OPS_MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
OPS_BLIS_LIBDIR := /usr/lib/$(OPS_MULTIARCH)/blis-serial
OPS_BLIS_INCDIR := /usr/include/$(OPS_MULTIARCH)/blis-serial

OPS_SRCS := $(wildcard lib/ops/*.c)
OPS_HDRS := $(wildcard lib/ops/*.h) include/acl/acl_base.h uapi/vnpu_drm.h
OPS_CFLAGS := -I$(CURDIR)/lib/ops -isystem $(OPS_BLIS_INCDIR)
OPS_RPATH := -Wl,-rpath,$(OPS_BLIS_LIBDIR)
OPS_LINK_FILES := $(OPS_BLIS_LIBDIR)/libblis.so
OPS_LIBS := -L$(OPS_BLIS_LIBDIR) $(OPS_RPATH) -lblis -lm
OPS_LIB := $(B)/lib/libvnpuops.a
# ".lo", not ".o": the module's "make M=... clean" deletes every *.o below
# the tree.
OPS_OBJS := $(patsubst lib/ops/%.c,$(B)/lib/ops/%.lo,$(OPS_SRCS))

.PHONY: ops ops-bench

ops: $(OPS_LIB)

$(B)/lib/ops/%.lo: lib/ops/%.c $(OPS_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) $(OPS_CFLAGS) $(USER_CFLAGS) -c -o $@ $<

$(OPS_LIB): $(OPS_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $(OPS_OBJS)

# The public header must stay valid C++17 (vnpu-engined or tools may be C++).
$(B)/lib/ops/header-cxx.stamp: lib/ops/vnpu_ops.h
	@mkdir -p $(dir $@)
	printf '#include "vnpu_ops.h"\n' | $(CXX) -std=c++17 -Wall -Wextra -Werror -x c++ \
		$(OPS_CFLAGS) -fsyntax-only -
	@touch $@

$(OPS_LIB): $(B)/lib/ops/header-cxx.stamp

# make ops-bench: the compute-library benchmark (tests/bench/libs/ops_libs.c,
# docs/ops.md). Not part of make all or make check; run it on the host and
# in the guest: tools/vnpu-vm -n -- build/bench/libs/ops_libs
OPS_BENCH := $(B)/bench/libs/ops_libs

ops-bench: $(OPS_BENCH)

$(OPS_BENCH): tests/bench/libs/ops_libs.c $(OPS_LIB) lib/ops/vnpu_ops.h lib/ops/ops_blocked.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) $(OPS_CFLAGS) -std=gnu11 -O2 -g $(WARN) \
		-DOPS_LIBDIR='"/usr/lib/$(OPS_MULTIARCH)"' -o $@ $< $(OPS_LIB) $(OPS_LIBS) -ldl
