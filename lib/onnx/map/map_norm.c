// SPDX-License-Identifier: MIT
/*
 * map_norm.c - ONNX nodes of the norm family to CANN operator calls
 * (onnx_map.h). ONNX's defaults are passed explicitly where CANN's differ.
 */
#include <stdlib.h>
#include <string.h>

#include "onnx_map.h"

/* Inference form only: CANN's parser sets is_training false and NCHW. */
static enum onnx_err map_batch_norm(struct onnx_map *m)
{
	enum onnx_err ret;

	if (onnx_attr_int(m->node, "training_mode", 0))
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "training_mode 1 is not supported "
				     "(vnpu's BatchNorm runs inference only)");
	if (m->node->noutputs != 1)
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "%zu outputs (inference has 1)",
				     m->node->noutputs);
	ret = onnx_map_simple(m, "BatchNorm");
	if (!ret)
		ret = onnx_map_attr_float(m, "epsilon", onnx_attr_float(m->node, "epsilon", 1e-5f));
	if (!ret)
		ret = onnx_map_attr_str(m, "data_format", "NCHW");
	return ret ? ret : onnx_map_attr_bool(m, "is_training", false);
}

/* A zero tensor of input @like's type and shape as the call's made tensor (ONNX's absent B). */
static enum onnx_err made_zeros(struct onnx_map *m, const struct onnx_tensor *like)
{
	struct onnx_call *c = m->call;
	struct onnx_tensor *t;

	if (c->nmade >= ONNX_CALL_MAX_MADE)
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "more than %d made tensors",
				     ONNX_CALL_MAX_MADE);
	t = &c->made[c->nmade];
	memset(t, 0, sizeof(*t));
	t->dtype = like->dtype;
	t->acl_dtype = like->acl_dtype;
	t->ndim = like->ndim;
	t->count = like->count;
	t->size = like->size;
	t->dims = calloc((size_t)like->ndim + 1, sizeof(int64_t));
	t->data = calloc(1, like->size ? like->size : 1);
	if (!t->dims || !t->data) {
		onnx_tensor_release(t);
		return onnx_map_fail(m, ONNX_ERR_NOMEM, "out of memory");
	}
	if (like->ndim)
		memcpy(t->dims, like->dims, (size_t)like->ndim * sizeof(int64_t));
	c->in[c->nin++] = ONNX_CALL_MADE + c->nmade++;
	return ONNX_OK;
}

/*
 * LayerNormalization's outputs are Y, Mean, InvStdDev: LayerNormV3 (y,
 * mean, rstd) when the node asks for InvStdDev, else CANN's parser target
 * LayerNorm (y, mean, variance). Both normalise and take gamma from ONNX's
 * axis (default -1); ONNX's epsilon default is 1e-5. stash_type is not
 * passed: vnpu computes in double whatever the type.
 */
static enum onnx_err map_layer_norm(struct onnx_map *m)
{
	int64_t axis = onnx_attr_int(m->node, "axis", -1);
	enum onnx_err ret;

	m->call->type = m->node->noutputs > 2 ? "LayerNormV3" : "LayerNorm";
	ret = onnx_map_inputs(m, 0, 1);
	if (!ret && onnx_map_has(m, 2))
		ret = onnx_map_inputs(m, 2, 2);
	else if (!ret) {
		if (!m->in[1].value)
			return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED, "input 1 has no value");
		ret = made_zeros(m, m->in[1].value);
	}
	if (!ret)
		ret = onnx_map_outputs(m, 0, -1);
	if (!ret)
		ret = onnx_map_attr_int(m, "begin_norm_axis", axis);
	if (!ret)
		ret = onnx_map_attr_int(m, "begin_params_axis", axis);
	if (ret)
		return ret;
	return onnx_map_attr_float(m, "epsilon", onnx_attr_float(m->node, "epsilon", 1e-5f));
}

/* CANN's parser sets NCHW and ONNX's epsilon (default 1e-5). */
static enum onnx_err map_instance_norm(struct onnx_map *m)
{
	enum onnx_err ret = onnx_map_simple(m, "InstanceNorm");

	if (!ret)
		ret = onnx_map_attr_str(m, "data_format", "NCHW");
	if (ret)
		return ret;
	return onnx_map_attr_float(m, "epsilon", onnx_attr_float(m->node, "epsilon", 1e-5f));
}

/*
 * ONNX's window of size channels (odd: centred) is CANN's depth_radius
 * (size - 1) / 2, and ONNX divides alpha by size where CANN (TensorFlow)
 * does not. ONNX's defaults: alpha 1e-4, beta 0.75, bias 1.
 */
static enum onnx_err map_lrn(struct onnx_map *m)
{
	int64_t size = onnx_attr_int(m->node, "size", 0);
	enum onnx_err ret;

	if (size < 1 || size % 2 == 0)
		return onnx_map_fail(m, ONNX_ERR_UNSUPPORTED,
				     "size %lld: CANN's depth_radius expresses odd sizes only",
				     (long long)size);
	ret = onnx_map_simple(m, "LRN");
	if (!ret)
		ret = onnx_map_attr_int(m, "depth_radius", (size - 1) / 2);
	if (!ret)
		ret = onnx_map_attr_float(m, "alpha", onnx_attr_float(m->node, "alpha", 1e-4f) /
					  (float)size);
	if (!ret)
		ret = onnx_map_attr_float(m, "beta", onnx_attr_float(m->node, "beta", 0.75f));
	if (!ret)
		ret = onnx_map_attr_float(m, "bias", onnx_attr_float(m->node, "bias", 1.0f));
	return ret ? ret : onnx_map_attr_str(m, "norm_region", "ACROSS_CHANNELS");
}

/*
 * ONNX's function is (X - mean) / (sqrt(variance) + 1e-9), CANN's MVNV2
 * with eps 1e-9; axes default [0, 2, 3] in both.
 */
static enum onnx_err map_mvn(struct onnx_map *m)
{
	static const int64_t dflt[] = { 0, 2, 3 };
	const int64_t *axes;
	enum onnx_err ret = onnx_map_simple(m, "MVNV2");
	size_t n;

	if (ret)
		return ret;
	axes = onnx_attr_ints(m->node, "axes", &n);
	if (!axes) {
		axes = dflt;
		n = 3;
	}
	ret = onnx_map_attr_ints(m, "axes", axes, (int)n);
	return ret ? ret : onnx_map_attr_float(m, "eps", 1e-9f);
}

const struct onnx_map_entry onnx_map_norm[] = {
	{ "BatchNormalization", map_batch_norm, "BatchNorm" },
	{ "LayerNormalization", map_layer_norm, "LayerNorm LayerNormV3" },
	{ "InstanceNormalization", map_instance_norm, "InstanceNorm" },
	{ "LRN", map_lrn, "LRN" },
	{ "MeanVarianceNormalization", map_mvn, "MVNV2" },
	{ NULL, NULL, NULL },
};
