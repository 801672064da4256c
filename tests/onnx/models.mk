# SPDX-License-Identifier: MIT
#
# The test models of issue 15 and the programs that run them: included by
# the top-level Makefile after lib/onnx/onnx.mk, paths relative to the
# project root (docs/model-tests.md).
#
#   MAKE_MODELS  $(B)/onnx/make_models (tests/onnx/make_models.c): writes the
#                ONNX models of tests/onnx/models.h; --verify runs them on
#                the host through lib/onnx/map and lib/ops (ASan, UBSan)
#   MODELS       $(B)/models/{mlp,cnn,cnn_hw}.onnx, made by make all
#
#   make models         the models
#   make models-verify  the models on the host against models.h's references
#
# The CANN-style programs tests/acl/examples/model_*.c are built by the
# examples' rule of the Makefile (-Iinclude -lascendcl, as an application
# is); here they only gain models.h and the models as prerequisites.
# tests/bench/bench_model.c links libascendcl, as bench_allocator does.

MODELS_DIR := $(B)/models
MAKE_MODELS := $(B)/onnx/make_models
MODEL_NAMES := mlp cnn cnn_hw
MODELS := $(patsubst %,$(MODELS_DIR)/%.onnx,$(MODEL_NAMES))

.PHONY: models models-verify

models: $(MODELS)

all: models

$(MAKE_MODELS): tests/onnx/make_models.c tests/onnx/models.h $(OPS_SRCS) $(OPS_HDRS) $(ONNX_SRCS) \
		$(ONNX_HDRS) $(ONNX_MAP_SRCS) $(ONNX_MAP_HDRS) $(ONNX_PB_SAN)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) $(ONNX_MAP_CFLAGS) -std=gnu11 -O1 -g $(WARN) $(SAN) -o $@ $< \
		$(OPS_SRCS) $(ONNX_SRCS) $(ONNX_MAP_SRCS) $(ONNX_PB_SAN) $(ONNX_LIBS) $(OPS_LIBS) -lm

$(MODELS_DIR)/%.onnx: $(MAKE_MODELS)
	@mkdir -p $(dir $@)
	$(MAKE_MODELS) $(MODELS_DIR) $*

models-verify: $(MODELS)
	$(MAKE_MODELS) --verify $(MODELS_DIR)

MODEL_EXAMPLES := $(patsubst tests/acl/examples/%.c,$(B)/acl/examples/%,\
	$(wildcard tests/acl/examples/model_*.c))

$(MODEL_EXAMPLES): tests/onnx/models.h | $(MODELS)

$(B)/bench/bench_model: tests/bench/bench_model.c tests/bench/bench.h tests/bench/bench_acl.h tests/onnx/models.h $(LIB) \
		$(B)/lib/libascendcl.so | $(MODELS)
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) -Itests/bench -Itests/onnx -std=gnu11 -O2 -g $(WARN) -pthread -o $@ $< \
		$(ACL_LINK) -lm

# The node tests as models (tests/onnx/model_tests.c): each test's graph
# through vnpu-atc's converter and lib/om, run on the host with lib/ops or,
# with --acl, by aclmdlExecute; everything but libascendcl under ASan and
# UBSan.
MODEL_TESTS := $(B)/onnx/model_tests

$(MODEL_TESTS): tests/onnx/model_tests.c $(NODE_COMMON) $(ATC_SRCS) $(ATC_HDRS) $(ONNX_SRCS) \
		$(ONNX_MAP_SRCS) $(OPS_SRCS) $(OM_SRCS) $(ONNX_PB_SAN) $(OM_PB_SAN) $(LIB) \
		$(B)/lib/libascendcl.so
	@mkdir -p $(dir $@)
	$(CC) $(USER_CPPFLAGS) $(ATC_CFLAGS) -Iinclude -std=gnu11 -O1 -g $(WARN) $(SAN) -o $@ $< \
		tests/onnx/node_common.c $(ATC_SRCS) $(ONNX_SRCS) $(ONNX_MAP_SRCS) $(OPS_SRCS) $(OM_SRCS) \
		$(ONNX_PB_SAN) $(OM_PB_SAN) $(ONNX_LIBS) $(OPS_LIBS) -L$(B)/lib -Wl,-rpath,$(B)/lib \
		-lascendcl -lm

onnx: $(MODEL_TESTS)
