# SPDX-License-Identifier: MIT
#
# tools/atc: vnpu-atc, ONNX to .om (docs/atc.md); included by the top-level
# Makefile, paths relative to the project root.
#
#   ATC_SRCS     the converter and flag parser (what the unit tests link)
#   ATC          $(B)/tools/vnpu-atc, the CLI (tools/atc/atc_main.c)
#   ATC_CFLAGS   include directories for atc.h and what it includes
#
# The converter is lib/onnx, lib/onnx/map, lib/ops and lib/om compiled in.

ATC_SRCS := tools/atc/atc_opts.c tools/atc/atc_convert.c tools/atc/atc_emit.c
ATC_HDRS := $(wildcard tools/atc/*.h) $(ONNX_HDRS) $(ONNX_MAP_HDRS) $(OPS_HDRS) $(OM_HDRS)
ATC_CFLAGS := -I$(CURDIR)/tools/atc $(ONNX_MAP_CFLAGS) $(OM_CFLAGS)
ATC := $(B)/tools/vnpu-atc

$(ATC): tools/atc/atc_main.c $(ATC_SRCS) $(ATC_HDRS) $(ONNX_SRCS) $(ONNX_MAP_SRCS) $(OPS_SRCS) \
		$(OM_SRCS) $(ONNX_GEN_DIR)/onnx.pb-c.lo $(OM_PB_LO)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) $(ATC_CFLAGS) $(USER_CFLAGS) -o $@ tools/atc/atc_main.c $(ATC_SRCS) \
		$(ONNX_SRCS) $(ONNX_MAP_SRCS) $(OPS_SRCS) $(OM_SRCS) $(ONNX_GEN_DIR)/onnx.pb-c.lo \
		$(OM_PB_LO) $(ONNX_LIBS) $(OPS_LIBS)

# The unit test (tests/unit/test_atc.c): everything above under ASan and UBSan.
UNIT_EXTRA_test_atc := $(ATC_SRCS) $(ONNX_SRCS) $(ONNX_MAP_SRCS) $(OPS_SRCS) $(OM_SRCS) \
	$(ONNX_PB_SAN) $(OM_PB_SAN) $(ONNX_LINK_FILES) $(OPS_LINK_FILES)
UNIT_EXTRA_CFLAGS_test_atc := $(ATC_CFLAGS) $(OPS_RPATH) -pthread
$(B)/unit/test_atc: $(ATC_HDRS) $(ONNX_GEN) $(OM_GEN)
