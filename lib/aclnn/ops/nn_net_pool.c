// SPDX-License-Identifier: MIT
/*
 * nn_net_pool.c - pooling: 2-D over [N, C, H, W] or [C, H, W]
 * (aclnnMaxPool2dWithIndices, PyTorch's max_pool2d with indices;
 * aclnnMaxPool, ONNX-style arguments; aclnnAvgPool2d; the adaptive pools
 * aclnnAdaptiveAvgPool2d, aclnnAdaptiveMaxPool2d) and 3-D over
 * [N, C, D, H, W] or [C, D, H, W] (aclnnAvgPool3d, aclnnMaxPool3dWithArgmax).
 *
 * lib/ops' MaxPoolV3, AvgPoolV2 (NCHW), MaxPool3D, AvgPool3D (NCDHW; pads
 * per side, ceil_mode with PyTorch's rule that the last window starts
 * inside the input or its front pad), AdaptiveAvgPool2d and
 * AdaptiveMaxPool2d compute. An input without N is seen as one image
 * ([1, C, ...], a view). The max pools' indices count over the whole
 * input; PyTorch's count within each plane (H * W, or D * H * W): a
 * FloorMod by the plane's size makes them so.
 */
#include "aclnnop/aclnn_adaptive_avg_pool2d.h"
#include "aclnnop/aclnn_adaptive_max_pool2d.h"
#include "aclnnop/aclnn_avgpool2d.h"
#include "aclnnop/aclnn_avgpool3d.h"
#include "aclnnop/aclnn_max_pool.h"
#include "aclnnop/aclnn_max_pool2d_with_indices.h"
#include "aclnnop/aclnn_max_pool3d_with_argmax.h"
#include "nn_net.h"

static const aclDataType maxpool_dts[] = {
	ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_INT16, ACL_INT8, ACL_UINT16,
};
static const aclDataType index_dts[] = { ACL_INT64, ACL_INT32 };

/* The most spatial axes a pool has here (3-D pools). */
#define POOL_MAX_SP 3

/* A pool's window: lib/ops' full lists (N, C, then @nsp spatial axes;
 * pads before and after each spatial axis). */
struct pool_win {
	int nsp;
	int64_t ks[2 + POOL_MAX_SP], st[2 + POOL_MAX_SP], dl[2 + POOL_MAX_SP], pd[2 * POOL_MAX_SP];
};

/* @self as N, C and @nsp spatial axes (an input without N gains N = 1);
 * *@three says it had none (the name is the 2-D pools' CHW case). */
static nn_val pool_input(struct nn_exec *x, nn_val self, const aclDataType *dts, int ndts, int nsp, bool *three)
{
	int64_t d[2 + POOL_MAX_SP], s[2 + POOL_MAX_SP];
	const struct nn_view *v;

	*three = false;
	if (!nn_check_dtype(x, self, "self", dts, ndts) || !nn_check_rank(x, self, "self", nsp + 1, nsp + 2))
		return NN_NONE;
	v = nn_view(x, self);
	if (v->ndim == nsp + 2)
		return self;
	*three = true;
	d[0] = 1;
	s[0] = 0;
	for (int i = 0; i <= nsp; i++) {
		d[1 + i] = v->dims[i];
		s[1 + i] = v->strides[i];
	}
	return nn_restride(x, self, nsp + 2, d, s, v->offset);
}

/* @v (N first) back in the input's rank: N dropped when the input had none. */
static nn_val pool_output(struct nn_exec *x, nn_val v, bool three)
{
	int64_t d[1 + POOL_MAX_SP];
	int n;

	if (!three || !nn_ok(x))
		return v;
	/* copied: nn_view()'s pointer lasts until the next value */
	n = nn_view(x, v)->ndim - 1;
	for (int i = 0; i < n; i++)
		d[i] = nn_view(x, v)->dims[1 + i];
	return nn_reshape(x, v, n, d);
}

/*
 * PyTorch's window arguments over @nsp spatial axes: kernel (1 or @nsp
 * values), stride (empty or NULL: the kernel), symmetric padding (at most
 * half the kernel), dilation (NULL: 1).
 */
static bool pool_torch_win(struct nn_exec *x, int nsp, const aclIntArray *kernel, const char *kname,
			   const aclIntArray *stride, const char *sname, const aclIntArray *padding,
			   const char *pname, const aclIntArray *dilation, struct pool_win *w)
{
	int64_t k[POOL_MAX_SP], s[POOL_MAX_SP], p[POOL_MAX_SP], d[POOL_MAX_SP] = { 1, 1, 1 };
	int i;

	w->nsp = nsp;
	if (!nnn_spatial(x, kernel, kname, nsp, -1, 1, k) || !nnn_spatial(x, stride, sname, nsp, 0, 0, s) ||
	    !nnn_spatial(x, padding, pname, nsp, 0, 0, p) ||
	    (dilation && !nnn_spatial(x, dilation, "dilation", nsp, 1, 1, d)))
		return false;
	for (i = 0; i < nsp; i++) {
		if (!s[i])
			s[i] = k[i];
		if (p[i] > k[i] / 2) {
			nn_fail(x, ACLNN_ERR_PARAM_INVALID, "%s[%d] = %" PRId64 " must be at most half the "
				"kernel (%" PRId64 ")", pname, i, p[i], k[i]);
			return false;
		}
		w->ks[2 + i] = k[i];
		w->st[2 + i] = s[i];
		w->dl[2 + i] = d[i];
		w->pd[2 * i] = w->pd[2 * i + 1] = p[i];
	}
	w->ks[0] = w->ks[1] = w->st[0] = w->st[1] = w->dl[0] = w->dl[1] = 1;
	return true;
}

/*
 * MaxPoolV3 (2 spatial axes) or MaxPool3D (3) over @in (N, C first), its
 * values into @out and, when @indices is not NN_ABSENT, PyTorch's indices
 * (flat within each plane of the spatial axes).
 */
static void max_pool(struct nn_exec *x, nn_val in, bool three, const struct pool_win *w, bool ceil,
		     nn_val out, nn_val indices)
{
	int nsp = w->nsp;
	struct vops_attr at[] = {
		NN_ATTR_INTS("ksize", 2 + nsp, w->ks), NN_ATTR_INTS("strides", 2 + nsp, w->st),
		NN_ATTR_INTS("pads", 2 * nsp, w->pd), NN_ATTR_INTS("dilation", 2 + nsp, w->dl),
		NN_ATTR_INT("ceil_mode", ceil ? 1 : 0), NN_ATTR_STRING("data_format", nsp == 3 ? "NCDHW" : "NCHW"),
	};
	nn_val res[2];
	int64_t hw = 1;

	if (!nn_ok(x))
		return;
	for (int i = 0; i < nsp; i++)
		hw *= nn_view(x, in)->dims[2 + i];
	if (nn_op(x, nsp == 3 ? "MaxPool3D" : "MaxPoolV3", 1, &in, at, NN_COUNT(at), indices == NN_ABSENT ? 1 : 2,
		  res))
		return;
	nn_store(x, pool_output(x, res[0], three), out);
	if (indices != NN_ABSENT) {
		nn_val m[] = { res[1], nn_const(x, (double)(hw ? hw : 1), ACL_INT64) };

		nn_store(x, pool_output(x, nn_op1(x, "FloorMod", 2, m, NULL, 0), three), indices);
	}
}

/*
 * PyTorch's max pool with indices over @nsp spatial axes; a NULL dilation
 * is all 1 where CANN allows it (@need_dilation false: the 3-D form).
 */
static aclnnStatus max_pool_indices(const char *api, int nsp, const aclTensor *self, const aclIntArray *kernelSize,
				    const aclIntArray *stride, const aclIntArray *padding, const aclIntArray *dilation,
				    bool need_dilation, bool ceilMode, aclTensor *out, aclTensor *indices, uint64_t *ws,
				    aclOpExecutor **ex)
{
	struct nn_exec *x = nn_begin(api);
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out"), io = nn_out(x, indices, "indices");
	struct pool_win w;
	bool three;

	a = pool_input(x, a, nnn_float_dts, NNN_NFLOAT, nsp, &three);
	nn_check_dtype(x, io, "indices", index_dts, NN_COUNT(index_dts));
	if (need_dilation && !dilation)
		nn_null(x, dilation, "dilation");
	if (pool_torch_win(x, nsp, kernelSize, "kernelSize", stride, "stride", padding, "padding", dilation, &w))
		max_pool(x, a, three, &w, ceilMode, o, io);
	return nn_finish(x, ws, ex);
}

aclnnStatus aclnnMaxPool2dWithIndicesGetWorkspaceSize(const aclTensor *self, const aclIntArray *kernelSize,
						      const aclIntArray *stride, const aclIntArray *padding,
						      const aclIntArray *dilation, bool ceilMode, aclTensor *out,
						      aclTensor *indices, uint64_t *workspaceSize,
						      aclOpExecutor **executor)
{
	return max_pool_indices("aclnnMaxPool2dWithIndices", 2, self, kernelSize, stride, padding, dilation, true,
				ceilMode, out, indices, workspaceSize, executor);
}
NN_LAUNCH(aclnnMaxPool2dWithIndices)

aclnnStatus aclnnMaxPool3dWithArgmaxGetWorkspaceSize(const aclTensor *self, const aclIntArray *kernelSize,
						     const aclIntArray *stride, const aclIntArray *padding,
						     const aclIntArray *dilation, bool ceilMode, aclTensor *out,
						     aclTensor *indices, uint64_t *workspaceSize,
						     aclOpExecutor **executor)
{
	return max_pool_indices("aclnnMaxPool3dWithArgmax", 3, self, kernelSize, stride, padding, dilation, false,
				ceilMode, out, indices, workspaceSize, executor);
}
NN_LAUNCH(aclnnMaxPool3dWithArgmax)

/*
 * ONNX's MaxPool arguments: autoPad 0 (NOTSET) only; pads empty, one
 * value, one per axis (both sides) or four (ONNX's order: top, left,
 * bottom, right), the two of an axis together at most its kernel.
 */
aclnnStatus aclnnMaxPoolGetWorkspaceSize(const aclTensor *self, const aclIntArray *kernelShape,
					 const aclIntArray *strides, const int64_t autoPad, const aclIntArray *pads,
					 const aclIntArray *dilations, const int64_t ceilMode, aclTensor *out,
					 uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnMaxPool");
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");
	int64_t k[2], s[2], d[2] = { 1, 1 }, p[4] = { 0, 0, 0, 0 };
	const int64_t *pv = NULL, *dv = NULL;
	uint64_t np = 0, nd = 0;
	struct pool_win w;
	bool three;
	int i;

	a = pool_input(x, a, maxpool_dts, NN_COUNT(maxpool_dts), 2, &three);
	if (nn_ok(x) && autoPad != 0)
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "autoPad %" PRId64 " is not 0 (NOTSET, the only one "
			"supported)", autoPad);
	if (pads)
		pv = nn_ints(x, pads, "pads", &np);
	if (np == 4) {
		for (i = 0; i < 4; i++)
			p[i] = pv[i];
	} else if (nnn_spatial(x, pads, "pads", 2, 0, 0, p)) {
		p[2] = p[0];
		p[3] = p[1];
	}
	/* dilations of length 4 repeat the two (ONNX gives them per side there too) */
	if (dilations)
		dv = nn_ints(x, dilations, "dilations", &nd);
	if (nd == 4) {
		d[0] = dv[0];
		d[1] = dv[1];
	} else {
		nnn_spatial(x, dilations, "dilations", 2, 1, 1, d);
	}
	if (nnn_spatial(x, kernelShape, "kernelShape", 2, -1, 1, k) &&
	    nnn_spatial(x, strides, "strides", 2, 1, 1, s)) {
		for (i = 0; i < 2; i++) {
			if (p[i] < 0 || p[i + 2] < 0 || p[i] + p[i + 2] > k[i] || d[i] < 1) {
				nn_fail(x, ACLNN_ERR_PARAM_INVALID, "pads %" PRId64 ", %" PRId64 " of spatial "
					"axis %d must be >= 0 and together at most the kernel (%" PRId64
					"), dilation >= 1", p[i], p[i + 2], i, k[i]);
				return nn_finish(x, workspaceSize, executor);
			}
			w.ks[2 + i] = k[i];
			w.st[2 + i] = s[i];
			w.dl[2 + i] = d[i];
			w.pd[2 * i] = p[i];
			w.pd[2 * i + 1] = p[i + 2];
		}
		w.ks[0] = w.ks[1] = w.st[0] = w.st[1] = w.dl[0] = w.dl[1] = 1;
		w.nsp = 2;
		max_pool(x, a, three, &w, ceilMode != 0, o, NN_ABSENT);
	}
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnMaxPool)

/* AvgPoolV2 (2 spatial axes) or AvgPool3D (3) of @a into @o with PyTorch's arguments. */
static void avg_pool(struct nn_exec *x, int nsp, nn_val a, const aclIntArray *kernelSize, const aclIntArray *strides,
		     const char *sname, const aclIntArray *paddings, const char *pname, bool ceilMode,
		     bool countIncludePad, int64_t divisorOverride, nn_val o)
{
	struct pool_win w;
	bool three;

	a = pool_input(x, a, nnn_float_dts, NNN_NFLOAT, nsp, &three);
	if (nn_ok(x) && divisorOverride < 0)
		nn_fail(x, ACLNN_ERR_PARAM_INVALID, "divisorOverride %" PRId64 " must be 0 (none) or "
			"positive", divisorOverride);
	if (!strides)
		nn_null(x, strides, sname);
	if (!paddings)
		nn_null(x, paddings, pname);
	if (!pool_torch_win(x, nsp, kernelSize, "kernelSize", strides, sname, paddings, pname, NULL, &w))
		return;
	if (nsp == 3) {
		struct vops_attr at[] = {
			NN_ATTR_INTS("ksize", 5, w.ks), NN_ATTR_INTS("strides", 5, w.st),
			NN_ATTR_INTS("pads", 6, w.pd), NN_ATTR_INT("ceil_mode", ceilMode ? 1 : 0),
			NN_ATTR_BOOL("count_include_pad", countIncludePad),
			NN_ATTR_INT("divisor_override", divisorOverride),
			NN_ATTR_STRING("data_format", "NCDHW"),
		};

		nn_store(x, pool_output(x, nn_op1(x, "AvgPool3D", 1, &a, at, NN_COUNT(at)), three), o);
	} else {
		struct vops_attr at[] = {
			NN_ATTR_INTS("ksize", 4, w.ks), NN_ATTR_INTS("strides", 4, w.st),
			NN_ATTR_INTS("pads", 4, w.pd), NN_ATTR_INT("ceil_mode", ceilMode ? 1 : 0),
			NN_ATTR_BOOL("exclusive", !countIncludePad),
			NN_ATTR_INT("divisor_override", divisorOverride),
			NN_ATTR_STRING("data_format", "NCHW"),
		};

		nn_store(x, pool_output(x, nn_op1(x, "AvgPoolV2", 1, &a, at, NN_COUNT(at)), three), o);
	}
}

aclnnStatus aclnnAvgPool2dGetWorkspaceSize(const aclTensor *self, const aclIntArray *kernelSize,
					   const aclIntArray *strides, const aclIntArray *paddings,
					   const bool ceilMode, const bool countIncludePad,
					   const int64_t divisorOverride, const int8_t cubeMathType, aclTensor *out,
					   uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnAvgPool2d");
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");

	nnn_cube_math(x, cubeMathType);
	avg_pool(x, 2, a, kernelSize, strides, "strides", paddings, "paddings", ceilMode, countIncludePad,
		 divisorOverride, o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnAvgPool2d)

aclnnStatus aclnnAvgPool3dGetWorkspaceSize(const aclTensor *self, const aclIntArray *kernelSize,
					   const aclIntArray *stride, const aclIntArray *padding, bool ceilMode,
					   bool countIncludePad, int64_t divisorOverride, aclTensor *out,
					   uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnAvgPool3d");
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");

	avg_pool(x, 3, a, kernelSize, stride, "stride", padding, "padding", ceilMode, countIncludePad,
		 divisorOverride, o);
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnAvgPool3d)

/* ---- adaptive pools ------------------------------------------------------------ */

/* outputSize: [H, W] or one value for both, each >= 1. */
static bool adaptive_size(struct nn_exec *x, const aclIntArray *output_size, int64_t *hw)
{
	return nnn_spatial(x, output_size, "outputSize", 2, -1, 1, hw);
}

aclnnStatus aclnnAdaptiveAvgPool2dGetWorkspaceSize(const aclTensor *self, const aclIntArray *outputSize,
						   aclTensor *out, uint64_t *workspaceSize,
						   aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnAdaptiveAvgPool2d");
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, out, "out");
	int64_t hw[2];
	bool three;

	a = pool_input(x, a, nnn_float_dts, NNN_NFLOAT, 2, &three);
	if (adaptive_size(x, outputSize, hw)) {
		struct vops_attr at[] = { NN_ATTR_INTS("output_size", 2, hw) };

		nn_store(x, pool_output(x, nn_op1(x, "AdaptiveAvgPool2d", 1, &a, at, NN_COUNT(at)), three), o);
	}
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnAdaptiveAvgPool2d)

aclnnStatus aclnnAdaptiveMaxPool2dGetWorkspaceSize(const aclTensor *self, const aclIntArray *outputSize,
						   aclTensor *outputOut, aclTensor *indicesOut,
						   uint64_t *workspaceSize, aclOpExecutor **executor)
{
	struct nn_exec *x = nn_begin("aclnnAdaptiveMaxPool2d");
	nn_val a = nn_in(x, self, "self"), o = nn_out(x, outputOut, "outputOut");
	nn_val io = nn_out(x, indicesOut, "indicesOut");
	int64_t hw[2];
	bool three;

	a = pool_input(x, a, nnn_float_dts, NNN_NFLOAT, 2, &three);
	nn_check_dtype(x, io, "indicesOut", index_dts, NN_COUNT(index_dts));
	if (adaptive_size(x, outputSize, hw)) {
		struct vops_attr at[] = { NN_ATTR_INTS("output_size", 2, hw) };
		nn_val res[2];

		/* its indices already count within each plane, as PyTorch's */
		if (nn_op(x, "AdaptiveMaxPool2d", 1, &a, at, NN_COUNT(at), 2, res) == 0) {
			nn_store(x, pool_output(x, res[0], three), o);
			nn_store(x, pool_output(x, res[1], three), io);
		}
	}
	return nn_finish(x, workspaceSize, executor);
}
NN_LAUNCH(aclnnAdaptiveMaxPool2d)
