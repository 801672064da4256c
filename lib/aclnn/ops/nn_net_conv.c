// SPDX-License-Identifier: MIT
/*
 * nn_net_conv.c - aclnnConvolution: 1-D (NCL), 2-D (NCHW) and 3-D (NCDHW)
 * convolutions, grouped and dilated, and their transposes.
 *
 * lib/ops' Conv2D (which also takes NCW input: the 1-D case, H's
 * entries 1), Conv3D, Conv2DTransposeD and Conv3DTransposeD do the work,
 * with data_format NCHW / NCDHW and symmetric pads. PyTorch's weight
 * layouts are theirs: [Cout, Cin / groups, k...] and, transposed,
 * [Cin, Cout / groups, k...]. Types fp32, fp16, bf16 (input and weight
 * of one type or fp16 with fp32: fp32); bias of any of them, cast.
 */
#include "aclnnop/aclnn_convolution.h"
#include "nn_net.h"

aclnnStatus aclnnConvolutionGetWorkspaceSize(const aclTensor *input, const aclTensor *weight,
					     const aclTensor *bias, const aclIntArray *stride,
					     const aclIntArray *padding, const aclIntArray *dilation,
					     bool transposed, const aclIntArray *outputPadding, int64_t groups,
					     aclTensor *output, int8_t cubeMathType, uint64_t *workspaceSize,
					     aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnConvolution");
	nn_val in = nn_in(x, input, "input"), w = nn_in(x, weight, "weight");
	nn_val b = nn_in_opt(x, bias, "bias"), o = nn_out(x, output, "output");
	int64_t st[3], pd[3], dl[3], op[3] = { 0, 0, 0 }, cin, cout, wd0, wd1;
	/* lib/ops' full-rank lists: N and C entries first; a 1-D call is Conv2D on NCW with H's 1 */
	int64_t lst[5], ldl[5], lpd[10], lop[5], lsz[5];
	int rank, nsp, full, skip, i;
	aclDataType dt;

	nnn_cube_math(x, cubeMathType);
	if (!nn_check_rank(x, in, "input", 3, 5))
		return nn_finish(x, workspaceSize, executor);
	rank = nn_view(x, in)->ndim;
	nsp = rank - 2;
	if (nn_ok(x) && nn_view(x, w)->ndim != rank)
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "weight %s must have the rank of input %s",
			nn_shape_str(x, w), nn_shape_str(x, in));
	dt = nnn_float_type(x, in, w, "input", "weight");
	if (b != NN_ABSENT)
		nn_check_dtype(x, b, "bias", nnn_float_dts, NNN_NFLOAT);
	nnn_spatial(x, stride, "stride", nsp, -1, 1, st);
	nnn_spatial(x, padding, "padding", nsp, -1, 0, pd);
	nnn_spatial(x, dilation, "dilation", nsp, -1, 1, dl);
	if (transposed)
		nnn_spatial(x, outputPadding, "outputPadding", nsp, 0, 0, op);
	if (!nn_ok(x))
		return nn_finish(x, workspaceSize, executor);
	cin = nn_view(x, in)->dims[1];
	wd0 = nn_view(x, w)->dims[0];
	wd1 = nn_view(x, w)->dims[1];
	if (groups < 1 || cin % groups) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "groups %" PRId64 " does not divide the %" PRId64
			" channels of input %s", groups, cin, nn_shape_str(x, in));
		return nn_finish(x, workspaceSize, executor);
	}
	if (transposed ? wd0 != cin : wd1 * groups != cin || wd0 % groups) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "weight %s does not fit input %s with groups %" PRId64
			" (%s)", nn_shape_str(x, w), nn_shape_str(x, in), groups,
			transposed ? "transposed: [Cin, Cout / groups, k...]" :
				     "[Cout, Cin / groups, k...], Cout a multiple of groups");
		return nn_finish(x, workspaceSize, executor);
	}
	cout = transposed ? wd1 * groups : wd0;
	if (b != NN_ABSENT && (nn_view(x, b)->ndim != 1 || nn_view(x, b)->dims[0] != cout)) {
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "bias %s must be [%" PRId64 "] (the output channels)",
			nn_shape_str(x, b), cout);
		return nn_finish(x, workspaceSize, executor);
	}
	for (i = 0; transposed && i < nsp; i++)
		if (op[i] >= st[i] && op[i] >= dl[i]) {
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "outputPadding[%d] = %" PRId64 " must be smaller "
				"than stride (%" PRId64 ") or dilation (%" PRId64 ")", i, op[i], st[i], dl[i]);
			return nn_finish(x, workspaceSize, executor);
		}
	full = nsp == 3 ? 5 : 4;
	skip = full - 2 - nsp;
	for (i = 0; i < full; i++) {
		lst[i] = ldl[i] = 1;
		lop[i] = 0;
		lsz[i] = 1;
	}
	for (i = 0; i < 2 * (full - 2); i++)
		lpd[i] = 0;
	lsz[0] = nn_view(x, in)->dims[0];
	lsz[1] = cout;
	for (i = 0; i < nsp; i++) {
		int a = 2 + skip + i;
		int64_t k = nn_view(x, w)->dims[2 + i];

		lst[a] = st[i];
		ldl[a] = dl[i];
		lpd[2 * (a - 2)] = lpd[2 * (a - 2) + 1] = pd[i];
		lop[a] = op[i];
		/* PyTorch's transposed output size; Conv*TransposeD checks it again */
		lsz[a] = (nn_view(x, in)->dims[2 + i] - 1) * st[i] - 2 * pd[i] + dl[i] * (k - 1) + op[i] + 1;
		if (transposed && lsz[a] < 1) {
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "the transposed output of spatial axis %d would "
				"have %" PRId64 " elements", i, lsz[a]);
			return nn_finish(x, workspaceSize, executor);
		}
	}
	{
		nn_val ops[3] = { nn_cast(x, in, dt), nn_cast(x, w, dt), NN_NONE };
		int n = 2;

		if (b != NN_ABSENT)
			ops[n++] = nn_cast(x, b, dt);
		if (transposed) {
			struct vops_attr at[] = {
				NN_ATTR_INTS("input_size", full, lsz), NN_ATTR_INTS("strides", full, lst),
				NN_ATTR_INTS("pads", 2 * (full - 2), lpd), NN_ATTR_INTS("dilations", full, ldl),
				NN_ATTR_INT("groups", groups), NN_ATTR_INTS("output_padding", full, lop),
				NN_ATTR_STRING("data_format", nsp == 3 ? "NCDHW" : "NCHW"),
			};

			nn_store(x, nn_op1(x, nsp == 3 ? "Conv3DTransposeD" : "Conv2DTransposeD", n, ops, at,
					   NN_COUNT(at)), o);
		} else {
			struct vops_attr at[] = {
				NN_ATTR_INTS("strides", full, lst), NN_ATTR_INTS("pads", 2 * (full - 2), lpd),
				NN_ATTR_INTS("dilations", full, ldl), NN_ATTR_INT("groups", groups),
				NN_ATTR_STRING("data_format", nsp == 3 ? "NCDHW" : "NCHW"),
			};

			nn_store(x, nn_op1(x, nsp == 3 ? "Conv3D" : "Conv2D", n, ops, at, NN_COUNT(at)), o);
		}
	}
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnConvolution)
