# SPDX-License-Identifier: MIT
#
# lib/om, vnpu's offline model and its .om container (lib/om/vnpu_om.h);
# included by the top-level Makefile, paths relative to the project root.
#
#   OM_SRCS      its own sources (libascendcl, vnpu-atc and the host unit
#                tests compile them)
#   OM_HDRS      its headers, for dependencies
#   OM_GEN       the protobuf-c code generated from lib/om/ge_ir.proto (the
#                ModelDef part of CANN's ge_ir.proto, written here with its
#                field numbers) at build time, never committed
#   OM_GEN_DIR   where it goes
#   OM_CFLAGS    include directories for lib/om and the generated header
#   OM_LIBS      what a program linking it needs (-lprotobuf-c)
#   OM_PB_SAN    the generated code compiled with ASan/UBSan (unit tests)

OM_PROTO := lib/om/ge_ir.proto
OM_GEN_DIR := $(B)/lib/om
OM_GEN := $(OM_GEN_DIR)/ge_ir.pb-c.c $(OM_GEN_DIR)/ge_ir.pb-c.h
OM_SRCS := $(wildcard lib/om/*.c)
OM_HDRS := $(wildcard lib/om/*.h) lib/ops/vnpu_ops.h
OM_CFLAGS := -I$(CURDIR)/lib/om -I$(OM_GEN_DIR)
OM_LIBS := -lprotobuf-c
OM_GEN_CFLAGS := $(filter-out -Werror -Wextra,$(USER_CFLAGS)) -Wno-unused
OM_PB_LO := $(OM_GEN_DIR)/ge_ir.pb-c.lo
OM_PB_SAN := $(OM_GEN_DIR)/san/ge_ir.pb-c.lo

$(OM_GEN_DIR)/ge_ir.pb-c.c: $(OM_PROTO)
	@mkdir -p $(dir $@)
	protoc-c --c_out=$(OM_GEN_DIR) -I$(dir $(OM_PROTO)) $(OM_PROTO)

$(OM_GEN_DIR)/ge_ir.pb-c.h: $(OM_GEN_DIR)/ge_ir.pb-c.c
	@test -f $@ && touch $@

$(OM_PB_LO): $(OM_GEN)
	$(CC) $(USER_CPPFLAGS) $(OM_GEN_CFLAGS) -fPIC -fvisibility=hidden -c -o $@ $<

$(OM_PB_SAN): $(OM_GEN)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) $(OM_GEN_CFLAGS) -O1 $(SAN) -c -o $@ $<

# The host unit tests (tests/unit/test_om.c): lib/om and the generated code
# under ASan and UBSan; lib/ops (element sizes, type names) from its archive.
#   OM_LINK_FILES  libprotobuf-c as a file, for rules whose inputs are file lists
OM_LINK_FILES := $(shell $(CC) -print-file-name=libprotobuf-c.so)
UNIT_EXTRA_test_om := $(OM_SRCS) $(OM_PB_SAN) $(OPS_LIB) $(OPS_LINK_FILES) $(OM_LINK_FILES)
UNIT_EXTRA_CFLAGS_test_om := $(OM_CFLAGS) $(OPS_CFLAGS) $(OPS_RPATH)
$(B)/unit/test_om: $(OM_HDRS) $(OM_GEN)
