/* SPDX-License-Identifier: MIT */
/*
 * om_builder.h - hand-built offline models (struct om_model, lib/om's
 * vnpu_om.h) for the tests that need a model without an ONNX file: the
 * model planner's unit tests (tests/unit/test_lib_model.c) and the model
 * runtime's guest suite (tests/acl/test_acl_model.c). Float values, plain
 * layout; failures are Check assertions.
 */
#ifndef VNPU_TESTS_OM_BUILDER_H
#define VNPU_TESTS_OM_BUILDER_H

#include <stdint.h>

#include "acl/acl_base.h"
#include "vnpu_om.h"

struct omb {
	struct om_model m;
	uint32_t cap_values, cap_nodes;
};

/* An empty model named @name with room for @cap_values values and
 * @cap_nodes nodes (16 inputs and outputs). */
void omb_init(struct omb *b, const char *name, uint32_t cap_values, uint32_t cap_nodes);
/* Value @name of @kind and shape @dims (ACL_FLOAT, ND); its index. */
uint32_t omb_value(struct omb *b, const char *name, enum om_value_kind kind, int ndim, const int64_t *dims);
/* A model input; @range (NULL: none) holds a [min, max] pair per dimension. */
uint32_t omb_input(struct omb *b, const char *name, int ndim, const int64_t *dims, const int64_t *range);
/* A float constant of shape @dims holding @vals, its bytes 64-byte aligned
 * in the weights. */
uint32_t omb_const(struct omb *b, const char *name, int ndim, const int64_t *dims, const float *vals);
/* A node of @type on @nin values with one output of model shape @dims;
 * returns the output value. */
uint32_t omb_node(struct omb *b, const char *type, uint32_t nin, const uint32_t *in, int ndim, const int64_t *dims);
/* Node @node's attribute "axes" = [@axis]. */
void omb_attr_axes(struct omb *b, uint32_t node, int64_t axis);
void omb_output(struct omb *b, uint32_t v);
/* Free everything the model holds (not @b itself). */
void omb_free(struct omb *b);

#endif /* VNPU_TESTS_OM_BUILDER_H */
