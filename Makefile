# SPDX-License-Identifier: GPL-2.0
#
# vnpu: one entry point.
#   make            build the module, libascendcl.so, the tools and the tests
#   make demo       set up everything on a fresh Debian machine and run the demo
#   make check      set up, build, and run every test (host and guest)
#   make bench      set up, build, and run the benchmarks in one guest boot
#   make sparse     build the module under sparse (C=1) and fail on any report
#   make install    install headers, library, pkg-config file and module
#   make clean      remove everything built

.DEFAULT_GOAL := all

# The kernel to build against: the running kernel's build directory when it
# has one, else the newest installed headers (the guest kernel).
KDIR_RUNNING := /lib/modules/$(shell uname -r)/build
ifeq ($(origin KDIR),undefined)
  ifneq ($(wildcard $(KDIR_RUNNING)/Makefile),)
    KDIR := $(KDIR_RUNNING)
  else
    KDIR := $(lastword $(shell ls -d /lib/modules/*/build 2>/dev/null | sort -V))
  endif
endif
KVER = $(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null)

B := $(CURDIR)/build
VNPU_CONFIG_H := $(B)/vnpu_config.h

PKG_CONFIG ?= pkg-config
CC ?= cc
CXX ?= c++

WARN := -Wall -Wextra -Werror
USER_CPPFLAGS := -D_GNU_SOURCE -I$(CURDIR)/uapi -I$(CURDIR)/include \
	$(shell $(PKG_CONFIG) --cflags libdrm 2>/dev/null)
USER_CFLAGS := -std=c11 -O2 -g $(WARN) -fPIC -pthread
SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
DRM_LIBS := $(shell $(PKG_CONFIG) --libs libdrm 2>/dev/null)
KMOD_LIBS := $(shell $(PKG_CONFIG) --libs libkmod 2>/dev/null)
CHECK_CFLAGS := $(shell $(PKG_CONFIG) --cflags check 2>/dev/null)
CHECK_LIBS := $(shell $(PKG_CONFIG) --libs check 2>/dev/null)

KERNEL_SRCS := $(wildcard kernel/*.c kernel/*.h uapi/*.h) Kbuild

.PHONY: all module lib tools selftests unit acltests benches deps demo check bench sparse kernel-doc install clean FORCE

all: module lib tools selftests unit acltests benches

# ---------------------------------------------------------------- kernel

$(VNPU_CONFIG_H): kernel/probes/run-probes.sh $(wildcard kernel/probes/*.c)
	@mkdir -p $(B)
	@echo "  PROBE   $(KDIR)"
	@kernel/probes/run-probes.sh $(KDIR) $@

module: $(B)/vnpu.ko

$(B)/vnpu.ko: $(VNPU_CONFIG_H) $(KERNEL_SRCS)
	$(MAKE) -C $(KDIR) M=$(CURDIR) VNPU_CONFIG_H=$(VNPU_CONFIG_H) W=1 modules
	@cp vnpu.ko $@

# C=2 checks every source file whether or not it needs rebuilding (a superset
# of C=1), without a clean that would take other build products with it.
sparse: $(VNPU_CONFIG_H)
	@$(MAKE) -C $(KDIR) M=$(CURDIR) VNPU_CONFIG_H=$(VNPU_CONFIG_H) C=2 W=1 modules \
		> $(B)/sparse.log 2>&1 || { cat $(B)/sparse.log; exit 1; }
	@if grep -E 'warning:|error:' $(B)/sparse.log; then \
		echo "sparse: reports above"; exit 1; fi
	@echo "sparse: clean"
	@cp vnpu.ko $(B)/vnpu.ko

# kernel-doc must find a comment for every documented object and no errors.
kernel-doc:
	@$(KDIR)/scripts/kernel-doc -none -Werror uapi/vnpu_drm.h kernel/*.c kernel/*.h
	@echo "kernel-doc: clean"

# ---------------------------------------------------------------- library

# libascendcl.so.1: the ACL API (lib/acl_*.c) over the runtime core
# (lib/rt_*.c) over the driver layer (lib/drv.c). Only acl* symbols are
# exported (-fvisibility=hidden, FUNC_VISIBILITY and the version script).
LIB_VERSION := 1.0.0
LIB_SONAME := libascendcl.so.1
LIB_SRCS := $(wildcard lib/*.c)
LIB_HDRS := $(wildcard lib/*.h) $(wildcard include/acl/*.h include/acl/error_codes/*.h) uapi/vnpu_drm.h
# ".lo", not ".o": the module's "make M=... clean" (make sparse) deletes
# every *.o below the tree.
LIB_OBJS := $(patsubst lib/%.c,$(B)/lib/obj/%.lo,$(LIB_SRCS))
LIB_CFLAGS := $(USER_CFLAGS) -fvisibility=hidden -DFUNC_VISIBILITY
LIB := $(B)/lib/$(LIB_SONAME)
# Pure-logic parts of the library, also linked into host unit tests.
LIB_PURE_SRCS := lib/rt_imap.c lib/rt_config.c lib/rt_kind.c lib/rt_errmap.c lib/rt_handle.c \
	lib/rt_error.c lib/rt_op.c lib/acl_tensor.c lib/acl_opattr.c lib/rt_allocreg.c lib/rt_wspool.c

lib: $(LIB) $(B)/lib/libascendcl.so $(B)/lib/ascendcl.pc

$(B)/lib/obj/%.lo: lib/%.c $(LIB_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) $(LIB_CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJS) lib/libascendcl.map
	$(CC) -shared -pthread -Wl,-soname,$(LIB_SONAME) -Wl,--version-script=lib/libascendcl.map \
		-Wl,-z,defs -Wl,--as-needed -o $@ $(LIB_OBJS) $(DRM_LIBS)

$(B)/lib/libascendcl.so: $(LIB)
	@ln -sf $(LIB_SONAME) $@

PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include

$(B)/lib/ascendcl.pc: lib/ascendcl.pc.in Makefile
	@mkdir -p $(dir $@)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@VERSION@|$(LIB_VERSION)|' $< > $@

# ---------------------------------------------------------------- ACL tests

# Guest Check suites (tests/acl/test_*.c, sharing tests/acl/lib/*.c) and
# CANN-style example programs (tests/acl/examples/*.c, *.cpp), linked
# against the built library with an rpath, examples built exactly as an
# application would be: -Iinclude -lascendcl and nothing else.
ACL_TEST_SRCS := $(wildcard tests/acl/test_*.c)
ACL_TEST_COMMON := $(wildcard tests/acl/lib/*.c) tests/selftests/lib/vnpu_op_ref.c
ACL_TESTS := $(patsubst tests/acl/%.c,$(B)/acl/%,$(ACL_TEST_SRCS))
ACL_EXAMPLE_C := $(wildcard tests/acl/examples/*.c)
ACL_EXAMPLE_CXX := $(wildcard tests/acl/examples/*.cpp)
ACL_EXAMPLES := $(patsubst tests/acl/examples/%.c,$(B)/acl/examples/%,$(ACL_EXAMPLE_C)) \
	$(patsubst tests/acl/examples/%.cpp,$(B)/acl/examples/%,$(ACL_EXAMPLE_CXX))
ACL_LINK := -L$(B)/lib -Wl,-rpath,$(B)/lib -lascendcl

acltests: $(ACL_TESTS) $(ACL_EXAMPLES)

$(B)/acl/%: tests/acl/%.c $(ACL_TEST_COMMON) $(wildcard tests/acl/lib/*.h) $(LIB) $(B)/lib/libascendcl.so
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) -Itests/acl/lib -Itests/selftests/lib -std=gnu11 -O2 -g $(WARN) -pthread $(CHECK_CFLAGS) \
		-o $@ $< $(ACL_TEST_COMMON) $(ACL_LINK) $(CHECK_LIBS) -lm

$(B)/acl/examples/%: tests/acl/examples/%.c $(LIB) $(B)/lib/libascendcl.so
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -Wall -Wextra -Werror -Iinclude -o $@ $< $(ACL_LINK) -lm

$(B)/acl/examples/%: tests/acl/examples/%.cpp $(LIB) $(B)/lib/libascendcl.so
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -Wall -Wextra -Werror -Iinclude -o $@ $< $(ACL_LINK)

# ---------------------------------------------------------------- tools

TOOLS := $(B)/tools/vnpu-modload $(B)/tools/vnpu-smi

tools: $(TOOLS)

$(B)/tools/vnpu-modload: tools/vnpu-modload.c
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) $(USER_CFLAGS) $(shell $(PKG_CONFIG) --cflags libkmod) \
		-o $@ $< $(KMOD_LIBS)

$(B)/tools/vnpu-smi: tools/vnpu-smi.c uapi/vnpu_drm.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) $(USER_CFLAGS) -o $@ $< $(DRM_LIBS)

# ---------------------------------------------------------------- tests

# Guest selftests: one program per tests/selftests/*.c, TAP output.
SELFTEST_SRCS := $(wildcard tests/selftests/*.c)
SELFTEST_COMMON := $(wildcard tests/selftests/lib/*.c)
SELFTESTS := $(patsubst tests/selftests/%.c,$(B)/selftests/%,$(SELFTEST_SRCS))
SELFTEST_HDRS := $(wildcard tests/selftests/*.h tests/selftests/lib/*.h tests/selftests/harness/*.h) uapi/vnpu_drm.h
SELFTEST_CFLAGS := $(USER_CPPFLAGS) -Itests/selftests -std=gnu11 -O2 -g $(WARN) -pthread
# The shared helpers are compiled once and linked into every program.
SELFTEST_OBJS := $(patsubst tests/selftests/lib/%.c,$(B)/selftests/lib/%.o,$(SELFTEST_COMMON))

selftests: $(SELFTESTS)

$(B)/selftests/lib/%.o: tests/selftests/lib/%.c $(SELFTEST_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(SELFTEST_CFLAGS) -c -o $@ $<

$(B)/selftests/%: tests/selftests/%.c $(SELFTEST_OBJS) $(SELFTEST_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(SELFTEST_CFLAGS) -o $@ $< $(SELFTEST_OBJS) $(DRM_LIBS) -lm

# Benchmarks: one program per tests/bench/*.c, run by make bench.
BENCH_SRCS := $(wildcard tests/bench/*.c)
BENCHES := $(patsubst tests/bench/%.c,$(B)/bench/%,$(BENCH_SRCS))

benches: $(BENCHES)

# bench_allocator launches operators through libascendcl.
$(B)/bench/bench_allocator: tests/bench/bench_allocator.c tests/bench/bench.h $(LIB) $(B)/lib/libascendcl.so
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) -Itests/bench -std=gnu11 -O2 -g $(WARN) -pthread -o $@ $< $(ACL_LINK)

$(B)/bench/%: tests/bench/%.c tests/bench/bench.h $(SELFTEST_OBJS) $(SELFTEST_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(SELFTEST_CFLAGS) -Itests/bench -o $@ $< $(SELFTEST_OBJS) $(DRM_LIBS) -lm

# Host unit tests: Check suites built with ASan and UBSan.
-include tests/unit/ops-host.mk
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNITS := $(patsubst tests/unit/%.c,$(B)/unit/%,$(UNIT_SRCS))
UNIT_EXTRA_test_ops := $(OPS_HOST_SRCS) tests/selftests/lib/vnpu_op_ref.c
UNIT_EXTRA_CFLAGS_test_ops := $(OPS_HOST_CFLAGS) -Itests/selftests/lib
# Library unit tests: each links the library's pure-logic sources.
$(foreach t,$(patsubst tests/unit/%.c,%,$(wildcard tests/unit/test_lib_*.c)),\
	$(eval UNIT_EXTRA_$(t) := $(LIB_PURE_SRCS))\
	$(eval UNIT_EXTRA_CFLAGS_$(t) := -Ilib -pthread))
# The operator planner's tests also run the kernel's compute kernels.
UNIT_EXTRA_test_lib_op += $(OPS_HOST_SRCS) tests/selftests/lib/vnpu_op_ref.c
UNIT_EXTRA_CFLAGS_test_lib_op += $(OPS_HOST_CFLAGS) -Itests/selftests/lib

unit: $(UNITS)

.SECONDEXPANSION:
$(B)/unit/%: tests/unit/%.c $$(UNIT_EXTRA_$$*) $(wildcard kernel/*.h lib/*.h tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) -std=gnu11 -O1 -g $(WARN) $(SAN) $(UNIT_EXTRA_CFLAGS_$*) \
		$(CHECK_CFLAGS) -o $@ $< $(UNIT_EXTRA_$*) $(CHECK_LIBS) -lm

# ---------------------------------------------------------------- install

# make install [PREFIX=/usr/local] [LIBDIR=$(PREFIX)/lib] [DESTDIR=]
# Headers under include/acl/, the library and its pkg-config file, and the
# module under /lib/modules/<kernel>/updates/ (depmod runs when installing
# into the live system, that is without DESTDIR).
install: lib module
	install -d $(DESTDIR)$(INCLUDEDIR)/acl/error_codes $(DESTDIR)$(LIBDIR)/pkgconfig
	install -m 644 include/acl/*.h $(DESTDIR)$(INCLUDEDIR)/acl/
	install -m 644 include/acl/error_codes/*.h $(DESTDIR)$(INCLUDEDIR)/acl/error_codes/
	install -m 755 $(LIB) $(DESTDIR)$(LIBDIR)/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(DESTDIR)$(LIBDIR)/libascendcl.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@VERSION@|$(LIB_VERSION)|' \
		lib/ascendcl.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/ascendcl.pc
	install -d $(DESTDIR)/lib/modules/$(KVER)/updates
	install -m 644 $(B)/vnpu.ko $(DESTDIR)/lib/modules/$(KVER)/updates/vnpu.ko
	if [ -z "$(DESTDIR)" ]; then depmod -a $(KVER); fi

# ---------------------------------------------------------------- entry points

deps:
	@tools/install-deps

# Install whatever is missing first, so each entry point is one command on
# a fresh machine.
ensure-deps:
	@tools/install-deps --check 2>/dev/null || tools/install-deps

JOBS := -j$(shell nproc 2>/dev/null || echo 2)

check: ensure-deps
	@$(MAKE) --no-print-directory $(JOBS) all
	@tests/check.sh

demo: ensure-deps
	@$(MAKE) --no-print-directory $(JOBS) all
	@tools/vnpu-vm -- tools/vnpu-demo

bench: ensure-deps
	@$(MAKE) --no-print-directory $(JOBS) all
	@tests/bench/run.sh

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean >/dev/null 2>&1
	rm -rf $(B)

.PHONY: ensure-deps
