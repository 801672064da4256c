# SPDX-License-Identifier: MIT
#
# lib/onnx, the ONNX reader (lib/onnx/vnpu_onnx.h); included by the top-level
# Makefile, paths relative to the project root.
#
#   ONNX_SRCS    its own sources (host unit tests compile them directly)
#   ONNX_HDRS    its headers, for dependencies
#   ONNX_GEN     the protobuf-c code generated from Debian's onnx.proto
#                (libonnx-dev) at build time, never committed: a prerequisite
#                of whatever compiles ONNX_SRCS
#   ONNX_CFLAGS  include directories for lib/onnx and the generated header
#   ONNX_LIBS    what a program linking it needs (-lprotobuf-c)
#   ONNX_LINK_FILES the same as a file, for rules whose inputs are file lists
#                (the host unit tests)
#   ONNX_PB_SAN  the generated code compiled with ASan/UBSan, for the unit
#                tests (the generated code is compiled with relaxed
#                warnings: protoc-c's output is not ours to keep -Wextra clean)
#   ONNX_LIB     $(B)/lib/libvnpuonnx.a
#
#   make onnx    the library and $(B)/onnx/onnx_dump (tests/onnx/onnx_dump.c),
#                which prints models and test data; $(B)/onnx/onnx_dump-san is
#                the same under ASan and UBSan

ONNX_PROTO := /usr/include/onnx/onnx.proto
ONNX_GEN_DIR := $(B)/lib/onnx
ONNX_GEN := $(ONNX_GEN_DIR)/onnx.pb-c.c $(ONNX_GEN_DIR)/onnx.pb-c.h
ONNX_SRCS := $(wildcard lib/onnx/*.c)
ONNX_HDRS := $(wildcard lib/onnx/*.h) include/acl/acl_base.h
ONNX_CFLAGS := -I$(CURDIR)/lib/onnx -I$(ONNX_GEN_DIR)
ONNX_LIBS := -lprotobuf-c
ONNX_LINK_FILES := $(shell $(CC) -print-file-name=libprotobuf-c.so)
ONNX_GEN_CFLAGS := $(filter-out -Werror -Wextra,$(USER_CFLAGS)) -Wno-unused
ONNX_LIB := $(B)/lib/libvnpuonnx.a
ONNX_OBJS := $(patsubst lib/onnx/%.c,$(B)/lib/onnx/%.lo,$(ONNX_SRCS)) \
	$(ONNX_GEN_DIR)/onnx.pb-c.lo
ONNX_PB_SAN := $(ONNX_GEN_DIR)/san/onnx.pb-c.lo
ONNX_DUMP := $(B)/onnx/onnx_dump

.PHONY: onnx

onnx: $(ONNX_LIB) $(ONNX_DUMP) $(ONNX_DUMP)-san

# Both files from one protoc-c run: the header is made with the source.
$(ONNX_GEN_DIR)/onnx.pb-c.c: $(ONNX_PROTO)
	@mkdir -p $(dir $@)
	protoc-c --c_out=$(ONNX_GEN_DIR) -I$(dir $(ONNX_PROTO)) $(ONNX_PROTO)

$(ONNX_GEN_DIR)/onnx.pb-c.h: $(ONNX_GEN_DIR)/onnx.pb-c.c
	@test -f $@ && touch $@

$(ONNX_GEN_DIR)/onnx.pb-c.lo: $(ONNX_GEN)
	$(CC) $(USER_CPPFLAGS) $(ONNX_GEN_CFLAGS) -c -o $@ $<

$(ONNX_PB_SAN): $(ONNX_GEN)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) $(ONNX_GEN_CFLAGS) -O1 $(SAN) -c -o $@ $<

$(B)/lib/onnx/%.lo: lib/onnx/%.c $(ONNX_HDRS) $(ONNX_GEN)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) $(ONNX_CFLAGS) $(USER_CFLAGS) -c -o $@ $<

$(ONNX_LIB): $(ONNX_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $(ONNX_OBJS)

# The public header must stay valid C++17, and free of protobuf-c.
$(B)/lib/onnx/header-cxx.stamp: lib/onnx/vnpu_onnx.h
	@mkdir -p $(dir $@)
	printf '#include "vnpu_onnx.h"\n' | $(CXX) -std=c++17 -Wall -Wextra -Werror -x c++ \
		-Ilib/onnx -fsyntax-only -
	@touch $@

$(ONNX_LIB): $(B)/lib/onnx/header-cxx.stamp

$(ONNX_DUMP): tests/onnx/onnx_dump.c $(ONNX_LIB) lib/onnx/vnpu_onnx.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) $(ONNX_CFLAGS) -std=c11 -O2 -g $(WARN) -o $@ $< $(ONNX_LIB) \
		$(ONNX_LIBS)

$(ONNX_DUMP)-san: tests/onnx/onnx_dump.c $(ONNX_SRCS) $(ONNX_HDRS) $(ONNX_PB_SAN)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) $(ONNX_CFLAGS) -std=c11 -O1 -g $(WARN) $(SAN) -o $@ $< \
		$(ONNX_SRCS) $(ONNX_PB_SAN) $(ONNX_LIBS)

# lib/onnx/map: ONNX nodes to CANN operator calls (onnx_map.h), on lib/ops'
# attribute and tensor types; used by the node tests (tests/onnx).
#
#   ONNX_MAP_SRCS, ONNX_MAP_HDRS, ONNX_MAP_CFLAGS
ONNX_MAP_SRCS := $(wildcard lib/onnx/map/*.c)
ONNX_MAP_HDRS := $(wildcard lib/onnx/map/*.h)
ONNX_MAP_CFLAGS := -I$(CURDIR)/lib/onnx/map $(ONNX_CFLAGS) $(OPS_CFLAGS)

# The node tests (tests/onnx/node_tests.c, docs/ops.md): lib/ops, lib/onnx and
# the mapping compiled in with ASan and UBSan, libascendcl linked for --acl.
NODE_TESTS := $(B)/onnx/node_tests

# tests/onnx/node_common.c: what it shares with model_tests.c.
NODE_COMMON := tests/onnx/node_common.c tests/onnx/node_common.h

$(NODE_TESTS): tests/onnx/node_tests.c $(NODE_COMMON) $(OPS_SRCS) $(OPS_HDRS) $(ONNX_SRCS) $(ONNX_HDRS) \
		$(ONNX_MAP_SRCS) $(ONNX_MAP_HDRS) $(ONNX_PB_SAN) $(B)/lib/libascendcl.so
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) $(ONNX_MAP_CFLAGS) -std=gnu11 -O1 -g $(WARN) $(SAN) -o $@ $< \
		tests/onnx/node_common.c $(OPS_SRCS) $(ONNX_SRCS) $(ONNX_MAP_SRCS) $(ONNX_PB_SAN) \
		$(ONNX_LIBS) $(OPS_LIBS) -L$(B)/lib -Wl,-rpath,$(B)/lib -lascendcl

onnx: $(NODE_TESTS)

# The README's operator table (tests/onnx/ops_table.c; check-readme-ops.sh).
OPS_TABLE := $(B)/onnx/ops_table

$(OPS_TABLE): tests/onnx/ops_table.c $(OPS_SRCS) $(OPS_HDRS) $(ONNX_SRCS) $(ONNX_HDRS) \
		$(ONNX_MAP_SRCS) $(ONNX_MAP_HDRS) $(ONNX_GEN_DIR)/onnx.pb-c.lo
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) $(ONNX_MAP_CFLAGS) -std=gnu11 -O1 -g $(WARN) -o $@ $< \
		$(OPS_SRCS) $(ONNX_SRCS) $(ONNX_MAP_SRCS) $(ONNX_GEN_DIR)/onnx.pb-c.lo $(ONNX_LIBS) $(OPS_LIBS)

onnx: $(OPS_TABLE)
