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

.PHONY: all module tools selftests unit benches deps demo check bench sparse install clean FORCE

all: module tools selftests unit benches

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

selftests: $(SELFTESTS)

$(B)/selftests/%: tests/selftests/%.c $(SELFTEST_COMMON) $(SELFTEST_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) -Itests/selftests -std=gnu11 -O2 -g $(WARN) -pthread \
		-o $@ $< $(SELFTEST_COMMON) $(DRM_LIBS)

# Benchmarks: one program per tests/bench/*.c, run by make bench.
BENCH_SRCS := $(wildcard tests/bench/*.c)
BENCHES := $(patsubst tests/bench/%.c,$(B)/bench/%,$(BENCH_SRCS))

benches: $(BENCHES)

$(B)/bench/%: tests/bench/%.c tests/bench/bench.h $(SELFTEST_COMMON) $(SELFTEST_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) -Itests/selftests -Itests/bench -std=gnu11 -O2 -g $(WARN) -pthread \
		-o $@ $< $(SELFTEST_COMMON) $(DRM_LIBS)

# Host unit tests: Check suites built with ASan and UBSan.
-include tests/unit/ops-host.mk
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNITS := $(patsubst tests/unit/%.c,$(B)/unit/%,$(UNIT_SRCS))
UNIT_EXTRA_test_ops := $(OPS_HOST_SRCS)
UNIT_EXTRA_CFLAGS_test_ops := $(OPS_HOST_CFLAGS)

unit: $(UNITS)

.SECONDEXPANSION:
$(B)/unit/%: tests/unit/%.c $$(UNIT_EXTRA_$$*) $(wildcard kernel/*.h lib/*.h tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) -std=gnu11 -O1 -g $(WARN) $(SAN) $(UNIT_EXTRA_CFLAGS_$*) \
		$(CHECK_CFLAGS) -o $@ $< $(UNIT_EXTRA_$*) $(CHECK_LIBS) -lm

# ---------------------------------------------------------------- entry points

deps:
	@tools/install-deps

# Install whatever is missing first, so each entry point is one command on
# a fresh machine.
ensure-deps:
	@tools/install-deps --check 2>/dev/null || tools/install-deps

check: ensure-deps
	@$(MAKE) --no-print-directory all
	@tests/check.sh

demo: ensure-deps
	@$(MAKE) --no-print-directory all
	@tools/vnpu-vm -- tools/vnpu-demo

bench: ensure-deps
	@$(MAKE) --no-print-directory all
	@tests/bench/run.sh

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean >/dev/null 2>&1
	rm -rf $(B)

.PHONY: ensure-deps
