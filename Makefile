# SPDX-License-Identifier: GPL-2.0
#
# vnpu: one entry point.
#   make            build the module, libascendcl.so, the tools, the tests and lib/onnx
#   make demo       set up everything on a fresh Debian machine and run the demo
#   make check      set up, build, and run every test (host and guest)
#   make check-debug the guest suites under a debug kernel (tools/debug-kernel/)
#   make bench      set up, build, and run the benchmarks in one guest boot
#   make sparse     build the module under sparse (C=1) and fail on any report
#   make install    install headers, libraries (ascendcl, nnopbase, opapi), pkg-config files, module
#                   and the Python acl module
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

all: module lib tools selftests unit acltests nntests benches onnx pyacl

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

# libascendcl.so.1, one folder per layer: the ACL API (lib/acl/) over the
# runtime core (lib/rt/) over the driver layer (lib/drv/, the only code
# that issues ioctls), with the operator library (lib/ops/) planning
# operators. Only acl* symbols are exported (-fvisibility=hidden,
# FUNC_VISIBILITY and the version script).
LIB_VERSION := 1.0.0
LIB_SONAME := libascendcl.so.1
LIB_LAYERS := lib/acl lib/rt lib/drv
LIB_SRCS := $(foreach d,$(LIB_LAYERS),$(wildcard $(d)/*.c))
LIB_HDRS := $(foreach d,$(LIB_LAYERS),$(wildcard $(d)/*.h)) \
	$(wildcard include/acl/*.h include/acl/error_codes/*.h) uapi/vnpu_drm.h
LIB_INCLUDES := $(addprefix -I,$(LIB_LAYERS)) -Ilib/om
# The operator library (lib/ops/ops.mk) is compiled into it, hidden like
# the rest: operators are planned with lib/ops' vops_plan().
include lib/ops/ops.mk
# The ONNX reader (lib/onnx/onnx.mk): a static library, its tools and tests.
include lib/onnx/onnx.mk
# The offline model and its .om container (lib/om/om.mk).
include lib/om/om.mk
include tools/atc/atc.mk
# aclnn's libnnopbase.so and libopapi.so (lib/aclnn/aclnn.mk), over it.
include lib/aclnn/aclnn.mk
# The Python `acl` module (python/python.mk), over it.
include python/python.mk
# ".lo", not ".o": the module's "make M=... clean" (make sparse) deletes
# every *.o below the tree.
# lib/om (the .om reader, for aclmdl*) and its generated protobuf-c code
# (position-independent, relaxed warnings: OM_PB_LO) are linked in too.
LIB_OBJS := $(patsubst lib/%.c,$(B)/lib/obj/%.lo,$(LIB_SRCS)) \
	$(patsubst lib/ops/%.c,$(B)/lib/obj/ops/%.lo,$(OPS_SRCS)) \
	$(patsubst lib/om/%.c,$(B)/lib/obj/om/%.lo,$(OM_SRCS))
LIB_CFLAGS := $(USER_CFLAGS) $(LIB_INCLUDES) -fvisibility=hidden -DFUNC_VISIBILITY
LIB := $(B)/lib/$(LIB_SONAME)
# Pure-logic parts of the library, also linked into host unit tests.
LIB_PURE_SRCS := $(addprefix lib/rt/,rt_imap.c rt_config.c rt_kind.c rt_errmap.c rt_handle.c \
	rt_error.c rt_op.c rt_allocreg.c rt_wspool.c rt_model_plan.c rt_model_mem.c rt_model_cache.c) \
	lib/acl/acl_tensor.c lib/acl/acl_opattr.c

lib: $(LIB) $(B)/lib/libascendcl.so $(B)/lib/ascendcl.pc nnlibs

$(B)/lib/obj/%.lo: lib/%.c $(LIB_HDRS) $(OPS_HDRS) lib/om/vnpu_om.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) $(OPS_CFLAGS) $(LIB_CFLAGS) -c -o $@ $<

$(B)/lib/obj/ops/%.lo: lib/ops/%.c $(OPS_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) $(OPS_CFLAGS) $(LIB_CFLAGS) -c -o $@ $<

$(B)/lib/obj/om/%.lo: lib/om/%.c $(OM_HDRS) $(OM_GEN)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) $(OPS_CFLAGS) $(OM_CFLAGS) $(LIB_CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJS) $(OM_PB_LO) lib/libascendcl.map
	$(CC) -shared -pthread -Wl,-soname,$(LIB_SONAME) -Wl,--version-script=lib/libascendcl.map \
		-Wl,-z,defs -Wl,--as-needed -o $@ $(LIB_OBJS) $(OM_PB_LO) $(DRM_LIBS) $(OPS_LIBS) $(OM_LIBS)

$(B)/lib/libascendcl.so: $(LIB)
	@ln -sf $(LIB_SONAME) $@

# The same library built with ASan and UBSan, for the guest suites that
# run the ACL tests over it (tests/acl/run-sanitized.sh preloads it).
LIB_SAN := $(B)/lib-san/$(LIB_SONAME)
LIB_SAN_OBJS := $(patsubst $(B)/lib/obj/%,$(B)/lib-san/obj/%,$(LIB_OBJS))

$(B)/lib-san/obj/%.lo: lib/%.c $(LIB_HDRS) $(OPS_HDRS) $(OM_HDRS) $(OM_GEN)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) $(OPS_CFLAGS) $(OM_CFLAGS) $(LIB_CFLAGS) -O1 $(SAN) -c -o $@ $<

$(LIB_SAN): $(LIB_SAN_OBJS) $(OM_PB_LO) lib/libascendcl.map
	$(CC) -shared -pthread $(SAN) -Wl,-soname,$(LIB_SONAME) -Wl,--version-script=lib/libascendcl.map \
		-Wl,--as-needed -o $@ $(LIB_SAN_OBJS) $(OM_PB_LO) $(DRM_LIBS) $(OPS_LIBS) $(OM_LIBS)

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

acltests: $(ACL_TESTS) $(ACL_EXAMPLES) $(LIB_SAN)

$(B)/acl/%: tests/acl/%.c $(ACL_TEST_COMMON) $(wildcard tests/acl/lib/*.h) $(LIB) $(B)/lib/libascendcl.so
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) -Itests/acl/lib -Itests/selftests/lib -std=gnu11 -O2 -g $(WARN) -pthread $(CHECK_CFLAGS) \
		-o $@ $< $(ACL_TEST_COMMON) $(ACL_LINK) $(CHECK_LIBS) -lm

# The model suite writes its models with lib/om (om_write()), compiled in.
# Its models are built by hand with tests/lib/om_builder.c.
$(B)/acl/test_acl_model: tests/acl/test_acl_model.c $(ACL_TEST_COMMON) $(wildcard tests/acl/lib/*.h) $(OM_SRCS) \
		$(OM_HDRS) $(OM_PB_LO) $(OPS_LIB) $(LIB) $(B)/lib/libascendcl.so tests/lib/om_builder.c tests/lib/om_builder.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) -Itests/acl/lib -Itests/selftests/lib -Itests/lib $(OPS_CFLAGS) $(OM_CFLAGS) -std=gnu11 \
		-O2 -g $(WARN) -pthread $(CHECK_CFLAGS) -o $@ $< $(ACL_TEST_COMMON) tests/lib/om_builder.c $(OM_SRCS) \
		$(OM_PB_LO) $(OPS_LIB) \
		$(ACL_LINK) $(CHECK_LIBS) $(OM_LIBS) $(OPS_LIBS) -lm

$(B)/acl/examples/%: tests/acl/examples/%.c $(LIB) $(B)/lib/libascendcl.so
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -Wall -Wextra -Werror -Iinclude -o $@ $< $(ACL_LINK) -lm

$(B)/acl/examples/%: tests/acl/examples/%.cpp $(LIB) $(B)/lib/libascendcl.so
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -Wall -Wextra -Werror -Iinclude -o $@ $< $(ACL_LINK)

# ---------------------------------------------------------------- tools

TOOLS := $(B)/tools/vnpu-modload $(B)/tools/vnpu-smi $(B)/tools/vnpu-engined $(ATC)

tools: $(TOOLS)

# The tools find device nodes with the library's own walk (lib/drv/drv_node.c).
NODE_SRCS := lib/drv/drv_node.c
NODE_HDRS := lib/drv/drv.h uapi/vnpu_drm.h

$(B)/tools/vnpu-modload: tools/vnpu-modload.c $(NODE_SRCS) $(NODE_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) -Ilib/drv $(USER_CFLAGS) $(shell $(PKG_CONFIG) --cflags libkmod) \
		-o $@ $< $(NODE_SRCS) $(KMOD_LIBS) $(DRM_LIBS)

# vnpu-engined, the engine server (tools/engined/): operators run through
# the operator library, $(B)/lib/libvnpuops.a (lib/ops/ops.mk).
ENGINED_SRCS := $(wildcard tools/engined/*.c)
ENGINED_HDRS := $(wildcard tools/engined/*.h) uapi/vnpu_drm.h lib/ops/vnpu_ops.h
# The parts the host unit tests link: no device, no system-wide state.
ENGINED_PURE_SRCS := tools/engined/job.c tools/engined/exec.c tools/engined/window.c \
	tools/engined/guard.c tools/engined/crew.c \
	tools/engined/log.c

$(B)/tools/vnpu-engined: $(ENGINED_SRCS) $(ENGINED_HDRS) $(NODE_SRCS) $(NODE_HDRS) \
		$(B)/lib/libvnpuops.a
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) -Ilib/drv $(OPS_CFLAGS) $(USER_CFLAGS) -o $@ $(ENGINED_SRCS) \
		$(NODE_SRCS) $(B)/lib/libvnpuops.a $(OPS_LIBS) $(DRM_LIBS)

$(B)/tools/vnpu-smi: tools/vnpu-smi.c $(NODE_SRCS) $(NODE_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) -Ilib/drv $(USER_CFLAGS) -o $@ $< $(NODE_SRCS) $(DRM_LIBS)

# ---------------------------------------------------------------- tests

# Guest selftests: one program per tests/selftests/*.c, TAP output.
SELFTEST_SRCS := $(wildcard tests/selftests/*.c)
SELFTEST_COMMON := $(wildcard tests/selftests/lib/*.c)
SELFTESTS := $(patsubst tests/selftests/%.c,$(B)/selftests/%,$(SELFTEST_SRCS))
SELFTEST_HDRS := $(wildcard tests/selftests/*.h tests/selftests/lib/*.h tests/selftests/harness/*.h) uapi/vnpu_drm.h \
	lib/ops/vnpu_ops.h
# The helpers plan operators with lib/ops (OPS_* from lib/ops/ops.mk, included
# below: hence "=" here and the library's path spelled out in prerequisites).
SELFTEST_CFLAGS = $(USER_CPPFLAGS) $(OPS_CFLAGS) -Itests/selftests -std=gnu11 -O2 -g $(WARN) -pthread
SELFTEST_LIBS = $(B)/lib/libvnpuops.a $(OPS_LIBS) $(DRM_LIBS) -lm
# The shared helpers are compiled once and linked into every program.
SELFTEST_OBJS := $(patsubst tests/selftests/lib/%.c,$(B)/selftests/lib/%.o,$(SELFTEST_COMMON))

selftests: $(SELFTESTS)

$(B)/selftests/lib/%.o: tests/selftests/lib/%.c $(SELFTEST_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(SELFTEST_CFLAGS) -c -o $@ $<

$(B)/selftests/%: tests/selftests/%.c $(SELFTEST_OBJS) $(SELFTEST_HDRS) $(B)/lib/libvnpuops.a
	@mkdir -p $(dir $@)
	$(CC) $(SELFTEST_CFLAGS) -o $@ $< $(SELFTEST_OBJS) $(SELFTEST_LIBS)

# Benchmarks: one program per tests/bench/*.c, run by make bench.
BENCH_SRCS := $(wildcard tests/bench/*.c)
BENCHES := $(patsubst tests/bench/%.c,$(B)/bench/%,$(BENCH_SRCS))

benches: $(BENCHES)

# bench_peers measures what a user would write instead: a condvar worker
# queue and io_uring's async NOPs (liburing).
$(B)/bench/bench_peers: tests/bench/bench_peers.c tests/bench/bench.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) -Itests/bench -std=gnu11 -O2 -g $(WARN) -pthread -o $@ $< -luring

# bench_allocator launches operators through libascendcl.
$(B)/bench/bench_allocator: tests/bench/bench_allocator.c tests/bench/bench.h tests/bench/bench_acl.h $(LIB) $(B)/lib/libascendcl.so
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) -Itests/bench -std=gnu11 -O2 -g $(WARN) -pthread -o $@ $< $(ACL_LINK)

# bench_capture replays captured graphs (aclmdlRI) through libascendcl.
$(B)/bench/bench_capture: tests/bench/bench_capture.c tests/bench/bench.h tests/bench/bench_acl.h $(LIB) $(B)/lib/libascendcl.so
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) -Itests/bench -std=gnu11 -O2 -g $(WARN) -pthread -o $@ $< $(ACL_LINK)

$(B)/bench/%: tests/bench/%.c tests/bench/bench.h $(SELFTEST_OBJS) $(SELFTEST_HDRS) \
		$(B)/lib/libvnpuops.a
	@mkdir -p $(dir $@)
	$(CC) $(SELFTEST_CFLAGS) -Itests/bench -o $@ $< $(SELFTEST_OBJS) $(SELFTEST_LIBS)

# Host unit tests: Check suites built with ASan and UBSan.
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNITS := $(patsubst tests/unit/%.c,$(B)/unit/%,$(UNIT_SRCS))
# The operator library's tests compile lib/ops itself (lib/ops/ops.mk).
# The operator families' tests (tests/unit/test_ops_<family>.c) build as test_ops does.
$(foreach t,$(filter test_ops_%,$(notdir $(basename $(UNIT_SRCS)))),\
	$(eval UNIT_EXTRA_$(t) := $(OPS_SRCS) $(OPS_LINK_FILES) tests/selftests/lib/vnpu_op_ref.c)\
	$(eval UNIT_EXTRA_CFLAGS_$(t) := $(OPS_CFLAGS) $(OPS_RPATH) -Itests/selftests/lib -pthread)\
	$(eval $(B)/unit/$(t): $(OPS_HDRS) tests/selftests/lib/vnpu_op_ref.h))
UNIT_EXTRA_test_ops := $(OPS_SRCS) $(OPS_LINK_FILES) tests/selftests/lib/vnpu_op_ref.c
UNIT_EXTRA_CFLAGS_test_ops := $(OPS_CFLAGS) $(OPS_RPATH) -Itests/selftests/lib -pthread
$(B)/unit/test_ops: $(OPS_HDRS) tests/selftests/lib/vnpu_op_ref.h
# The ONNX reader's tests compile lib/onnx and link the generated protobuf-c
# code built with relaxed warnings (lib/onnx/onnx.mk).
UNIT_EXTRA_test_onnx := $(ONNX_SRCS) $(ONNX_PB_SAN) $(ONNX_LINK_FILES)
UNIT_EXTRA_CFLAGS_test_onnx := $(ONNX_CFLAGS)
$(B)/unit/test_onnx: $(ONNX_HDRS) $(ONNX_GEN)
# Library unit tests: each links the library's pure-logic sources, with
# the operator library the planner (rt_op.c) calls.
$(foreach t,$(patsubst tests/unit/%.c,%,$(wildcard tests/unit/test_lib_*.c)),\
	$(eval UNIT_EXTRA_$(t) := $(LIB_PURE_SRCS) $(OPS_SRCS) $(OPS_LINK_FILES))\
	$(eval UNIT_EXTRA_CFLAGS_$(t) := $(LIB_INCLUDES) $(OPS_CFLAGS) $(OPS_RPATH) -pthread))
$(patsubst tests/unit/%.c,$(B)/unit/%,$(wildcard tests/unit/test_lib_*.c)): $(OPS_HDRS)
# vnpu-engined's unit tests link its pure parts; the RUN loop's test also
# the worker, against a fake engine file.
$(foreach t,$(patsubst tests/unit/%.c,%,$(wildcard tests/unit/test_engined_*.c)),\
	$(eval UNIT_EXTRA_$(t) := $(ENGINED_PURE_SRCS))\
	$(eval UNIT_EXTRA_CFLAGS_$(t) := -Itools/engined -Ilib/ops -pthread))
UNIT_EXTRA_test_engined_worker += tools/engined/worker.c
# ... and the operator path's test the real operator library.
UNIT_EXTRA_test_engined_ops += $(OPS_SRCS) $(OPS_LINK_FILES)
UNIT_EXTRA_CFLAGS_test_engined_ops += $(OPS_CFLAGS) $(OPS_RPATH)
$(patsubst tests/unit/%.c,$(B)/unit/%,$(wildcard tests/unit/test_engined_*.c)): $(ENGINED_HDRS)
$(B)/unit/test_engined_ops: $(OPS_HDRS)
# The operator adapter's tests also run the planned descriptors with lib/ops
# and compare with the shared double-precision reference.
UNIT_EXTRA_test_lib_op += tests/selftests/lib/vnpu_op_ref.c
UNIT_EXTRA_CFLAGS_test_lib_op += -Itests/selftests/lib
# The model planner's tests build their models with tests/lib/om_builder.c.
UNIT_EXTRA_test_lib_model += tests/lib/om_builder.c
UNIT_EXTRA_CFLAGS_test_lib_model += -Itests/lib
$(B)/unit/test_lib_model: tests/lib/om_builder.h

unit: $(UNITS)

.SECONDEXPANSION:
$(B)/unit/%: tests/unit/%.c $$(UNIT_EXTRA_$$*) $(wildcard kernel/*.h lib/*.h tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) -std=gnu11 -O1 -g $(WARN) $(SAN) $(UNIT_EXTRA_CFLAGS_$*) \
		$(CHECK_CFLAGS) -o $@ $< $(UNIT_EXTRA_$*) $(CHECK_LIBS) -lm

# ---------------------------------------------------------------- install

# make install [PREFIX=/usr/local] [LIBDIR=$(PREFIX)/lib] [DESTDIR=]
# Headers under include/acl/, the library and its pkg-config file, the
# module under /lib/modules/<kernel>/updates/ (depmod runs when installing
# into the live system, that is without DESTDIR), vnpu-engined in
# $(SBINDIR) and its systemd unit in $(SYSTEMDUNITDIR): by default when
# installing for a package (DESTDIR) or on a system that runs systemd;
# SYSTEMDUNITDIR= skips it. The unit is installed, never enabled.
SBINDIR ?= $(PREFIX)/sbin
SYSTEMDUNITDIR ?= $(if $(or $(DESTDIR),$(wildcard /run/systemd/system)),/lib/systemd/system)

install: lib module $(B)/tools/vnpu-engined install-python
	install -d $(DESTDIR)$(INCLUDEDIR)/acl/error_codes $(DESTDIR)$(LIBDIR)/pkgconfig \
		$(DESTDIR)$(INCLUDEDIR)/aclnn/opdev $(DESTDIR)$(INCLUDEDIR)/aclnnop
	install -m 644 include/acl/*.h $(DESTDIR)$(INCLUDEDIR)/acl/
	install -m 644 include/acl/error_codes/*.h $(DESTDIR)$(INCLUDEDIR)/acl/error_codes/
	install -m 644 include/aclnn/*.h $(DESTDIR)$(INCLUDEDIR)/aclnn/
	install -m 644 include/aclnn/opdev/*.h $(DESTDIR)$(INCLUDEDIR)/aclnn/opdev/
	install -m 644 include/aclnnop/*.h $(DESTDIR)$(INCLUDEDIR)/aclnnop/
	install -m 755 $(LIB) $(DESTDIR)$(LIBDIR)/$(LIB_SONAME)
	ln -sf $(LIB_SONAME) $(DESTDIR)$(LIBDIR)/libascendcl.so
	install -m 755 $(NN_BASE_LIB) $(DESTDIR)$(LIBDIR)/$(NN_BASE_SONAME)
	ln -sf $(NN_BASE_SONAME) $(DESTDIR)$(LIBDIR)/libnnopbase.so
	install -m 755 $(NN_OPS_LIB) $(DESTDIR)$(LIBDIR)/$(NN_OPS_SONAME)
	ln -sf $(NN_OPS_SONAME) $(DESTDIR)$(LIBDIR)/libopapi.so
	for pc in lib/ascendcl.pc.in lib/aclnn/nnopbase.pc.in lib/aclnn/opapi.pc.in; do \
		sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@VERSION@|$(LIB_VERSION)|' \
			$$pc > $(DESTDIR)$(LIBDIR)/pkgconfig/$$(basename $$pc .in) || exit 1; \
	done
	install -d $(DESTDIR)/lib/modules/$(KVER)/updates
	install -m 644 $(B)/vnpu.ko $(DESTDIR)/lib/modules/$(KVER)/updates/vnpu.ko
	if [ -z "$(DESTDIR)" ]; then depmod -a $(KVER); fi
	install -d $(DESTDIR)$(SBINDIR)
	install -m 755 $(B)/tools/vnpu-engined $(DESTDIR)$(SBINDIR)/vnpu-engined
	if [ -n "$(SYSTEMDUNITDIR)" ]; then \
		install -d $(DESTDIR)$(SYSTEMDUNITDIR) && \
		sed 's|/usr/local/sbin/|$(SBINDIR)/|g' tools/vnpu-engined.service \
			> $(DESTDIR)$(SYSTEMDUNITDIR)/vnpu-engined.service && \
		chmod 644 $(DESTDIR)$(SYSTEMDUNITDIR)/vnpu-engined.service; \
	fi
	if [ -n "$(SYSTEMDUNITDIR)" ] && [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then \
		systemctl daemon-reload || true; fi

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

# make check-debug, make debug-kernel: tools/debug-kernel/.
include tools/debug-kernel/debug.mk

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean >/dev/null 2>&1
	rm -rf $(B)

.PHONY: ensure-deps
include tests/fuzz/fuzz.mk
include tests/onnx/models.mk
