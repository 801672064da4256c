// SPDX-License-Identifier: MIT
/*
 * nn_net_act.c - the softmax family and the activations with parameters:
 * aclnnSoftmax, aclnnLogSoftmax (over one dim), aclnnPrelu (a weight per
 * channel or one for all), aclnnLogSigmoid (aclnnGeluV2 is with the
 * unary math, nn_math_unary.c).
 *
 * lib/ops' SoftmaxV2, LogSoftmaxV2, PRelu and Softplus compute;
 * they read views in place or through their run's dense copies. Types
 * fp32, fp16, bf16 (softmaxes also fp64); out may be of another float
 * type (nn_store casts).
 */
#include "aclnnop/aclnn_log_softmax.h"
#include "aclnnop/aclnn_logsigmoid.h"
#include "aclnnop/aclnn_prelu.h"
#include "aclnnop/aclnn_softmax.h"
#include "nn_net.h"

static const aclDataType softmax_dts[] = { ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE };

/* Softmax or LogSoftmax (@op) of @self over @dim into @out. A 0-D tensor
 * is a softmax over one element (dim 0 or -1). */
static aclnnStatus softmax_common(const char *api, const char *op, const aclTensor *self, int64_t dim,
				  aclTensor *out, uint64_t *workspace_size, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin(api);
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");
	int rank = nn_view(x, a)->ndim, ax;

	nn_check_dtype(x, a, "self", softmax_dts, NN_COUNT(softmax_dts));
	ax = nn_axis(x, dim, rank, "dim");
	if (nn_ok(x)) {
		int64_t one = 1, axes = rank ? ax : 0;
		struct vops_attr at[] = { NN_ATTR_INTS("axes", 1, &axes) };
		nn_val v = rank ? a : nn_reshape(x, a, 1, &one);

		v = nn_op1(x, op, 1, &v, at, NN_COUNT(at));
		nn_store(x, rank ? v : nn_reshape(x, v, 0, NULL), o);
	}
	return nn_finish(x, workspace_size, executor);
}

aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor *self, int64_t dim, aclTensor *out,
					 uint64_t *workspaceSize, aclOpExecutor **executor)
{
	return softmax_common("aclnnSoftmax", "SoftmaxV2", self, dim, out, workspaceSize, executor);
}
NN_LAUNCH(aclnnSoftmax)

aclnnStatus aclnnLogSoftmaxGetWorkspaceSize(const aclTensor *self, int64_t dim, aclTensor *out,
					    uint64_t *workspaceSize, aclOpExecutor **executor)
{
	return softmax_common("aclnnLogSoftmax", "LogSoftmaxV2", self, dim, out, workspaceSize, executor);
}
NN_LAUNCH(aclnnLogSoftmax)

/*
 * PyTorch's prelu: weight has one element, or one per channel (self's
 * dimension 1; a self of rank < 2 has one channel). PRelu takes a 1-D
 * weight of that size as the channels, whatever the weight's own shape.
 */
aclnnStatus aclnnPreluGetWorkspaceSize(const aclTensor *self, const aclTensor *weight, aclTensor *out,
				       uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnPrelu");
	nn_val a = nn_in(x, self, "self"), w = nn_in(x, weight, "weight"), o = nn_out(x, out, "out");
	aclDataType dt = nnn_float_type(x, a, NN_ABSENT, "self", NULL);
	int64_t ch, cnt;

	nn_check_dtype(x, w, "weight", nnn_float_dts, NNN_NFLOAT);
	if (nn_ok(x)) {
		ch = nn_view(x, a)->ndim >= 2 ? nn_view(x, a)->dims[1] : 1;
		cnt = (int64_t)nn_view(x, w)->count;
		if (cnt != 1 && cnt != ch) {
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "weight %s has %" PRId64 " elements; self %s "
				"needs 1 or %" PRId64 " (its channels)", nn_shape_str(x, w), cnt,
				nn_shape_str(x, a), ch);
		} else {
			nn_val in[2];

			in[0] = a;
			in[1] = nn_cast(x, nn_reshape(x, w, 1, &cnt), dt);
			nn_store(x, nn_op1(x, "PRelu", 2, in, NULL, 0), o);
		}
	}
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnPrelu)

/* log(sigmoid(x)) = -softplus(-x), in fp32 for the half types (rounded once, by the store). */
aclnnStatus aclnnLogSigmoidGetWorkspaceSize(const aclTensor *self, aclTensor *out, uint64_t *workspaceSize,
					    aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnLogSigmoid");
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");

	nn_check_dtype(x, a, "self", nnn_float_dts, NNN_NFLOAT);
	if (nn_ok(x)) {
		nn_val v = nn_cast(x, a, ACL_FLOAT);

		v = nn_op1(x, "Neg", 1, &v, NULL, 0);
		v = nn_op1(x, "Softplus", 1, &v, NULL, 0);
		nn_store(x, nn_op1(x, "Neg", 1, &v, NULL, 0), o);
	}
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnLogSigmoid)
